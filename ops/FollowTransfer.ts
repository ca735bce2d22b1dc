/**
 * What a follower asks of its primary, over the API with its key (FDS_FOLLOW_KEY): the published
 * batches (GET /api/batches, every page), a batch's manifest (GET /api/batches/{id}), and its
 * snapshot file (GET /api/batches/{id}/snapshot) into a `.part` file that a cut transfer leaves
 * behind and the next attempt resumes with `Range` (and `If-Range`: the ETag is kept beside the
 * part). A downloaded file is checked before anything uses it: its SHA-256 against the answer's
 * `Repr-Digest`, and its content hash (recomputed from the data, snapshots/ContentHash.ts) and row
 * counts against the manifest, whose content hash must be the one the primary lists.
 */
import { createHash } from "node:crypto"
import { createReadStream, createWriteStream, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pipeline } from "node:stream/promises"
import Database from "better-sqlite3"
import { request } from "undici"
import { contentHashFor, hashSnapshotFile } from "../snapshots/ContentHash.ts"
import type { Manifest } from "../snapshots/Manifest.ts"

/** A batch as GET /api/batches lists it. */
export interface PrimaryBatch {
  readonly id: string
  readonly attributes: {
    readonly batch_date: string
    readonly content_hash: string
    readonly retained: boolean
    readonly current: boolean
  }
}

/** The primary answered something else than what was asked (the status, its words, when to retry). */
export class PrimaryRefused extends Error {
  readonly status: number
  readonly retryAfterSeconds: number | null
  constructor(status: number, message: string, retryAfterSeconds: number | null) {
    super(message)
    this.status = status
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** A downloaded file failed a check: it is removed, and nothing is published from it. */
export class TransferRefused extends Error {}

export interface Primary {
  readonly url: string
  readonly key: string
  readonly signal?: AbortSignal
}

const PAGE = 500

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name]
  return Array.isArray(v) ? v[0] : v
}

const refused = async (what: string, res: Awaited<ReturnType<typeof request>>): Promise<PrimaryRefused> => {
  const text = await res.body.text().catch(() => "")
  let message = text.slice(0, 300)
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? message
  } catch {
    // not JSON: its first words
  }
  const retry = Number(header(res.headers, "retry-after"))
  return new PrimaryRefused(res.statusCode, `${what}: ${res.statusCode} ${message}`, Number.isFinite(retry) ? retry : null)
}

const getJson = async <T>(primary: Primary, path: string): Promise<T> => {
  const res = await request(`${primary.url}${path}`, {
    headers: { "x-api-key": primary.key, accept: "application/json" },
    ...(primary.signal === undefined ? {} : { signal: primary.signal }),
  })
  if (res.statusCode !== 200) throw await refused(`GET ${path}`, res)
  return (await res.body.json()) as T
}

/** Every published batch of the primary, newest first. */
export const listBatches = async (primary: Primary): Promise<PrimaryBatch[]> => {
  const all: PrimaryBatch[] = []
  for (let offset = 0; ; offset += PAGE) {
    const page = await getJson<{ data: PrimaryBatch[]; total: number }>(primary, `/api/batches?limit=${PAGE}&offset=${offset}`)
    all.push(...page.data)
    if (page.data.length === 0 || all.length >= page.total) return all
  }
}

/** A batch's manifest, as the primary keeps it. */
export const fetchManifest = async (primary: Primary, batchId: string): Promise<Manifest> =>
  (await getJson<{ data: { attributes: { manifest: Manifest } } }>(primary, `/api/batches/${batchId}`)).data.attributes.manifest

/** Where a batch's download is kept while it is incomplete, and its ETag. */
export const partPaths = (snapshotsDir: string, batchId: string) => ({
  part: join(snapshotsDir, `.follow-${batchId}.sqlite.part`),
  etag: join(snapshotsDir, `.follow-${batchId}.sqlite.part.etag`),
})

export interface Downloaded {
  /** The `Repr-Digest` of the whole file, as the last answer gave it. */
  readonly reprDigest: string
  readonly size: number
  /** Bytes that were already there and not asked for again. */
  readonly resumedFrom: number
}

/**
 * Brings the batch's file into `part`: from where an earlier attempt stopped (`Range: bytes=N-`
 * with the ETag it had as `If-Range`), or whole. A cut transfer throws and leaves the bytes it got.
 */
export const downloadSnapshot = async (primary: Primary, batchId: string, paths: { part: string; etag: string }): Promise<Downloaded> => {
  const have = existsSync(paths.part) ? statSync(paths.part).size : 0
  const etag = existsSync(paths.etag) ? readFileSync(paths.etag, "utf8").trim() : null
  const resuming = have > 0 && etag !== null
  const res = await request(`${primary.url}/api/batches/${batchId}/snapshot`, {
    headers: { "x-api-key": primary.key, ...(resuming ? { range: `bytes=${have}-`, "if-range": etag } : {}) },
    ...(primary.signal === undefined ? {} : { signal: primary.signal }),
  })
  const reprDigest = header(res.headers, "repr-digest")
  if (res.statusCode === 416 && resuming) {
    // everything was there already (the last answer ended just after its last byte)
    await res.body.dump()
    const size = Number(/\/(\d+)$/.exec(header(res.headers, "content-range") ?? "")?.[1])
    if (size === have && existsSync(`${paths.etag}.digest`)) {
      return { reprDigest: readFileSync(`${paths.etag}.digest`, "utf8").trim(), size, resumedFrom: have }
    }
    rmSync(paths.part, { force: true })
    throw new TransferRefused(`${batchId}: the kept part (${have} bytes) does not fit the file; it is fetched whole next time`)
  }
  if (res.statusCode !== 200 && res.statusCode !== 206) throw await refused(`GET /api/batches/${batchId}/snapshot`, res)
  if (reprDigest === undefined) {
    await res.body.dump()
    throw new TransferRefused(`${batchId}: the primary's answer has no Repr-Digest`)
  }
  let from = 0
  if (res.statusCode === 206) {
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header(res.headers, "content-range") ?? "")
    if (range === null || Number(range[1]) !== have) {
      await res.body.dump()
      rmSync(paths.part, { force: true })
      throw new TransferRefused(`${batchId}: the primary sent another range than the one asked for; fetched whole next time`)
    }
    from = have
  }
  // the validator of these bytes, for a resume of this download
  writeFileSync(paths.etag, header(res.headers, "etag") ?? "")
  writeFileSync(`${paths.etag}.digest`, reprDigest)
  await pipeline(res.body, createWriteStream(paths.part, { flags: from === 0 ? "w" : "a" }))
  return { reprDigest, size: statSync(paths.part).size, resumedFrom: from }
}

/** The SHA-256 of a file, as `Repr-Digest` writes it (RFC 9530). */
export const reprDigestOf = async (path: string): Promise<string> => {
  const hash = createHash("sha256")
  await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), hash)
  return `sha-256=:${hash.digest("base64")}:`
}

/**
 * Checks a downloaded file before it is published: its bytes against `Repr-Digest`, its data
 * against the manifest (content hash and row counts), the manifest against the batch the primary
 * lists. Throws TransferRefused, naming what differs.
 */
export const verifyDownload = async (path: string, batch: PrimaryBatch, manifest: Manifest, reprDigest: string): Promise<void> => {
  const file = `${batch.id}.sqlite`
  const bytes = await reprDigestOf(path)
  if (bytes !== reprDigest) throw new TransferRefused(`${batch.id}: the file's SHA-256 is ${bytes}, the primary's Repr-Digest ${reprDigest}`)
  if (manifest.file !== file) throw new TransferRefused(`${batch.id}: the manifest names ${manifest.file}`)
  if (manifest.content_hash !== batch.attributes.content_hash) {
    throw new TransferRefused(`${batch.id}: the manifest's content hash ${manifest.content_hash} is not the listed ${batch.attributes.content_hash}`)
  }
  let hashed: { readonly hash: string; readonly counts: Readonly<Record<string, number>> }
  const open = (p: string) => new Database(p, { readonly: true, fileMustExist: true })
  try {
    hashed = hashSnapshotFile(open, path, { quotas: null })
    if (hashed.hash !== manifest.content_hash && manifest.quota_month_digests === undefined) {
      // a batch built before pipeline 0.5 hashed its quotas whole
      const db = open(path)
      try {
        hashed = { hash: contentHashFor(db, manifest), counts: hashed.counts }
      } finally {
        db.close()
      }
    }
  } catch (e) {
    throw new TransferRefused(`${batch.id}: the file cannot be read as a snapshot (${String(e)})`)
  }
  if (hashed.hash !== manifest.content_hash) {
    throw new TransferRefused(`${batch.id}: the file's content hash is ${hashed.hash}, its manifest's ${manifest.content_hash}`)
  }
  for (const [table, rows] of Object.entries(manifest.row_counts)) {
    if (hashed.counts[table] !== rows) throw new TransferRefused(`${batch.id}: ${table} holds ${hashed.counts[table]} rows, its manifest says ${rows}`)
  }
}
