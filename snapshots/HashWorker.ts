/**
 * Worker thread entry: the content hash and row counts of a finished snapshot file, read on a
 * connection of its own while the writer's thread runs `integrity_check` on the same file (both
 * only read it). Answers on the given port, then raises the shared flag the writer waits on —
 * always: the modules are imported inside the try, so even a failed import answers.
 */
import { workerData } from "node:worker_threads"
import { answerBlocking, type BlockingChannel } from "./BlockingWorker.ts"
import type { KnownDigests, SnapshotDigests } from "./ContentHash.ts"

export interface HashRequest extends BlockingChannel {
  readonly path: string
  /** The quotas month digests taken while inserting (used when the table's row count agrees), and any other known digests. */
  readonly known: KnownDigests
}

export type HashAnswer =
  | ({ readonly _tag: "Hashed" } & SnapshotDigests)
  | { readonly _tag: "Failed"; readonly reason: string }

const request = workerData as HashRequest
let answer: HashAnswer
try {
  const { default: Database } = await import("better-sqlite3")
  const { hashSnapshotFile } = await import("./ContentHash.ts")
  const open = (path: string) => new Database(path, { readonly: true, fileMustExist: true })
  answer = { _tag: "Hashed", ...hashSnapshotFile(open, request.path, request.known) }
} catch (e) {
  answer = { _tag: "Failed", reason: String(e) }
}
answerBlocking(request, answer)
