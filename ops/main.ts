/**
 * The composition root: the one place where the pipeline and the accounts side meet (nothing in
 * schemas/, snapshots/, pipeline/ or api/ imports it). `pipeline daemon` with the alert mails
 * after each publish, and `alerts send`. Run through ./fds.
 */
import { daemonCommand } from "../pipeline/daemon/DaemonCommand.ts"
import { alertsCommand } from "./AlertsCommand.ts"
import { alertsAfterPublish } from "./SendAlerts.ts"

const [command, sub, ...rest] = process.argv.slice(2)
if (command === "pipeline" && sub === "daemon") daemonCommand(process.env, { afterPublish: alertsAfterPublish(process.env) })
else if (command === "alerts") process.exitCode = await alertsCommand(sub, rest)
else {
  console.error(`fds: unknown command: ${[command, sub].filter(Boolean).join(" ")}`)
  process.exitCode = 2
}
