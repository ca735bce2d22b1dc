/**
 * Runs the ALONGSIDE computations beside the build's thread (the Offload's `beside`: a worker
 * thread on a second core) while the build's thread runs the others, then writes their recorded
 * rows into the build's transaction at the place they would have run: the snapshot is the same
 * as with every computation in turn (the tables are disjoint, each written in its own order),
 * ~2 s sooner at full scale on two cores. On one core (the in-process Offload) every computation
 * runs in turn here.
 */
import type Database from "better-sqlite3"
import { journalOff } from "../../snapshots/Writer.ts"
import type { OffloadShape } from "../offload/Offload.ts"
import type { Computation, ComputeIncrement } from "./Computation.ts"
import { ALONGSIDE } from "./Computations.ts"
import { type ComputeAnswer, computeJob } from "./ComputeJob.ts"

export interface ComputeOptions {
  /** Gets each computation's milliseconds (the job's own, and `alongside_wait_ms`: how long this thread waited for it). */
  readonly timings?: Record<string, number>
  /** The computations run as an increment, by name (their rows from `from` on deleted), and where each keeps its state. */
  readonly incremental?: { readonly increments: Readonly<Record<string, ComputeIncrement>>; readonly states: Record<string, unknown> }
  /** The divisible computations to run in two halves, one on each core. */
  readonly split?: ReadonlyArray<string>
  /** Where work beside this thread runs: on one core, nothing is split. */
  readonly offload: Pick<OffloadShape, "cores" | "beside">
}

/**
 * Every computation of `computations`, in order, on `db` (its facts in an open transaction on
 * the file `path`); returns the counters by computation. With two cores, commits the facts first
 * so that the job's connection sees them. A divisible computation named in `split` runs in two
 * parts, its first half of the series here and the second beside (whose rows go in right after
 * the first half's): when the job's own computations are short (an increment's), both cores
 * share it.
 */
export const runComputations = (
  db: Database.Database,
  path: string,
  computations: ReadonlyArray<Computation>,
  batchDate: string,
  options: ComputeOptions,
): Record<string, Record<string, number>> => {
  const { timings = {}, incremental = { increments: {}, states: {} }, split = [], offload } = options
  const twoCores = offload.cores >= 2
  const halves = twoCores ? computations.filter((c) => c.divisible === true && split.includes(c.name)).map((c) => c.name) : []
  const aside = twoCores ? computations.filter((c) => ALONGSIDE.has(c.name)).map((c) => c.name) : []
  const counters: Record<string, Record<string, number>> = {}
  const { increments, states } = incremental
  const timed = (c: Computation) => {
    const t = performance.now()
    counters[c.name] = c.run(db, batchDate, {
      increment: increments[c.name] ?? null,
      ...(halves.includes(c.name) ? { part: { index: 0, of: 2 } } : {}),
      keep: (state) => {
        states[c.name] = state
      },
    })
    timings[c.name] = Math.round(performance.now() - t)
  }
  if (aside.length === 0 && halves.length === 0) {
    for (const c of computations) timed(c)
    return counters
  }
  // The job reads while this thread writes: in the build's journal-less mode a writer that
  // spills its cache locks readers out until it commits, so this phase writes through a WAL
  // (readers see the committed facts, never wait) and the file is back to no journal after it.
  db.exec("COMMIT")
  db.pragma("journal_mode = WAL")
  db.exec("BEGIN")
  // the second halves first: their rows go in right after the first halves'
  const parts = Object.fromEntries(halves.map((name) => [name, { index: 1, of: 2 }]))
  const beside = offload.beside(computeJob, { path, names: [...halves, ...aside], batchDate, increments, parts })
  try {
    runAlongside(computations, aside, halves, beside, timed, db, counters, timings, states)
  } finally {
    // A computation of this thread that throws leaves the job running: it is stopped.
    beside.stop()
  }
  // Back to the build's mode: the WAL is checkpointed into the file and removed. SQLite refuses
  // to go from WAL straight to OFF (the file would stay marked WAL, which an increment, built
  // without VACUUM INTO, would publish): through DELETE, which marks the file rollback-journal.
  db.exec("COMMIT")
  db.pragma("journal_mode = DELETE")
  journalOff(db)
  db.exec("BEGIN")
  return counters
}

const runAlongside = (
  computations: ReadonlyArray<Computation>,
  aside: ReadonlyArray<string>,
  halves: ReadonlyArray<string>,
  beside: { readonly wait: () => ComputeAnswer },
  timed: (c: Computation) => void,
  db: Database.Database,
  counters: Record<string, Record<string, number>>,
  timings: Record<string, number>,
  states: Record<string, unknown>,
): void => {
  let written = false
  // The job's rows, in the order it ran (its halves first, then the alongside computations').
  const write = () => {
    if (written) return
    written = true
    const t = performance.now()
    const answer = beside.wait()
    timings.alongside_wait_ms = Math.round(performance.now() - t)
    if (answer._tag === "Failed") throw new Error(`computations ${[...halves, ...aside].join(", ")} failed: ${answer.reason}`)
    for (const [name, ms] of Object.entries(answer.timings)) timings[halves.includes(name) ? `${name}_second_half` : name] = ms
    Object.assign(states, answer.states)
    for (const insert of answer.inserts) {
      const statement = db.prepare(insert.sql)
      for (const args of insert.runs) statement.run(args as unknown[])
    }
    for (const [name, counted] of Object.entries(answer.counters)) {
      if (!halves.includes(name)) {
        counters[name] = counted
        continue
      }
      const sums: Record<string, number> = { ...counters[name] }
      for (const [k, v] of Object.entries(counted)) sums[k] = (sums[k] ?? 0) + v
      counters[name] = sums
    }
  }
  for (const c of computations) {
    if (halves.includes(c.name)) {
      // the first half here; the second half's rows (the job's first) right after them
      timed(c)
      write()
    } else if (ALONGSIDE.has(c.name)) {
      // The first alongside computation's place: all of their rows go in here, in their order.
      write()
    } else {
      timed(c)
    }
  }
}
