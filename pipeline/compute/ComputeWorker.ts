/**
 * Worker thread entry: runs some computations against the snapshot being built, on a read-only
 * connection of its own, while the build's thread runs the others. The facts are committed before
 * it starts; what the computations write (INSERT statements) is recorded, not executed, and sent
 * back in order, for the build's thread to write into its transaction exactly as if they had run
 * there. Always answers (modules are imported inside the try) and raises the shared flag.
 */
import { type MessagePort, workerData } from "node:worker_threads"

export interface ComputeRequest {
  readonly path: string
  readonly names: ReadonlyArray<string>
  readonly batchDate: string
  readonly port: MessagePort
  readonly done: Int32Array
}

/** One INSERT statement and the arguments of each of its runs, in the order they ran. */
export interface RecordedInsert {
  readonly sql: string
  readonly runs: Array<ReadonlyArray<unknown>>
}

export type ComputeAnswer =
  | {
      readonly _tag: "Computed"
      readonly counters: Record<string, Record<string, number>>
      readonly inserts: ReadonlyArray<RecordedInsert>
    }
  | { readonly _tag: "Failed"; readonly reason: string }

const { path, names, batchDate, port, done } = workerData as ComputeRequest
let answer: ComputeAnswer
try {
  const { default: Database } = await import("better-sqlite3")
  const { COMPUTATIONS } = await import("./Computations.ts")
  const { recordingInserts } = await import("./RecordingDb.ts")
  const db = new Database(path, { readonly: true, fileMustExist: true })
  try {
    const inserts: RecordedInsert[] = []
    const recording = recordingInserts(db, inserts)
    const counters: Record<string, Record<string, number>> = {}
    for (const name of names) {
      const computation = COMPUTATIONS.find((c) => c.name === name)
      if (computation === undefined) throw new Error(`no computation named ${name}`)
      counters[name] = computation.run(recording, batchDate)
    }
    answer = { _tag: "Computed", counters, inserts }
  } finally {
    db.close()
  }
} catch (e) {
  answer = { _tag: "Failed", reason: e instanceof Error ? (e.stack ?? e.message) : String(e) }
}
port.postMessage(answer)
Atomics.store(done, 0, 1)
Atomics.notify(done, 0)
