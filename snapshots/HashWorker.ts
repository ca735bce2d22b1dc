/**
 * Worker thread entry: the content hash and row counts of a finished snapshot file, read on a
 * connection of its own while the writer's thread runs `integrity_check` on the same file (both
 * only read it). Answers on the given port, then raises the shared flag the writer waits on —
 * always: the modules are imported inside the try, so even a failed import answers.
 */
import { type MessagePort, workerData } from "node:worker_threads"

export interface HashRequest {
  readonly path: string
  /** The quotas digest taken while inserting, used when the table's row count agrees. */
  readonly quotas: { readonly digest: string; readonly rows: number } | null
  readonly port: MessagePort
  readonly done: Int32Array
}

export type HashAnswer =
  | { readonly _tag: "Hashed"; readonly hash: string; readonly counts: Record<string, number> }
  | { readonly _tag: "Failed"; readonly reason: string }

const { path, quotas, port, done } = workerData as HashRequest
let answer: HashAnswer
try {
  const { default: Database } = await import("better-sqlite3")
  const { contentHash, rowCounts } = await import("./ContentHash.ts")
  const db = new Database(path, { readonly: true, fileMustExist: true })
  try {
    const counts = rowCounts(db)
    const known = quotas !== null && quotas.rows === counts.quotas ? { quotas: quotas.digest } : {}
    answer = { _tag: "Hashed", hash: contentHash(db, known), counts }
  } finally {
    db.close()
  }
} catch (e) {
  answer = { _tag: "Failed", reason: String(e) }
}
port.postMessage(answer)
Atomics.store(done, 0, 1)
Atomics.notify(done, 0)
