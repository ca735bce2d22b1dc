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
 *      manifest beside it, and its signed release when the source has one that verifies and
 *      describes these files (FollowRelease.ts: the replica then serves the release routes);
 *   3. publishes it as the pipeline does, holding the pipeline's lock of the data folder: CURRENT
 *      rewritten atomically, the publication recorded in the replica's ledger (BatchPublished, or
 *      BatchRolledBack when the primary went back to a batch this replica served before: a
 *      rollback on the primary is followed), retention applied (FDS_RETENTION_DAYS).
 *
 * The primary is not trusted (nor any BatchSource): its list and manifests are checked before any
 * path is built from them, a download is held to FollowOptions.maxBytes (FDS_FOLLOW_MAX_BYTES),
 * and a file is made current only when it passes the checks the replica's API runs before a swap
 * (FollowChecks.ts). A replica whose CURRENT names a file those checks refuse (put there by an
 * older follower) is not in step: the file is fetched again, or the primary's next good batch
 * replaces it.
 *
 * A batch that fails its checks is refused: its download is removed, CURRENT does not move, the
 * batch served before keeps serving, and the next poll tries again. The replica's own API (`./fds
 * serve` on the same data folder) swaps to what CURRENT names, checking it again, as it does
 * after a pipeline run; its ledger gives its /api/batches, `?batch=` and downloads the batches it
 * published. It lives in ops/ because it composes the snapshots (files, CURRENT, manifests,
 * content hash, retention) with the pipeline's ledger and lock, which only ops/ may use together.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import type { Log } from "../pipeline/daemon/Log.ts"
import { withRunLock } from "../pipeline/daemon/RunLock.ts"
import { SqliteLedger } from "../pipeline/ledger/Ledger.ts"
import { paths } from "../pipeline/RunOptions.ts"
import { manifestPath } from "../snapshots/Manifest.ts"
import { inspectCurrent, publishCurrent } from "../snapshots/Pointer.ts"
import { applyRetention, filesToRemove } from "../snapshots/Retention.ts"
import type { BatchSource, PrimaryBatch } from "./BatchSource.ts"
import type { FleetTarget } from "./FleetTarget.ts"
import { apiRefusal, checkAsTheApi, checkListing, checkManifest } from "./FollowChecks.ts"
import { type FollowedRelease, followedRelease, writeFollowedRelease } from "./FollowRelease.ts"
import { partPaths, removePart, TransferRefused, verifyDownload } from "./FollowTransfer.ts"
import { withJsonLogs } from "../snapshots/Log.ts"

/** The most bytes a snapshot download may hold unless FDS_FOLLOW_MAX_BYTES says otherwise (a full batch is ≈530 MB). */
export const DEFAULT_MAX_BYTES = 4 * 1024 ** 3

export interface FollowOptions {
  /** Where the batches come from: the primary's API (primarySource) or a bucket. */
  readonly source: BatchSource
  readonly dataDir: string
  readonly retentionDays: number
  readonly log: Log
  /** The most bytes a snapshot download may hold (DEFAULT_MAX_BYTES when absent). */
  readonly maxBytes?: number
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
  const started = performance.now()
  const manifest = checkManifest(batch, await options.source.fetchManifest(batch.id))
  const dir = paths(options.dataDir).snapshots
  const file = `${batch.id}.sqlite`
  const target = join(dir, file)
  if (existsSync(target)) {
    const refusal = apiRefusal(dir, file)
    if (refusal === null) return
    options.log("warn", "a kept snapshot fails the API's checks; it is fetched again", { batch: batch.id, error: refusal })
    rmSync(target, { force: true })
    rmSync(manifestPath(dir, file), { force: true })
  }
  mkdirSync(dir, { recursive: true })
  const part = partPaths(dir, batch.id)
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  const got = await options.source.downloadSnapshot(batch.id, { ...part, maxBytes })
  let release: FollowedRelease | null = null
  try {
    const size = existsSync(part.part) ? statSync(part.part).size : 0
    if (size > maxBytes) throw new TransferRefused(`${batch.id}: the file is ${size} bytes, more than the ${maxBytes} allowed`)
    await verifyDownload(part.part, batch, manifest, got.reprDigest)
    release = await followedRelease(options.source, batch, manifest, { reprDigest: got.reprDigest, size: statSync(part.part).size }, options.log)
    checkAsTheApi(dir, part.part, manifest, release?.manifestBytes ?? null)
  } catch (e) {
    // a refused file is fetched whole next time
    if (e instanceof TransferRefused) removePart(part)
    throw e
  }
  removePart(part)
  if (release !== null) {
    const key = writeFollowedRelease(dir, batch.id, release)
    options.log("info", "release copied", { batch: batch.id, key_sha256: key })
  }
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
      // the same batch fetched again in place of a refused copy: nothing new to record
      const again = before.current === file && before.published.has(file)
      const ledger = new SqliteLedger(p.ledger)
      try {
        const payload = { batch_date: batch.attributes.batch_date, file, content_hash: batch.attributes.content_hash }
        const back = before.published.has(file) && before.current !== null && before.current > file
        if (again) {
          // recorded when it was first published
        } else if (back) {
          ledger.append({ type: "BatchRolledBack", payload: { ...payload, from_file: before.current, reason: `followed ${options.source.describe}` } })
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
  const listed = checkListing(await options.source.listBatches())
  const current = listed.find((b) => b.attributes.current)
  if (current === undefined) return { outcome: "nothing_published" }
  const local = localState(options.dataDir)
  if (local.current === `${current.id}.sqlite`) {
    // in step only when the replica's API would serve what CURRENT names
    const refusal = apiRefusal(paths(options.dataDir).snapshots, local.current)
    if (refusal === null) return { outcome: "in_step", primary: current.id }
    options.log("warn", "CURRENT names a snapshot the API refuses; it is fetched again", { batch: current.id, error: refusal })
  }
  const published: string[] = []
  for (const batch of batchesToFollow(listed, local.published)) {
    await bringIn(options, batch)
    await Effect.runPromise(withJsonLogs(publish(options, batch)))
    published.push(batch.id)
  }
  return { outcome: "published", primary: current.id, batches: published }
}

/** Whether local retention would keep `batchId`'s file were it here (a backfill never fetches what retention removes). */
const keptByRetention = (dir: string, batchId: string, days: number): boolean => {
  const file = `${batchId}.sqlite`
  const files = existsSync(dir) ? readdirSync(dir) : []
  const current = inspectCurrent(dir)
  return !filesToRemove([...files, file], current._tag === "Names" ? current.file : null, days).includes(file)
}

/**
 * One poll of a replica in a fleet (FDS_ACCOUNTS_URL set): brings in the batch the fleet is asked
 * to switch to, or its current one (FleetTarget.ts), checked against the fleet's record of it, and
 * names it in CURRENT (the replica's API then holds it ready and reports so; the fleet decides
 * when it serves). Then backfills, oldest decision last, the batches the fleet retains that this
 * folder lacks and its retention would keep, for `?batch=` reads (one failing is logged and tried
 * again at the next poll). When the fleet has decided nothing yet, follows the source's current
 * batch as `pollOnce` does.
 */
export const pollFleet = async (options: FollowOptions, fleet: FleetTarget): Promise<PollOutcome> => {
  const target = await fleet.target()
  if (target === null) return pollOnce(options)
  const dir = paths(options.dataDir).snapshots
  const file = `${target.id}.sqlite`
  const local = localState(options.dataDir)
  const published: string[] = []
  if (local.current !== file || apiRefusal(dir, file) !== null) {
    await bringIn(options, target)
    await Effect.runPromise(withJsonLogs(publish(options, target)))
    published.push(target.id)
  }
  for (const batch of await fleet.retained()) {
    if (existsSync(join(dir, `${batch.id}.sqlite`)) || !keptByRetention(dir, batch.id, options.retentionDays)) continue
    try {
      await bringIn(options, batch)
      options.log("info", "batch backfilled", { batch: batch.id })
    } catch (e) {
      options.log("warn", "a retained batch could not be backfilled; tried again at the next poll", { batch: batch.id, error: String(e) })
    }
  }
  return published.length === 0 ? { outcome: "in_step", primary: target.id } : { outcome: "published", primary: target.id, batches: published }
}
