/**
 * The two batches /api/changes compares, named by their batch ids: each one's snapshot file, or
 * the error that names the parameter. A batch is known when the pipeline's ledger published it (a
 * data folder without a ledger, a copy or a replica, knows the batches whose manifests it holds:
 * manifests are kept forever); it is retained while its file is on disk.
 *
 * This reads the ledger and the folder itself for now: the API's store of past snapshots
 * (`?batch=`, #18 item 2) will answer the same question, with the file checked before it is used,
 * and this module will ask it instead.
 */
import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import { Effect, Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { NotFound, ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { isIsoDate } from "../../schemas/Dates.ts"
import { type Identical, identicalParts, NOTHING_IDENTICAL } from "../../snapshots/changes/Identical.ts"
import { type Manifest, manifestPath, readManifest } from "../../snapshots/Manifest.ts"
import { publishedNewestFirst } from "../../snapshots/PublishedHistory.ts"
import { PinnedSnapshot } from "../snapshot/Pinned.ts"
import { log } from "../snapshot/StoreFaults.ts"

const BATCH_ID = /^(\d{4}-\d{2}-\d{2})-[0-9a-f]{16}$/

/** True when `text` is a batch id: a real calendar date, a dash and 16 lower-case hex digits. */
export const isBatchId = (text: string): boolean => {
  const m = BATCH_ID.exec(text)
  return m !== null && isIsoDate(m[1]!)
}

export const BATCH_ID_RULE = "a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef"

/** The batch id of a snapshot file name. */
export const batchIdOf = (file: string): string => file.replace(/\.sqlite$/, "")

/** 410: a published batch whose snapshot file retention removed; the message gives its content hash and how to rebuild it. */
export class BatchNotRetained extends Schema.TaggedError<BatchNotRetained>()("BatchNotRetained", {
  message: Schema.String,
  parameter: Schema.String,
}) {}
export const BatchNotRetainedResponse = BatchNotRetained.pipe(
  HttpApiSchema.encodeToWithHeaders(
    {
      body: Schema.Struct({
        error: Schema.String,
        status: Schema.Literal(410),
        message: Schema.String,
        parameter: Schema.optionalKey(Schema.String),
      })
        .annotate({ identifier: "ChangesBatchNotRetainedError", description: "The one JSON error shape of this API" })
        .pipe(HttpApiSchema.status(410)),
      headers: {},
    },
    {
      decode: ({ body }) => new BatchNotRetained({ message: body.message, parameter: body.parameter ?? "" }),
      encode: (e) => ({ body: { error: "batch_not_retained", status: 410 as const, message: e.message, parameter: e.parameter }, headers: {} }),
    },
  ),
)

/** A batch to compare: its id, date and snapshot file. */
export interface ComparedBatch {
  readonly id: string
  readonly batchDate: string
  readonly path: string
}

/** The current batch (the request's pinned snapshot) and the snapshots folder it lives in. */
export const currentBatch = Effect.gen(function* () {
  const lease = yield* PinnedSnapshot
  const path = yield* lease.read((r) => r.path)
  const id = batchIdOf(lease.file)
  return { batch: { id, batchDate: id.slice(0, 10), path } satisfies ComparedBatch, dir: dirname(path) }
})

const ledgerUnreadable = (error: unknown) =>
  Effect.suspend(() => {
    log("error", "the ledger could not be read for /api/changes", { error: String(error) })
    return Effect.fail(
      new ServiceUnavailable({ reason: "ledger_unavailable", message: "the list of published batches cannot be read now; retry later", retryAfter: 30 }),
    )
  })

/** The content hash of a published batch (null: not published, as far as this folder knows). */
const publishedHash = (dir: string, id: string): Effect.Effect<string | null, ServiceUnavailable> => {
  const file = `${id}.sqlite`
  const ledger = join(dir, "..", "ledger.sqlite")
  if (!existsSync(ledger)) {
    return Effect.sync(() => (existsSync(manifestPath(dir, file)) ? readManifest(dir, file).content_hash : null))
  }
  return Effect.try({ try: () => publishedNewestFirst(ledger), catch: (e) => e }).pipe(
    Effect.map((published) => published.find((p) => p.file === file)?.contentHash ?? null),
    Effect.catch(ledgerUnreadable),
  )
}

/** The batch `id` (a well-formed id) names: 404 when never published, 410 when its file is gone; both name `parameter`. */
export const comparedBatch = (
  dir: string,
  parameter: string,
  id: string,
): Effect.Effect<ComparedBatch, NotFound | BatchNotRetained | ServiceUnavailable> =>
  Effect.gen(function* () {
    const hash = yield* publishedHash(dir, id)
    if (hash === null) return yield* new NotFound({ message: `${parameter}: no batch ${id} was published`, parameter })
    const file = `${id}.sqlite`
    const path = join(dir, file)
    if (!existsSync(path)) {
      return yield* new BatchNotRetained({
        parameter,
        message:
          `${parameter}: batch ${id} (content hash ${hash}) is no longer retained: retention removed its snapshot file. ` +
          `An operator can rebuild it from the ledger and the raw files: ./fds pipeline reproduce --date ${id.slice(0, 10)} --file ${file} --restore`,
      })
    }
    return { id, batchDate: id.slice(0, 10), path }
  })

type Parts = Pick<Manifest, "content_hash" | "table_digests" | "quota_month_digests">

/** Manifests' digests by file (a published manifest never changes): the last few read. */
const partsCache = new Map<string, Parts>()
const PARTS_CACHED = 16

const partsOf = (dir: string, file: string): Parts | null => {
  const key = join(dir, file)
  const kept = partsCache.get(key)
  if (kept !== undefined) return kept
  let manifest: Manifest
  try {
    manifest = readManifest(dir, file)
  } catch {
    return null // no manifest (or not one): nothing is skipped
  }
  const parts: Parts = {
    content_hash: manifest.content_hash,
    ...(manifest.table_digests === undefined ? {} : { table_digests: manifest.table_digests }),
    ...(manifest.quota_month_digests === undefined ? {} : { quota_month_digests: manifest.quota_month_digests }),
  }
  if (partsCache.size >= PARTS_CACHED) partsCache.delete(partsCache.keys().next().value!)
  partsCache.set(key, parts)
  return parts
}

/**
 * What the two batches hold identically, from their manifests' digests (snapshots/changes/
 * Identical.ts): the comparison skips it. The manifests are the ones checked against their files
 * before they are served (the current batch's at its swap).
 */
export const identicalOf = (from: ComparedBatch, to: ComparedBatch): Identical => {
  const older = partsOf(dirname(from.path), `${from.id}.sqlite`)
  const newer = partsOf(dirname(to.path), `${to.id}.sqlite`)
  return older === null || newer === null ? NOTHING_IDENTICAL : identicalParts(older, newer)
}
