/**
 * `<prefix>/index.json`, the bucket's list of published batches: what a follower reads first, and
 * the last object the primary writes (a batch appears in it only once its file and manifest are in
 * the bucket, checked). Newest first by first publication, as /api/batches lists them; `current`
 * marks the batch the primary's CURRENT named when the index was written (a rollback moves it).
 */
import { Result, Schema } from "effect"
import { isBatchId } from "../schemas/Batches.ts"
import type { PublishedBatch } from "../snapshots/PublishedHistory.ts"
import { BucketRefused, getText, type Target } from "./Bucket.ts"

export const INDEX_FORMAT = 1

const Hex64 = Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/))

/** One published batch in the index. */
export const BucketBatch = Schema.Struct({
  id: Schema.String.check(Schema.makeFilter((s: string) => isBatchId(s) || "a batch id")),
  batch_date: Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/)),
  content_hash: Hex64,
  /** SHA-256 (hex) of the snapshot file in the bucket; null when it is not there (`retained` false). */
  sha256: Schema.NullOr(Hex64),
  /** The snapshot file's size in bytes; null when it is not there. */
  bytes: Schema.NullOr(Schema.Int.check(Schema.isGreaterThan(0))),
  /** When the primary first published it (its ledger's BatchPublished). */
  published_at: Schema.String,
  current: Schema.Boolean,
  /** Its snapshot and manifest are in the bucket. */
  retained: Schema.Boolean,
})
export type BucketBatch = typeof BucketBatch.Type

export const BucketIndex = Schema.Struct({
  format: Schema.Literal(INDEX_FORMAT),
  written_at: Schema.String,
  batches: Schema.Array(BucketBatch),
})
export type BucketIndex = typeof BucketIndex.Type

/** What an upload found out about a batch's file in the bucket. */
export interface Uploaded {
  readonly sha256: string
  readonly bytes: number
}

/**
 * The index's batches: every batch the ledger says was published (newest first), those whose
 * files are in the bucket (uploaded now or listed as retained before) with their SHA-256 and size.
 */
export const indexBatches = (
  published: ReadonlyArray<PublishedBatch>,
  current: string | null,
  inBucket: ReadonlyMap<string, Uploaded>,
): BucketBatch[] =>
  published.map((b) => {
    const there = inBucket.get(b.id)
    return {
      id: b.id,
      batch_date: b.batchDate,
      content_hash: b.contentHash,
      sha256: there?.sha256 ?? null,
      bytes: there?.bytes ?? null,
      published_at: b.publishedAt,
      current: b.file === current,
      retained: there !== undefined,
    }
  })

/** The batches an index lists as in the bucket, by id. */
export const retainedIn = (index: BucketIndex | null): Map<string, Uploaded> =>
  new Map(
    (index?.batches ?? []).flatMap((b) => (b.retained && b.sha256 !== null && b.bytes !== null ? [[b.id, { sha256: b.sha256, bytes: b.bytes }] as const] : [])),
  )

/** Reads an index's text; throws an Error saying what does not fit. */
export const parseIndex = (text: string): BucketIndex => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new Error(`index.json is not JSON (${(e as Error).message})`)
  }
  const decoded = Schema.decodeUnknownResult(BucketIndex)(json)
  if (Result.isFailure(decoded)) throw new Error(`index.json does not fit its format: ${String(decoded.failure).slice(0, 500)}`)
  const index = decoded.success
  const ids = new Set(index.batches.map((b) => b.id))
  if (ids.size !== index.batches.length) throw new Error("index.json lists a batch twice")
  if (index.batches.filter((b) => b.current).length > 1) throw new Error("index.json marks more than one batch current")
  const bad = index.batches.find((b) => b.retained !== (b.sha256 !== null && b.bytes !== null))
  if (bad !== undefined) throw new Error(`index.json: batch ${bad.id} is retained without a SHA-256 and size, or the reverse`)
  return index
}

/** Two lists of batches say the same (the write time aside): nothing to write. */
export const sameBatches = (a: ReadonlyArray<BucketBatch>, b: ReadonlyArray<BucketBatch>): boolean => {
  const fields = (x: BucketBatch) => [x.id, x.batch_date, x.content_hash, x.sha256, x.bytes, x.published_at, x.current, x.retained]
  return JSON.stringify(a.map(fields)) === JSON.stringify(b.map(fields))
}

/** The largest index.json read (a few hundred bytes a batch: tens of thousands of batches). */
export const MAX_INDEX_BYTES = 16 * 1024 * 1024

/**
 * The index the bucket holds, or null when it holds none. One that cannot be read is refused
 * (BucketRefused); `rewriting`: the message says how to have the publisher write it again.
 */
export const readIndex = async (t: Target, key: string, options: { readonly rewriting?: boolean } = {}): Promise<BucketIndex | null> => {
  const text = await getText(t, key, MAX_INDEX_BYTES)
  if (text === null) return null
  try {
    return parseIndex(text)
  } catch (e) {
    // rewriting an index this run cannot read would forget the batches only it lists
    throw new BucketRefused(`${key}: ${(e as Error).message}${options.rewriting === true ? "; remove it to have it written again from this data folder" : ""}`)
  }
}
