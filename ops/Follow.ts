/**
 * `./fds follow --from URL`: keeps a replica's snapshots in step with a primary's published
 * batches through the primary's own API (no rsync, no shared disk). Each poll:
 *
 *   1. lists the primary's batches (GET /api/batches); its current one is the target;
 *   2. when the replica serves another batch, brings in each batch it lacks, oldest first: the
 *      batches the primary published since the newest one this replica knows (when it knows any),
 *      then the primary's current one. Each is downloaded (resuming a cut transfer with Range),
 *      checked (Repr-Digest, manifest content hash and row counts: FollowTransfer.ts), then put in
 *      place as the pipeline puts a snapshot (fsync, rename, fsync of the folder), with its
 *      manifest beside it;
 *   3. publishes it as the pipeline does, holding the pipeline's lock of the data folder: CURRENT
 *      rewritten atomically, the publication recorded in the replica's ledger (BatchPublished, or
 *      BatchRolledBack when the primary went back to a batch this replica served before: a
 *      rollback on the primary is followed), retention applied (FDS_RETENTION_DAYS).
 *
 * A batch that fails its checks is refused: its download is removed, CURRENT does not move, the
 * batch served before keeps serving, and the next poll tries again. The replica's own API (`./fds
 * serve` on the same data folder) swaps to what CURRENT names, checking it again, as it does
 * after a pipeline run; its ledger gives its /api/batches, `?batch=` and downloads the batches it
 * published. It lives in ops/ because it composes the snapshots (files, CURRENT, manifests,
 * content hash, retention) with the pipeline's ledger and lock, which only ops/ may use together.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import type { Log } from "../pipeline/daemon/Log.ts"
import { withRunLock } from "../pipeline/daemon/RunLock.ts"
import { SqliteLedger } from "../pipeline/ledger/Ledger.ts"
import { paths } from "../pipeline/Pipeline.ts"
import { renameDurably } from "../snapshots/Files.ts"
import { writeManifest } from "../snapshots/Manifest.ts"
import { inspectCurrent, publishCurrent } from "../snapshots/Pointer.ts"
import { applyRetention } from "../snapshots/Retention.ts"
import {
  downloadSnapshot,
  fetchManifest,
  listBatches,
  type Primary,
  type PrimaryBatch,
  partPaths,
  TransferRefused,
  verifyDownload,
} from "./FollowTransfer.ts"

export interface FollowOptions {
  readonly primary: Primary
  readonly dataDir: string
  readonly retentionDays: number
  readonly log: Log
}

/** What a poll found (`primary`: the batch the primary served) and did. */
export type PollOutcome =
  | { readonly outcome: "in_step"; readonly primary: string }
  | { readonly outcome: "published"; readonly primary: string; readonly batches: ReadonlyArray<string> }
  | { readonly outcome: "nothing_published" }

/** The files this replica's ledger says it published, and the one its CURRENT names. */
const localState = (dataDir: string) => {
  const p = paths(dataDir)
  const pointer = inspectCurrent(p.snapshots)
  const current = pointer._tag === "Names" ? pointer.file : null
  if (!existsSync(p.ledger)) return { current, published: new Set<string>() }
  const ledger = new SqliteLedger(p.ledger)
  try {
    const published = new Set([...ledger.events("BatchPublished"), ...ledger.events("BatchRolledBack")].map((e) => e.payload.file))
    return { current, published }
  } finally {
    ledger.close()
  }
}

/**
 * The batches to bring in, oldest first, ending with the primary's current one: those the primary
 * published after the newest one this replica knows (none when it knows none), still kept there.
 */
export const batchesToFollow = (listed: ReadonlyArray<PrimaryBatch>, known: ReadonlySet<string>): PrimaryBatch[] => {
  const current = listed.find((b) => b.attributes.current)
  if (current === undefined) return []
  if (known.has(`${current.id}.sqlite`)) return [current]
  const newestKnown = listed.findIndex((b) => known.has(`${b.id}.sqlite`))
  const at = listed.indexOf(current)
  const between = newestKnown < 0 ? [] : listed.slice(at + 1, newestKnown).filter((b) => b.attributes.retained && !known.has(`${b.id}.sqlite`))
  return [...between.reverse(), current]
}

/** Downloads, checks and puts in place one batch's file and manifest (nothing published yet). */
const bringIn = async (options: FollowOptions, batch: PrimaryBatch): Promise<void> => {
  const dir = paths(options.dataDir).snapshots
  const target = join(dir, `${batch.id}.sqlite`)
  if (existsSync(target)) return
  mkdirSync(dir, { recursive: true })
  const part = partPaths(dir, batch.id)
  const started = performance.now()
  const got = await downloadSnapshot(options.primary, batch.id, part)
  const manifest = await fetchManifest(options.primary, batch.id)
  try {
    await verifyDownload(part.part, batch, manifest, got.reprDigest)
  } catch (e) {
    // a refused file is fetched whole next time
    if (e instanceof TransferRefused) for (const f of [part.part, part.etag, `${part.etag}.digest`]) rmSync(f, { force: true })
    throw e
  }
  renameDurably(part.part, target)
  writeManifest(dir, manifest)
  for (const f of [part.etag, `${part.etag}.digest`]) rmSync(f, { force: true })
  options.log("info", "batch downloaded and checked", {
    batch: batch.id,
    bytes: got.size,
    resumed_from: got.resumedFrom,
    content_hash: manifest.content_hash,
    ms: Math.round(performance.now() - started),
  })
}

/** Makes `batch` this replica's CURRENT and records it in its ledger, holding the pipeline's lock. */
const publish = (options: FollowOptions, batch: PrimaryBatch) =>
  withRunLock(
    options.dataDir,
    Effect.sync(() => {
      const p = paths(options.dataDir)
      const file = `${batch.id}.sqlite`
      const before = localState(options.dataDir)
      publishCurrent(p.snapshots, file)
      const ledger = new SqliteLedger(p.ledger)
      try {
        const payload = { batch_date: batch.attributes.batch_date, file, content_hash: batch.attributes.content_hash }
        const back = before.published.has(file) && before.current !== null && before.current > file
        if (back) {
          ledger.append({ type: "BatchRolledBack", payload: { ...payload, from_file: before.current, reason: `followed ${options.primary.url}` } })
        } else {
          ledger.append({ type: "BatchPublished", payload })
        }
      } finally {
        ledger.close()
      }
      const removed = applyRetention(p.snapshots, options.retentionDays)
      options.log("info", "batch published", { batch: batch.id, from: before.current, retention_removed: removed })
    }),
  )

/** One poll: brings the replica in step with the primary's current batch (see the file's comment). */
export const pollOnce = async (options: FollowOptions): Promise<PollOutcome> => {
  const listed = await listBatches(options.primary)
  const current = listed.find((b) => b.attributes.current)
  if (current === undefined) return { outcome: "nothing_published" }
  const local = localState(options.dataDir)
  if (local.current === `${current.id}.sqlite`) return { outcome: "in_step", primary: current.id }
  const published: string[] = []
  for (const batch of batchesToFollow(listed, local.published)) {
    await bringIn(options, batch)
    await Effect.runPromise(publish(options, batch))
    published.push(batch.id)
  }
  return { outcome: "published", primary: current.id, batches: published }
}
