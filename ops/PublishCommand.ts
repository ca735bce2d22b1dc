/**
 * `./fds publish`: uploads the data folder's published batches that the bucket (FDS_BUCKET_*,
 * ops/Bucket.ts) lacks, then rewrites its index.json (ops/BucketPublish.ts). One JSON log line per
 * batch uploaded and one for the outcome, on stdout. Run it after `pipeline run` or `pipeline
 * rollback` (the daemon uploads after each of its publishes by itself). Exit 0: the bucket is in
 * step; 1: an upload failed (the index still announces only whole batches; run it again);
 * 2: bad arguments or settings, or no bucket configured.
 */
import { parseArgs } from "node:util"
import type { ConfigProvider } from "effect"
import { jsonLog, type Log } from "../pipeline/daemon/Log.ts"
import { dataDir as dataDirSetting } from "../pipeline/daemon/RunConfig.ts"
import { environmentProvider, readSettings } from "../pipeline/Settings.ts"
import { type BucketSettings, bucketClient, bucketSettings, describeBucket } from "./Bucket.ts"
import { publishToBucket } from "./BucketPublish.ts"

const usage = "usage: publish   (the bucket: FDS_BUCKET, FDS_BUCKET_ENDPOINT, FDS_BUCKET_PREFIX, … see README)"

/** The command; its settings read through `provider` (default: the environment). */
export const publishCommand = async (
  args: string[],
  provider: ConfigProvider.ConfigProvider = environmentProvider(),
  log: Log = jsonLog(),
): Promise<number> => {
  let settings: BucketSettings | null
  let dataDir: string
  try {
    parseArgs({ args, options: {} })
    settings = readSettings(bucketSettings, provider)
    dataDir = readSettings(dataDirSetting, provider)
  } catch (e) {
    console.error(`fds: ${(e as Error).message}\n${usage}`)
    return 2
  }
  if (settings === null) {
    console.error(`fds: no bucket is configured (FDS_BUCKET is not set)\n${usage}`)
    return 2
  }
  const stop = new AbortController()
  const onSignal = () => stop.abort()
  process.once("SIGTERM", onSignal)
  process.once("SIGINT", onSignal)
  const client = bucketClient(settings)
  try {
    const report = await publishToBucket({ settings, client, dataDir, log, signal: stop.signal })
    log("info", "published to the bucket", { bucket: describeBucket(settings), ...report })
    return 0
  } catch (e) {
    log("error", "publishing to the bucket failed; its index announces only what was whole before", {
      bucket: describeBucket(settings),
      error: String(e),
    })
    return 1
  } finally {
    client.destroy()
    process.off("SIGTERM", onSignal)
    process.off("SIGINT", onSignal)
  }
}
