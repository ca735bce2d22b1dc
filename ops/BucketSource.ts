/**
 * A follower's batches from the bucket a primary uploads to (BucketPublish.ts), as the port
 * BatchSource.ts asks: the list from `<prefix>/index.json`, a manifest from
 * `<prefix>/batches/<id>.manifest.json`, the snapshot file from `<prefix>/batches/<id>.sqlite` into
 * the `.part` file, resumed with `Range` when an earlier attempt was cut (the object's ETag is kept
 * beside the part: another object behind the same key is fetched whole). The SHA-256 the index
 * records comes back as `reprDigest` (`sha-256=:<base64>:`), so the follower checks the bytes as
 * it checks the primary's `Repr-Digest`. A batch's signed release, when the publisher uploaded one,
 * from `<prefix>/batches/<id>.release.json` and `.release.sig` with `<prefix>/release-key.pem`
 * (checked by FollowRelease.ts), and the Parquet files it lists from `<prefix>/batches/<id>.parquet/<file>`
 * (each checked there against the release's size and SHA-256). Sizes are bounded: a file longer than the index says, or
 * a JSON object over its limit, is refused. Each chunk is written as it arrives, so a cut transfer
 * keeps every byte it got.
 */
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs"
import type { Readable } from "node:stream"
import { GetObjectCommand, type GetObjectCommandOutput, type S3Client } from "@aws-sdk/client-s3"
import type { Manifest } from "../snapshots/Manifest.ts"
import type { BatchSource, Downloaded, PrimaryBatch, SourceRelease } from "./BatchSource.ts"
import {
  type BucketSettings,
  BucketRefused,
  bucketClient,
  bucketKeys,
  describeBucket,
  getBytes,
  getText,
  sendOptions,
  statusOf,
  type Target,
} from "./Bucket.ts"
import { type BucketBatch, readIndex } from "./BucketIndex.ts"
import { TransferRefused } from "./FollowTransfer.ts"

export interface BucketSourceOptions {
  readonly settings: BucketSettings
  /** Default: bucketClient(settings). */
  readonly client?: S3Client
  /** Aborts a request in flight (a cut transfer keeps its bytes for the next attempt). */
  readonly signal?: AbortSignal
  /** The largest manifest read (default 64 MiB). */
  readonly maxManifestBytes?: number
}

const MAX_MANIFEST_BYTES = 64 * 1024 * 1024
/** The most bytes of a release manifest, its signature and the public key read. */
const MAX_RELEASE_BYTES = 4 * 1024 * 1024
const MAX_SIGNATURE_BYTES = 1024
const MAX_KEY_BYTES = 16 * 1024

/** The index's SHA-256 (hex) as `Repr-Digest` writes it (RFC 9530). */
export const reprDigestOfHex = (hex: string): string => `sha-256=:${Buffer.from(hex, "hex").toString("base64")}:`

const asPrimaryBatch = (b: BucketBatch): PrimaryBatch => ({
  id: b.id,
  attributes: { batch_date: b.batch_date, content_hash: b.content_hash, retained: b.retained, current: b.current },
})

/**
 * Appends the body to `path` (from its start when `from` is 0), each chunk written as it arrives:
 * a transfer cut halfway leaves every byte it got (an async iterator would drop what it had
 * buffered when the connection's error comes). More than `limit` bytes fail it.
 */
const writeBody = (body: Readable, path: string, from: number, limit: number, tooLong: () => string): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    const fd = openSync(path, from === 0 ? "w" : "a")
    let seen = 0
    let done = false
    const finish = (e?: unknown) => {
      if (done) return
      done = true
      closeSync(fd)
      if (e === undefined) resolve()
      else reject(e)
    }
    body.on("data", (chunk: Buffer) => {
      if (done) return
      seen += chunk.length
      try {
        if (seen > limit) throw new TransferRefused(tooLong())
        for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at)
      } catch (e) {
        body.destroy()
        finish(e)
      }
    })
    body.once("end", () => finish())
    body.once("error", (e) => finish(e))
    body.once("close", () => finish(new Error("the transfer was cut")))
  })

const removePart = (paths: { readonly part: string; readonly etag: string }) => {
  for (const f of [paths.part, paths.etag]) rmSync(f, { force: true })
}

/** The bucket as a follower's source of batches (see the file's comment). */
export const bucketSource = (options: BucketSourceOptions): BatchSource => {
  const { settings } = options
  const t: Target = { client: options.client ?? bucketClient(settings), bucket: settings.bucket, signal: options.signal }
  const indexKey = bucketKeys.index(settings)
  // the entries of the last index read: a download follows the list it came from
  let known = new Map<string, BucketBatch>()

  const entries = async (): Promise<BucketBatch[]> => {
    const index = await readIndex(t, indexKey)
    const batches = [...(index?.batches ?? [])]
    known = new Map(batches.map((b) => [b.id, b]))
    return batches
  }

  const entry = async (batchId: string): Promise<BucketBatch & { readonly sha256: string; readonly bytes: number }> => {
    const b = known.get(batchId) ?? (await entries()).find((x) => x.id === batchId)
    if (b === undefined) throw new BucketRefused(`${describeBucket(settings)}: its index lists no batch ${batchId}`)
    if (!b.retained || b.sha256 === null || b.bytes === null) throw new BucketRefused(`${describeBucket(settings)}: batch ${batchId} is not in the bucket`)
    return { ...b, sha256: b.sha256, bytes: b.bytes }
  }

  const get = async (key: string, range: string | undefined, etag: string | undefined): Promise<GetObjectCommandOutput | "changed"> => {
    try {
      return await t.client.send(
        new GetObjectCommand({ Bucket: t.bucket, Key: key, ...(range === undefined ? {} : { Range: range }), ...(etag === undefined ? {} : { IfMatch: etag }) }),
        sendOptions(t),
      )
    } catch (e) {
      // 412: If-Match failed; 416: the range starts past the end. Either way not the object the part came from
      if (statusOf(e) === 412 || statusOf(e) === 416) return "changed"
      if (statusOf(e) === 404) throw new BucketRefused(`${describeBucket(settings)}: ${key} is not there, though the index lists it`)
      throw e
    }
  }

  const downloadSnapshot = async (batchId: string, paths: { readonly part: string; readonly etag: string }): Promise<Downloaded> => {
    const b = await entry(batchId)
    const reprDigest = reprDigestOfHex(b.sha256)
    const key = bucketKeys.snapshot(settings, batchId)
    for (let attempt = 0; ; attempt++) {
      let have = existsSync(paths.part) ? statSync(paths.part).size : 0
      const etag = existsSync(paths.etag) ? readFileSync(paths.etag, "utf8").trim() : ""
      if (have > 0 && etag === "") {
        // bytes of unknown origin: start again
        removePart(paths)
        have = 0
      }
      if (have > b.bytes) {
        removePart(paths)
        throw new TransferRefused(`${batchId}: the kept part (${have} bytes) is longer than the file the index lists (${b.bytes}); fetched whole next time`)
      }
      if (have === b.bytes) return { reprDigest, size: have, resumedFrom: have }
      const resuming = have > 0
      const got = await get(key, resuming ? `bytes=${have}-` : undefined, resuming ? etag : undefined)
      const body = got === "changed" ? undefined : (got.Body as Readable | undefined)
      // another object behind the key than the one the part came from (412 from S3; a server that ignores If-Match says it by its ETag)
      if (got === "changed" || (resuming && got.ETag !== etag)) {
        body?.destroy()
        removePart(paths)
        if (attempt === 0) continue
        throw new TransferRefused(`${batchId}: the object changed while it was fetched; fetched whole next time`)
      }
      if (body === undefined) throw new BucketRefused(`${key}: answered without a body`)
      const status = got.$metadata.httpStatusCode
      let from = 0
      let total = got.ContentLength ?? -1
      if (status === 206) {
        const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(got.ContentRange ?? "")
        if (range === null || Number(range[1]) !== have) {
          body.destroy()
          removePart(paths)
          throw new TransferRefused(`${batchId}: the bucket sent another range (${got.ContentRange}) than the one asked for; fetched whole next time`)
        }
        from = have
        total = Number(range[3])
      }
      if (total !== b.bytes) {
        body.destroy()
        removePart(paths)
        throw new TransferRefused(`${batchId}: ${key} is ${total} bytes, the index says ${b.bytes}`)
      }
      writeFileSync(paths.etag, got.ETag ?? "")
      try {
        await writeBody(body, paths.part, from, b.bytes - from, () => `${batchId}: the bucket sent more than the ${b.bytes} bytes the index lists; fetched whole next time`)
      } catch (e) {
        // a cut transfer keeps its bytes for the next attempt; a refused one does not
        if (e instanceof TransferRefused) removePart(paths)
        throw e
      }
      const size = statSync(paths.part).size
      // a body that ended early without an error is a cut transfer too: its bytes are kept
      if (size !== b.bytes) throw new Error(`${batchId}: the transfer stopped after ${size} of ${b.bytes} bytes; it resumes next time`)
      return { reprDigest, size, resumedFrom: from }
    }
  }

  return {
    describe: describeBucket(settings),
    listBatches: async () => (await entries()).map(asPrimaryBatch),
    fetchManifest: async (batchId: string): Promise<Manifest> => {
      const key = bucketKeys.manifest(settings, batchId)
      const text = await getText(t, key, options.maxManifestBytes ?? MAX_MANIFEST_BYTES)
      if (text === null) throw new BucketRefused(`${describeBucket(settings)}: ${key} is not there`)
      let manifest: Partial<Manifest> | null
      try {
        manifest = JSON.parse(text) as Partial<Manifest> | null
      } catch (e) {
        throw new BucketRefused(`${key} is not JSON (${(e as Error).message})`)
      }
      // what the follower checks it against must be there (the rest is checked with the file)
      if (manifest === null || typeof manifest !== "object" || typeof manifest.file !== "string" || typeof manifest.content_hash !== "string") {
        throw new BucketRefused(`${key} is not a manifest (no file or content_hash)`)
      }
      if (typeof manifest.row_counts !== "object" || manifest.row_counts === null) throw new BucketRefused(`${key} is not a manifest (no row_counts)`)
      return manifest as Manifest
    },
    downloadSnapshot,
    fetchRelease: async (batchId: string): Promise<SourceRelease | null> => {
      const release = await getBytes(t, bucketKeys.release(settings, batchId), MAX_RELEASE_BYTES)
      if (release === null) return null
      const signature = await getBytes(t, bucketKeys.signature(settings, batchId), MAX_SIGNATURE_BYTES)
      const key = await getBytes(t, bucketKeys.releaseKey(settings), MAX_KEY_BYTES)
      if (signature === null || key === null) throw new BucketRefused(`${describeBucket(settings)}: the release of ${batchId} is there without its signature or key`)
      return { release, signature, publicKeyPem: key.toString("utf8") }
    },
    fetchManifestFile: async (batchId: string, maxBytes: number): Promise<Uint8Array> => {
      const key = bucketKeys.manifest(settings, batchId)
      const bytes = await getBytes(t, key, maxBytes)
      if (bytes === null) throw new BucketRefused(`${describeBucket(settings)}: ${key} is not there`)
      return bytes
    },
    fetchParquetFile: async (batchId: string, file: string, maxBytes: number): Promise<Uint8Array> => {
      // the name is checked before it becomes a key (bucketKeys.parquet refuses any other)
      const key = bucketKeys.parquet(settings, batchId, file)
      const bytes = await getBytes(t, key, maxBytes)
      if (bytes === null) throw new BucketRefused(`${describeBucket(settings)}: ${key} is not there`)
      return bytes
    },
  }
}
