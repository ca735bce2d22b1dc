/**
 * Some computations run against the snapshot being built, on a read-only connection of their own,
 * beside the build's thread (snapshots/Beside.ts) while it runs the others. The facts are
 * committed before it starts; what the computations write (INSERT statements) is recorded, not
 * executed, and answered in order, for the build's thread to write into its transaction exactly
 * as if they had run there.
 */
import Database from "better-sqlite3"
import type { BesideJob } from "../../snapshots/Beside.ts"
import type { ComputeIncrement } from "./Computation.ts"
import { COMPUTATIONS } from "./Computations.ts"
import { type RecordedInsert, recordingInserts } from "./RecordingDb.ts"

export interface ComputeRequest {
  readonly path: string
  readonly names: ReadonlyArray<string>
  readonly batchDate: string
  /** The computations run as an increment (Computation.ts), by name. */
  readonly increments: Readonly<Record<string, ComputeIncrement>>
  /** The part of a divisible computation this job runs, by name (the build's thread runs the others). */
  readonly parts: Readonly<Record<string, { readonly index: number; readonly of: number }>>
}

export type ComputeAnswer =
  | {
      readonly _tag: "Computed"
      readonly counters: Record<string, Record<string, number>>
      /** Milliseconds each computation took in the job. */
      readonly timings: Record<string, number>
      /** What each kept for the next build. */
      readonly states: Record<string, unknown>
      readonly inserts: ReadonlyArray<RecordedInsert>
    }
  | { readonly _tag: "Failed"; readonly reason: string }

const compute = ({ path, names, batchDate, increments, parts }: ComputeRequest): ComputeAnswer => {
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
    return { _tag: "Computed", counters, timings, states, inserts }
  } finally {
    db.close()
  }
}

/** The two alongside computations take ~5 s at full scale. */
export const computeJob: BesideJob<ComputeRequest, ComputeAnswer> = {
  script: new URL("./ComputeWorker.ts", import.meta.url),
  run: compute,
  failed: (reason) => ({ _tag: "Failed", reason }),
  deadlineMs: 5 * 60_000,
}
