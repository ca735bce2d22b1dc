/**
 * The composition root: the one place where the pipeline and the accounts side meet (nothing in
 * schemas/, snapshots/, pipeline/ or api/ imports it). `pipeline daemon` with the alert mails
 * after each publish, `alerts send`, and `follow` (a replica kept in step with a primary through
 * its API, recorded in the replica's own ledger). Run through ./fds.
 */
import { daemonCommand } from "../pipeline/daemon/DaemonCommand.ts"
import { alertsCommand } from "./AlertsCommand.ts"
import { followCommand } from "./FollowCommand.ts"
import { alertsAfterPublish } from "./SendAlerts.ts"

const [command, sub, ...rest] = process.argv.slice(2)
if (command === "pipeline" && sub === "daemon") daemonCommand(process.env, { afterPublish: alertsAfterPublish(process.env) })
else if (command === "alerts") process.exitCode = await alertsCommand(sub, rest)
else if (command === "follow") process.exitCode = await followCommand(process.argv.slice(3))
else {
  console.error(`fds: unknown command: ${[command, sub].filter(Boolean).join(" ")}`)
  process.exitCode = 2
}
