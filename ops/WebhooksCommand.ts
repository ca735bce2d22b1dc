/**
 * `./fds webhooks send`: the webhooks without the daemon, for a system-cron setup: the events of
 * the batch CURRENT names (as after its publish: batch.published, the counted changes against the
 * batch before it, late sources from STATUS.json), the rollbacks of the last day, and every
 * delivery due (the retries). Run it after `./fds pipeline run` and every few minutes (the
 * retries are due 5 s to 10 h apart); the stable event ids make a second run send nothing twice.
 * Exit 0: done (deliveries that failed are retried later); 1: nothing published, or the store
 * could not be used; 2: bad arguments or settings.
 */
import type { ConfigProvider } from "effect"
import type { Published } from "../pipeline/daemon/Daemon.ts"
import { dataDir as dataDirSetting } from "../pipeline/daemon/RunConfig.ts"
import { environmentProvider, readSettings } from "../pipeline/Settings.ts"
import { readManifest } from "../snapshots/Manifest.ts"
import { readStatusFile } from "../snapshots/Status.ts"
import { BatchNotFound, findPublishedBatch } from "./PublishedBatch.ts"
import { startWebhookPush } from "./WebhookPush.ts"

/** The batch CURRENT names as the daemon's afterPublish receives it. */
export const currentPublished = (dataDir: string): Published => {
  const batch = findPublishedBatch(dataDir, "current")
  const status = readStatusFile(batch.snapshotsDir)
  return {
    outcome: "published",
    batchDate: batch.batchDate,
    file: batch.file,
    contentHash: batch.contentHash,
    rowCounts: readManifest(batch.snapshotsDir, batch.file).row_counts,
    fiUnavailable: null,
    sources: status?.sources ?? null,
    waiting: [],
  }
}

export const webhooksCommand = async (
  sub: string | undefined,
  args: ReadonlyArray<string>,
  provider: ConfigProvider.ConfigProvider = environmentProvider(),
): Promise<number> => {
  if (sub !== "send" || args.length > 0) {
    console.error("fds: usage: webhooks send")
    return 2
  }
  let push: Awaited<ReturnType<typeof startWebhookPush>>
  let dataDir: string
  try {
    dataDir = readSettings(dataDirSetting, provider)
    push = await startWebhookPush(provider)
  } catch (e) {
    console.error(`fds: ${(e as Error).message}`)
    return 2
  }
  try {
    const fields = (await push.afterPublish(currentPublished(dataDir), new AbortController().signal)).webhooks
    const tick = await push.tick()
    console.log(JSON.stringify({ batch: fields, rollbacks: tick.rollbacks, retries: { delivered: tick.delivered, retrying: tick.retrying, failed: tick.failed } }))
    return 0
  } catch (e) {
    console.error(`fds: ${e instanceof BatchNotFound ? e.message : e instanceof Error ? e.message : String(e)}`)
    return 1
  } finally {
    await push.close()
  }
}
