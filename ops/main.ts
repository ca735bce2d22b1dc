/**
 * The composition root: the one place where the pipeline and the accounts side meet (nothing in
 * schemas/, snapshots/, pipeline/ or api/ imports it). `pipeline daemon` with the alert mails,
 * the webhooks (WebhookPush.ts: after each publish, and their retries on a timer) and the bucket
 * upload (when FDS_BUCKET is set) after each publish, `webhooks send` (the same webhooks without the daemon), `alerts send`, `publish` (the
 * published batches into the bucket), and `follow` (a replica kept in step with a primary through
 * its API, recorded in the replica's own ledger), and `verify` (a server's signed releases checked from outside). Run through ./fds.
 */
import { daemonCommand } from "../pipeline/daemon/DaemonCommand.ts"
import { jsonLog } from "../pipeline/daemon/Log.ts"
import { environmentProvider } from "../pipeline/Settings.ts"
import { afterPublishHooks } from "./AfterPublish.ts"
import { alertsCommand } from "./AlertsCommand.ts"
import { followCommand } from "./FollowCommand.ts"
import { alertsAfterPublish } from "./SendAlerts.ts"
import { startWebhookPush, type WebhookPush } from "./WebhookPush.ts"

const [command, sub, ...rest] = process.argv.slice(2)
// The S3 client (~0.25 s to load) only for the commands that use the bucket.
if (command === "pipeline" && sub === "daemon") {
  const { bucketAfterPublish } = await import("./BucketPublish.ts")
  let bucket: ReturnType<typeof bucketAfterPublish>
  let webhooks: WebhookPush
  try {
    bucket = bucketAfterPublish(environmentProvider(), jsonLog())
    webhooks = await startWebhookPush(environmentProvider())
  } catch (e) {
    console.error(`fds: ${(e as Error).message}`)
    process.exit(2)
  }
  // the retries (and rollbacks' events) on a timer of their own, between and during runs
  webhooks.start(jsonLog())
  // the bucket first: replicas get the batch even when a mail fails; the webhooks before the mails (they are quicker)
  const hooks = {
    ...(bucket === null ? {} : { bucket }),
    webhooks: webhooks.afterPublish,
    alerts: alertsAfterPublish(environmentProvider()),
  }
  daemonCommand({ afterPublish: afterPublishHooks(hooks) })
} else if (command === "publish") process.exitCode = await (await import("./PublishCommand.ts")).publishCommand(process.argv.slice(3))
else if (command === "alerts") process.exitCode = await alertsCommand(sub, rest)
else if (command === "webhooks") process.exitCode = await (await import("./WebhooksCommand.ts")).webhooksCommand(sub, rest)
else if (command === "follow") process.exitCode = await followCommand(process.argv.slice(3))
else if (command === "verify") process.exitCode = await (await import("./VerifyCommand.ts")).verifyCommand(process.argv.slice(3))
else {
  console.error(`fds: unknown command: ${[command, sub].filter(Boolean).join(" ")}`)
  process.exitCode = 2
}
