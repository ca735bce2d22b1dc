/**
 * What a follower asks of its primary, over the API with its key (FDS_FOLLOW_KEY): the published
 * batches (GET /api/batches, every page), a batch's manifest (GET /api/batches/{id}), and its
 * snapshot file (GET /api/batches/{id}/snapshot) into a `.part` file that a cut transfer leaves
 * behind and the next attempt resumes with `Range` (and `If-Range`: the ETag is kept beside the
 * part). A downloaded file is checked before anything uses it: its SHA-256 against the answer's
 * `Repr-Digest`, and its content hash (recomputed from the data, snapshots/ContentHash.ts) and row
 * counts against the manifest, whose content hash must be the one the primary lists.
 *
 * The primary is not trusted with the follower's time or disk: every request has a deadline and
 * an idle timeout (headers, then between body chunks), a JSON answer is read up to a cap
 * (maxJsonBytes), the list's pages are bounded (a total that is no count of batches, or more than
 * MAX_BATCHES, is refused), and a snapshot answer is cut as soon as it goes past the size it
 * announced or the cap it was given (its part removed). What it returns is checked again by
 * Follow.ts, whatever the source.
 */
import { createHash } from "node:crypto"
import { createReadStream, createWriteStream, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Transform } from "node:stream"
import { pipeline } from "node:stream/promises"
import Database from "better-sqlite3"
import { request } from "undici"
import { contentHashFor, hashSnapshotFile } from "../snapshots/ContentHash.ts"
import type { Manifest } from "../snapshots/Manifest.ts"
import type { BatchSource, Downloaded, DownloadPaths, PrimaryBatch, SourceRelease } from "./BatchSource.ts"

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

/** How long and how much the follower gives the primary (defaults: DEFAULT_LIMITS). */
export interface TransferLimits {
  /** Deadline of a JSON request (list page, manifest), from asking to the last byte. */
  readonly requestMillis: number
  /** Longest wait for the answer's headers, then between two chunks of its body. */
  readonly idleMillis: number
  /** Deadline of one snapshot transfer (a cut one resumes at the next poll). */
  readonly downloadMillis: number
  /** Largest JSON answer read. */
  readonly maxJsonBytes: number
}

export const DEFAULT_LIMITS: TransferLimits = {
  requestMillis: 60_000,
  idleMillis: 60_000,
  downloadMillis: 60 * 60_000,
  maxJsonBytes: 16 << 20,
}

export interface Primary {
  readonly url: string
  readonly key: string
  readonly signal?: AbortSignal
  readonly limits?: Partial<TransferLimits>
}

const PAGE = 500

/** The most batches a primary may list (ten years of daily batches is about 3,650). */
export const MAX_BATCHES = 20_000

const limitsOf = (primary: Primary): TransferLimits => ({ ...DEFAULT_LIMITS, ...primary.limits })

/** The caller's signal, if any, and a deadline `millis` from now. */
const deadline = (primary: Primary, millis: number): AbortSignal =>
  primary.signal === undefined ? AbortSignal.timeout(millis) : AbortSignal.any([primary.signal, AbortSignal.timeout(millis)])

/** undici's options for a request to the primary: its key, the deadline, the idle timeouts. */
const requestOptions = (primary: Primary, signal: AbortSignal, headers: Record<string, string>) => {
  const { idleMillis } = limitsOf(primary)
  return { headers: { "x-api-key": primary.key, ...headers }, signal, headersTimeout: idleMillis, bodyTimeout: idleMillis }
}

/** A request that ran out of time says so (undici's own error says only "aborted"). */
const timedOut = (what: string, signal: AbortSignal, millis: number, e: unknown): unknown =>
  signal.aborted && (signal.reason as Error | undefined)?.name === "TimeoutError" ? new Error(`${what}: no whole answer within ${millis} ms`) : e

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name]
  return Array.isArray(v) ? v[0] : v
}

type Answer = Awaited<ReturnType<typeof request>>

/** The answer's body, or null (the body destroyed) as soon as it goes past `max` bytes. */
const readUpTo = async (res: Answer, max: number): Promise<Buffer | null> => {
  if (Number(header(res.headers, "content-length") ?? 0) > max) {
    res.body.destroy()
    return null
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length
    if (size > max) {
      res.body.destroy()
      return null
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** The largest error answer read for its message. */
const MAX_ERROR_BYTES = 64 * 1024

const refused = async (what: string, res: Answer): Promise<PrimaryRefused> => {
  const text = ((await readUpTo(res, MAX_ERROR_BYTES).catch(() => null)) ?? Buffer.alloc(0)).toString("utf8")
  let message = text.slice(0, 300)
  try {
    const said = (JSON.parse(text) as { message?: unknown }).message
    if (typeof said === "string") message = said.slice(0, 300)
  } catch {
    // not JSON: its first words
  }
  const retry = Number(header(res.headers, "retry-after"))
  return new PrimaryRefused(res.statusCode, `${what}: ${res.statusCode} ${message}`, Number.isFinite(retry) ? retry : null)
}

/** An answer of the primary, read up to `max` bytes, within requestMillis; null on a 404 when `missing` allows it. */
const getBytes = async (primary: Primary, path: string, max: number, accept: string, missing: "null" | "refuse"): Promise<Buffer | null> => {
  const { requestMillis } = limitsOf(primary)
  const signal = deadline(primary, requestMillis)
  const what = `GET ${path}`
  try {
    const res = await request(`${primary.url}${path}`, requestOptions(primary, signal, { accept }))
    if (res.statusCode === 404 && missing === "null") {
      await res.body.dump()
      return null
    }
    if (res.statusCode !== 200) throw await refused(what, res)
    const body = await readUpTo(res, max)
    if (body === null) throw new TransferRefused(`${what}: the answer is more than ${max} bytes`)
    return body
  } catch (e) {
    throw timedOut(what, signal, requestMillis, e)
  }
}

/** A JSON answer of the primary, read up to maxJsonBytes, within requestMillis. Its shape is the caller's to check. */
const getJson = async (primary: Primary, path: string): Promise<unknown> => {
  const body = (await getBytes(primary, path, limitsOf(primary).maxJsonBytes, "application/json", "refuse")) ?? Buffer.alloc(0)
  try {
    return JSON.parse(body.toString("utf8"))
  } catch {
    throw new TransferRefused(`GET ${path}: the answer is not JSON`)
  }
}

/** The most bytes of a release manifest, its signature and the public key a follower reads. */
const RELEASE_CAPS = { release: 4 * 1024 * 1024, signature: 1024, key: 16 * 1024 } as const

/**
 * A batch's signed release as the primary serves it (the manifest's bytes, its signature, the
 * primary's public key), or null when it has none (404: published before releases were signed).
 * Follow.ts checks it before keeping it.
 */
export const fetchRelease = async (primary: Primary, batchId: string): Promise<SourceRelease | null> => {
  const base = `/api/batches/${encodeURIComponent(batchId)}`
  const release = await getBytes(primary, `${base}/release`, RELEASE_CAPS.release, "application/json", "null")
  if (release === null) return null
  const signature = await getBytes(primary, `${base}/release.sig`, RELEASE_CAPS.signature, "application/octet-stream", "refuse")
  const key = await getBytes(primary, "/.well-known/fds-release-key.pem", RELEASE_CAPS.key, "application/x-pem-file", "refuse")
  return { release, signature: signature ?? Buffer.alloc(0), publicKeyPem: (key ?? Buffer.alloc(0)).toString("utf8") }
}

/** The build manifest's bytes as the primary keeps them (GET /api/batches/{id}/manifest.json), at most `max`. */
export const fetchManifestFile = async (primary: Primary, batchId: string, max: number): Promise<Uint8Array> =>
  (await getBytes(primary, `/api/batches/${encodeURIComponent(batchId)}/manifest.json`, max, "application/json", "refuse")) ?? Buffer.alloc(0)

/** One of the batch's Parquet files as the primary serves it (GET /api/batches/{id}/parquet/{file}), at most `max`. */
export const fetchParquetFile = async (primary: Primary, batchId: string, file: string, max: number): Promise<Uint8Array> =>
  (await getBytes(primary, `/api/batches/${encodeURIComponent(batchId)}/parquet/${encodeURIComponent(file)}`, max, "*/*", "refuse")) ?? Buffer.alloc(0)

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/**
 * Every published batch of the primary, newest first: pages of PAGE until a short or empty page
 * or `total`, which must be a count of batches no larger than MAX_BATCHES; never more pages than
 * MAX_BATCHES needs. A primary that gives `links.next` (every page after the first names the batch
 * the first was read from, so a publish while the list is read neither repeats nor skips a batch)
 * is followed by it, which must be a path of /api/batches; an older primary without links is
 * paged by offset. Each entry is checked by Follow.ts.
 */
export const listBatches = async (primary: Primary): Promise<PrimaryBatch[]> => {
  const all: PrimaryBatch[] = []
  let path = `/api/batches?limit=${PAGE}&offset=0`
  for (let pages = 0; pages <= MAX_BATCHES / PAGE; pages++) {
    const page = await getJson(primary, path)
    if (!isRecord(page) || !Array.isArray(page.data)) throw new TransferRefused(`GET ${path}: the answer has no list of batches`)
    const total = page.total
    if (typeof total !== "number" || !Number.isSafeInteger(total) || total < 0 || total > MAX_BATCHES) {
      throw new TransferRefused(`GET ${path}: its total ${JSON.stringify(total)} is not a count of batches (at most ${MAX_BATCHES})`)
    }
    if (page.data.length > PAGE) throw new TransferRefused(`GET ${path}: ${page.data.length} batches on a page of ${PAGE}`)
    all.push(...(page.data as PrimaryBatch[]))
    const next = isRecord(page.links) ? page.links.next : undefined
    if (page.data.length < PAGE || all.length >= total || next === null) return all
    if (next === undefined) {
      path = `/api/batches?limit=${PAGE}&offset=${all.length}`
    } else if (typeof next === "string" && next.startsWith("/api/batches?") && next.length <= 2_048) {
      path = next
    } else {
      throw new TransferRefused(`GET ${path}: its next link ${JSON.stringify(next).slice(0, 200)} is not a page of /api/batches`)
    }
  }
  throw new TransferRefused(`GET /api/batches: more than ${MAX_BATCHES} batches`)
}

/** A batch's manifest, as the primary keeps it (Follow.ts checks it before using it). */
export const fetchManifest = async (primary: Primary, batchId: string): Promise<Manifest> => {
  const path = `/api/batches/${encodeURIComponent(batchId)}`
  const answer = await getJson(primary, path)
  const manifest = isRecord(answer) && isRecord(answer.data) && isRecord(answer.data.attributes) ? answer.data.attributes.manifest : undefined
  if (!isRecord(manifest)) throw new TransferRefused(`GET ${path}: the answer has no manifest`)
  return manifest as unknown as Manifest
}

/** Where a batch's download is kept while it is incomplete, and its ETag. */
export const partPaths = (snapshotsDir: string, batchId: string) => ({
  part: join(snapshotsDir, `.follow-${batchId}.sqlite.part`),
  etag: join(snapshotsDir, `.follow-${batchId}.sqlite.part.etag`),
})

/** Removes a download's part and what was kept beside it: a refused file is fetched whole next time. */
export const removePart = (paths: { readonly part: string; readonly etag: string }): void => {
  for (const f of [paths.part, paths.etag, `${paths.etag}.digest`]) rmSync(f, { force: true })
}

/**
 * Brings the batch's file into `part`: from where an earlier attempt stopped (`Range: bytes=N-`
 * with the ETag it had as `If-Range`), or whole. A cut transfer throws and leaves the bytes it got
 * (a transfer past its deadline too); an answer larger than it announced or than `maxBytes` is
 * refused and its part removed.
 */
export const downloadSnapshot = async (primary: Primary, batchId: string, paths: DownloadPaths): Promise<Downloaded> => {
  const { downloadMillis } = limitsOf(primary)
  const signal = deadline(primary, downloadMillis)
  const what = `GET /api/batches/${batchId}/snapshot`
  try {
    return await transfer(primary, batchId, paths, signal)
  } catch (e) {
    if (e instanceof TransferRefused) removePart(paths)
    throw timedOut(what, signal, downloadMillis, e)
  }
}

const transfer = async (primary: Primary, batchId: string, paths: DownloadPaths, signal: AbortSignal): Promise<Downloaded> => {
  const maxBytes = paths.maxBytes ?? Number.POSITIVE_INFINITY
  const have = existsSync(paths.part) ? statSync(paths.part).size : 0
  if (have > maxBytes) throw new TransferRefused(`${batchId}: the kept part (${have} bytes) is more than the ${maxBytes} allowed`)
  const etag = existsSync(paths.etag) ? readFileSync(paths.etag, "utf8").trim() : null
  const resuming = have > 0 && etag !== null
  const res = await request(
    `${primary.url}/api/batches/${encodeURIComponent(batchId)}/snapshot`,
    requestOptions(primary, signal, resuming ? { range: `bytes=${have}-`, "if-range": etag } : {}),
  )
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
    res.body.destroy()
    throw new TransferRefused(`${batchId}: the primary's answer has no Repr-Digest`)
  }
  let from = 0
  const length = header(res.headers, "content-length")
  // the whole file's size as the primary announces it (none for a body without Content-Length)
  let announced = length === undefined ? null : Number(length)
  if (res.statusCode === 206) {
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header(res.headers, "content-range") ?? "")
    if (range === null || Number(range[1]) !== have) {
      res.body.destroy()
      rmSync(paths.part, { force: true })
      throw new TransferRefused(`${batchId}: the primary sent another range than the one asked for; fetched whole next time`)
    }
    from = have
    announced = Number(range[3])
  }
  if (announced !== null && !(Number.isSafeInteger(announced) && announced >= from)) {
    res.body.destroy()
    throw new TransferRefused(`${batchId}: the primary announces a size of ${announced} bytes`)
  }
  if (announced !== null && announced > maxBytes) {
    res.body.destroy()
    throw new TransferRefused(`${batchId}: the primary announces ${announced} bytes, more than the ${maxBytes} allowed`)
  }
  // the validator of these bytes, for a resume of this download
  writeFileSync(paths.etag, header(res.headers, "etag") ?? "")
  writeFileSync(`${paths.etag}.digest`, reprDigest)
  const bound = Math.min(maxBytes, announced ?? Number.POSITIVE_INFINITY)
  let at = from
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      at += chunk.length
      if (at > bound) {
        done(new TransferRefused(`${batchId}: the primary sent more than ${bound} bytes (${at > maxBytes ? "the most allowed" : "what it announced"})`))
      } else {
        done(null, chunk)
      }
    },
  })
  await pipeline(res.body, counted, createWriteStream(paths.part, { flags: from === 0 ? "w" : "a" }))
  return { reprDigest, size: statSync(paths.part).size, resumedFrom: from }
}

/** The primary's API as a BatchSource (what `./fds follow --from URL` brings batches through). */
export const primarySource = (primary: Primary): BatchSource => ({
  describe: primary.url,
  listBatches: () => listBatches(primary),
  fetchManifest: (batchId) => fetchManifest(primary, batchId),
  downloadSnapshot: (batchId, paths) => downloadSnapshot(primary, batchId, paths),
  fetchRelease: (batchId) => fetchRelease(primary, batchId),
  fetchManifestFile: (batchId, max) => fetchManifestFile(primary, batchId, max),
  fetchParquetFile: (batchId, file, max) => fetchParquetFile(primary, batchId, file, max),
})

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
