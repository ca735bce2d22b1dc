/**
 * The two batches /api/changes compares, named by their batch ids: each one's snapshot file, or
 * the error that names the parameter. Each is leased from the snapshot store for the request
 * (SnapshotStore.leaseBatch, the same as `?batch=`): the current batch, or a past one opened after
 * the checks the current one passes (manifest, row counts, content hash); 404 when the ledger never
 * published it, 410 batch_not_retained when retention removed its file. The lease is given back as
 * soon as the file has passed: the comparison reads the files on a connection of its own
 * (snapshots/changes/BatchPair.ts), and a request that held one place of the past batches' cache
 * while it waited for a second could wait forever on requests doing the same.
 */
import { Effect, type Scope } from "effect"
import { BatchNotRetained, NotFound, type ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { type Identical, identicalParts, NOTHING_IDENTICAL } from "../../snapshots/changes/Identical.ts"
import { type Manifest, readManifest } from "../../snapshots/Manifest.ts"
import { SnapshotStore } from "../snapshot/SnapshotStore.ts"

/** A batch to compare: its id, date and snapshot file, and its manifest's digests (null without a manifest). */
export interface ComparedBatch {
  readonly id: string
  readonly batchDate: string
  readonly path: string
  readonly parts: Parts | null
}

/** The batch id of a snapshot file name. */
export const batchIdOf = (file: string): string => file.replace(/\.sqlite$/, "")

/** The batch `id` (a well-formed id), checked by the store; its errors name `parameter`. */
export const leasedBatch = (
  parameter: "from_batch" | "to_batch",
  id: string,
): Effect.Effect<ComparedBatch, NotFound | BatchNotRetained | ServiceUnavailable, SnapshotStore | Scope.Scope> =>
  Effect.scoped(Effect.gen(function* () {
    const store = yield* SnapshotStore
    const lease = yield* store.leaseBatch(id).pipe(
      Effect.catchTags({
        NotFound: (e) => Effect.fail(new NotFound({ message: `${parameter}: ${e.message}`, parameter })),
        BatchNotRetained: (e) => Effect.fail(new BatchNotRetained({ message: `${parameter}: ${e.message}`, parameter })),
      }),
    )
    const path = yield* lease.read((r) => r.path)
    // a published manifest never changes: read once per open snapshot
    const parts = lease.memo("changes:manifestParts", () => partsOf(store.dir, lease.file))
    return { id, batchDate: id.slice(0, 10), path, parts }
  }))

type Parts = Pick<Manifest, "content_hash" | "table_digests" | "quota_month_digests">

const partsOf = (dir: string, file: string): Parts | null => {
  let manifest: Manifest
  try {
    manifest = readManifest(dir, file)
  } catch {
    return null // no manifest (or not one): nothing is skipped
  }
  return {
    content_hash: manifest.content_hash,
    ...(manifest.table_digests === undefined ? {} : { table_digests: manifest.table_digests }),
    ...(manifest.quota_month_digests === undefined ? {} : { quota_month_digests: manifest.quota_month_digests }),
  }
}

/**
 * What the two batches hold identically, from their manifests' digests (snapshots/changes/
 * Identical.ts): the comparison skips it. Both manifests' content hashes were checked against
 * their files when the store opened them.
 */
export const identicalOf = (from: ComparedBatch, to: ComparedBatch): Identical =>
  from.parts === null || to.parts === null ? NOTHING_IDENTICAL : identicalParts(from.parts, to.parts)
