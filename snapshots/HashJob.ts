/**
 * The content hash and row counts of a finished snapshot file, read on a connection of its own:
 * run beside the writer's thread (Beside.ts) while that thread packs and checks the same file
 * (both only read it), or on the writer's thread itself.
 */
import Database from "better-sqlite3"
import type { BesideJob } from "./Beside.ts"
import { hashSnapshotFile, type KnownDigests, type SnapshotDigests } from "./ContentHash.ts"

export interface HashRequest {
  readonly path: string
  /** The quotas month digests taken while inserting (used when the table's row count agrees), and any other known digests. */
  readonly known: KnownDigests
}

export type HashAnswer =
  | ({ readonly _tag: "Hashed" } & SnapshotDigests)
  | { readonly _tag: "Failed"; readonly reason: string }

const openReadOnly = (path: string) => new Database(path, { readonly: true, fileMustExist: true })

/** Hashing a full-size snapshot takes ~3 s. */
export const hashJob: BesideJob<HashRequest, HashAnswer> = {
  script: new URL("./HashWorker.ts", import.meta.url),
  run: ({ path, known }) => ({ _tag: "Hashed", ...hashSnapshotFile(openReadOnly, path, known) }),
  failed: (reason) => ({ _tag: "Failed", reason }),
  deadlineMs: 5 * 60_000,
}
