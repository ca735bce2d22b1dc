/**
 * Worker thread entry: runs some computations against the snapshot being built, on a read-only
 * connection of its own, while the build's thread runs the others. The facts are committed before
 * it starts; what the computations write (INSERT statements) is recorded, not executed, and sent
 * back in order, for the build's thread to write into its transaction exactly as if they had run
 * there. Always answers (modules are imported inside the try) and raises the shared flag.
 */
import { workerData } from "node:worker_threads"
import { answerBlocking, type BlockingChannel } from "../../snapshots/BlockingWorker.ts"
import type { ComputeIncrement } from "./Computation.ts"
import type { RecordedInsert } from "./RecordingDb.ts"

export interface ComputeRequest extends BlockingChannel {
  readonly path: string
  readonly names: ReadonlyArray<string>
  readonly batchDate: string
  /** The computations run as an increment (Computation.ts), by name. */
  readonly increments: Readonly<Record<string, ComputeIncrement>>
  /** The part of a divisible computation this worker runs, by name (the build's thread runs the others). */
  readonly parts: Readonly<Record<string, { readonly index: number; readonly of: number }>>
}

export type ComputeAnswer =
  | {
      readonly _tag: "Computed"
      readonly counters: Record<string, Record<string, number>>
      /** Milliseconds each computation took in the worker. */
      readonly timings: Record<string, number>
      /** What each kept for the next build. */
      readonly states: Record<string, unknown>
      readonly inserts: ReadonlyArray<RecordedInsert>
    }
  | { readonly _tag: "Failed"; readonly reason: string }

const request = workerData as ComputeRequest
const { path, names, batchDate, increments, parts } = request
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
    const timings: Record<string, number> = {}
    const states: Record<string, unknown> = {}
    for (const name of names) {
      const computation = COMPUTATIONS.find((c) => c.name === name)
      if (computation === undefined) throw new Error(`no computation named ${name}`)
      const t = performance.now()
      const part = parts[name]
      counters[name] = computation.run(recording, batchDate, {
        increment: increments[name] ?? null,
        ...(part === undefined ? {} : { part }),
        keep: (state) => {
          states[name] = state
        },
      })
      timings[name] = Math.round(performance.now() - t)
    }
    answer = { _tag: "Computed", counters, timings, states, inserts }
  } finally {
    db.close()
  }
} catch (e) {
  answer = { _tag: "Failed", reason: e instanceof Error ? (e.stack ?? e.message) : String(e) }
}
answerBlocking(request, answer)
