/**
 * `./fds publish` and the daemon's upload after each publish: every batch the data folder's ledger
 * says was published, whose file is here and not yet in the bucket, goes up — its snapshot
 * (`<prefix>/batches/<id>.sqlite`, with its SHA-256), then its manifest
 * (`<prefix>/batches/<id>.manifest.json`), its Parquet files when it has them
 * (`<prefix>/batches/<id>.parquet/<file>`, each skipped when already there with its size and
 * SHA-256), and its signed release when it has one
 * (`<prefix>/batches/<id>.release.json` and `.release.sig`, the public key at
 * `<prefix>/release-key.pem`), each checked with HEAD — oldest first; then, last,
 * `<prefix>/index.json` (BucketIndex.ts) is rewritten when what it says changed (a new batch, or
 * CURRENT moved: a rollback). A failure stops before the index, which keeps announcing only what
 * is whole in the bucket. A batch already in the bucket whose Parquet files are not (uploaded by a
 * build before they went through it: its last file, by name, is absent or of another size) has
 * them uploaded then, one HEAD per batch telling (`batch's Parquet files uploaded` in the log). Running it again uploads nothing new and leaves the index as it is.
 * Two publishers at once (the daemon's hook and a run by hand) upload the same immutable files at
 * worst; the index is read again before it is written, so neither drops what the other announced.
 */
import { existsSync, statSync } from "node:fs"
import { join } from "node:path"
import { PutObjectCommand, type S3Client } from "@aws-sdk/client-s3"
import type { ConfigProvider } from "effect"
import type { Published } from "../pipeline/daemon/Daemon.ts"
import type { Log } from "../pipeline/daemon/Log.ts"
import { dataDir as dataDirSetting } from "../pipeline/daemon/RunConfig.ts"
import { readSettings } from "../pipeline/Settings.ts"
import { paths } from "../pipeline/RunOptions.ts"
import { manifestPath } from "../snapshots/Manifest.ts"
import { parquetDir, parquetFiles } from "../snapshots/parquet/ParquetFiles.ts"
import { PUBLIC_KEY_FILE, releasePath, signaturePath } from "../snapshots/releases/Release.ts"
import { hasRelease } from "../snapshots/releases/WriteRelease.ts"
import { PublishedLedger } from "../snapshots/PublishedHistory.ts"
import { readCurrent } from "../snapshots/Pointer.ts"
import { type BucketSettings, bucketClient, bucketKeys, bucketSettings, sendOptions, type Target } from "./Bucket.ts"
import { type BucketIndex, INDEX_FORMAT, indexBatches, readIndex, retainedIn, sameBatches, type Uploaded } from "./BucketIndex.ts"
import { fileDigest, headObject, putFile } from "./BucketUpload.ts"

/** As the API serves them (api/batches/DownloadsApi.ts). */
const PARQUET_CONTENT_TYPE = "application/vnd.apache.parquet"

export interface PublishOptions {
  readonly settings: BucketSettings
  readonly client: S3Client
  readonly dataDir: string
  readonly log: Log
  readonly signal?: AbortSignal | undefined
  /** Multipart above this size (tests use small parts). */
  readonly partBytes?: number
  readonly now?: () => Date
}

export interface PublishReport {
  /** Batch ids uploaded by this run, oldest first. */
  readonly uploaded: ReadonlyArray<string>
  /** Published batches whose file is no longer in the data folder and was never uploaded. */
  readonly missing: ReadonlyArray<string>
  readonly index: "written" | "unchanged" | "nothing_published"
  /** The batch the index marks current. */
  readonly current: string | null
}

/** Uploads what the bucket lacks, then the index (see the file's comment). */
export const publishToBucket = async (o: PublishOptions): Promise<PublishReport> => {
  const p = paths(o.dataDir)
  const t: Target = { client: o.client, bucket: o.settings.bucket, signal: o.signal }
  const view = new PublishedLedger(p.ledger).view()
  if (view.error !== null) throw new Error(view.error)
  if (view.batches.length === 0) return { uploaded: [], missing: [], index: "nothing_published", current: null }
  const current = readCurrent(p.snapshots)
  const indexKey = bucketKeys.index(o.settings)
  const before = await readIndex(t, indexKey, { rewriting: true })
  const inBucket: Map<string, Uploaded> = retainedIn(before)
  const uploaded: string[] = []
  const missing: string[] = []
  /** The batch's Parquet files the bucket lacks, uploaded (each skipped when there with its size and SHA-256); how many went up. */
  const putParquet = async (batchId: string, names: ReadonlyArray<string>): Promise<number> => {
    let sent = 0
    for (const name of names) {
      const path = join(parquetDir(p.snapshots, batchId), name)
      const fileDigested = await fileDigest(path)
      const key = bucketKeys.parquet(o.settings, batchId, name)
      const present = await headObject(t, key)
      if (present !== null && present.bytes === fileDigested.bytes && present.sha256 === fileDigested.sha256) continue
      await putFile(t, key, path, fileDigested, { contentType: PARQUET_CONTENT_TYPE, ...(o.partBytes === undefined ? {} : { partBytes: o.partBytes }) })
      sent++
    }
    return sent
  }
  for (const batch of [...view.batches].reverse()) {
    if (inBucket.has(batch.id)) {
      // Uploaded by a build before the Parquet files went through the bucket: its files go up now.
      // One HEAD per batch tells: the last file, which a build that uploads them sends last.
      const names = parquetFiles(p.snapshots, batch.id)
      const last = names.at(-1)
      if (last === undefined) continue
      const lastPath = join(parquetDir(p.snapshots, batch.id), last)
      const there = await headObject(t, bucketKeys.parquet(o.settings, batch.id, last))
      if (there !== null && there.bytes === statSync(lastPath).size) continue
      const sent = await putParquet(batch.id, names)
      if (sent > 0) o.log("info", "batch's Parquet files uploaded", { batch: batch.id, parquet_files: sent })
      continue
    }
    const file = join(p.snapshots, batch.file)
    const manifest = manifestPath(p.snapshots, batch.file)
    if (!existsSync(file) || !existsSync(manifest)) {
      missing.push(batch.id)
      continue
    }
    const started = performance.now()
    const digest = await fileDigest(file)
    const snapshotKey = bucketKeys.snapshot(o.settings, batch.id)
    // a run cut after this file went up finds it whole, and does not send it again
    const there = await headObject(t, snapshotKey)
    const already = there !== null && there.bytes === digest.bytes && there.sha256 === digest.sha256
    if (!already) {
      await putFile(t, snapshotKey, file, digest, { contentType: "application/vnd.sqlite3", ...(o.partBytes === undefined ? {} : { partBytes: o.partBytes }) })
    }
    await putFile(t, bucketKeys.manifest(o.settings, batch.id), manifest, await fileDigest(manifest), { contentType: "application/json" })
    // its Parquet files (none for a batch published before them), before anything announces the batch
    const parquet = parquetFiles(p.snapshots, batch.id)
    await putParquet(batch.id, parquet)
    // its signed release, when it has one: a follower copies it beside the batch (ops/FollowRelease.ts)
    const release = hasRelease(p.snapshots, batch.id)
    if (release) {
      const publicKey = join(p.snapshots, PUBLIC_KEY_FILE)
      await putFile(t, bucketKeys.releaseKey(o.settings), publicKey, await fileDigest(publicKey), { contentType: "application/x-pem-file" })
      const releaseFile = releasePath(p.snapshots, batch.id)
      await putFile(t, bucketKeys.release(o.settings, batch.id), releaseFile, await fileDigest(releaseFile), { contentType: "application/json" })
      const signature = signaturePath(p.snapshots, batch.id)
      await putFile(t, bucketKeys.signature(o.settings, batch.id), signature, await fileDigest(signature), { contentType: "application/octet-stream" })
    }
    inBucket.set(batch.id, digest)
    uploaded.push(batch.id)
    o.log("info", "batch uploaded", {
      batch: batch.id,
      bytes: digest.bytes,
      sha256: digest.sha256,
      snapshot_already_there: already,
      release,
      parquet_files: parquet.length,
      ms: Math.round(performance.now() - started),
    })
  }
  let last = { view, current, before }
  if (uploaded.length > 0) {
    // Another publisher (the daemon's hook, a `./fds publish` by hand) may have written the index
    // while these uploads went on: what it announced stays announced, and CURRENT is read again.
    const latest = await readIndex(t, indexKey, { rewriting: true })
    for (const [id, there] of retainedIn(latest)) if (!inBucket.has(id)) inBucket.set(id, there)
    const fresh = new PublishedLedger(p.ledger).view()
    if (fresh.error !== null) throw new Error(fresh.error)
    last = { view: fresh, current: readCurrent(p.snapshots), before: latest }
  }
  const batches = indexBatches(last.view.batches, last.current, inBucket)
  const marked = batches.find((b) => b.current)?.id ?? null
  if (last.current !== null && marked === null) o.log("warn", "CURRENT names a file the ledger does not list as published", { current: last.current })
  if (last.before !== null && sameBatches(last.before.batches, batches)) return { uploaded, missing, index: "unchanged", current: marked }
  const index: BucketIndex = { format: INDEX_FORMAT, written_at: (o.now?.() ?? new Date()).toISOString(), batches }
  await o.client.send(
    new PutObjectCommand({
      Bucket: o.settings.bucket,
      Key: indexKey,
      Body: `${JSON.stringify(index, null, 1)}\n`,
      ContentType: "application/json",
      // followers poll it: no cache may keep an old one
      CacheControl: "no-cache",
    }),
    sendOptions(t),
  )
  o.log("info", "bucket index written", { index: indexKey, batches: batches.length, current: marked })
  return { uploaded, missing, index: "written", current: marked }
}

/** The report as log fields. */
export const publishFields = (r: PublishReport) => ({
  bucket_uploaded: r.uploaded,
  bucket_index: r.index,
  ...(r.missing.length > 0 ? { bucket_missing: r.missing } : {}),
})

/**
 * The daemon's upload after a publish, or null when no bucket is configured. The settings are read
 * now (a bad one stops the daemon at start); each call uploads what is new.
 */
export const bucketAfterPublish = (provider: ConfigProvider.ConfigProvider, log: Log) => {
  const settings = readSettings(bucketSettings, provider)
  if (settings === null) return null
  const client = bucketClient(settings)
  const dataDir = readSettings(dataDirSetting, provider)
  return async (_published: Published, signal: AbortSignal): Promise<Readonly<Record<string, unknown>>> =>
    publishFields(await publishToBucket({ settings, client, dataDir, log, signal }))
}
