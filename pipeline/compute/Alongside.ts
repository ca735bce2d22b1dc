/**
 * Runs the ALONGSIDE computations in a worker thread while the build's thread runs the others,
 * then writes their recorded rows into the build's transaction at the place they would have run:
 * the snapshot is the same as with every computation in turn (the tables are disjoint, each
 * written in its own order), ~2 s sooner at full scale on two cores.
 */
import type Database from "better-sqlite3"
import { type BlockingChannel, type BlockingWorker, startBlockingWorker } from "../../snapshots/BlockingWorker.ts"
import { journalOff } from "../../snapshots/Writer.ts"
import type { Computation, ComputeIncrement } from "./Computation.ts"
import { ALONGSIDE } from "./Computations.ts"
import type { ComputeAnswer, ComputeRequest } from "./ComputeWorker.ts"

const COMPUTE_WORKER = new URL("./ComputeWorker.ts", import.meta.url)
/** How long this thread waits for the worker (BlockingWorker.ts); the two computations take ~5 s at full scale. */
const DEADLINE_MS = 5 * 60_000

/**
 * Every computation of `computations`, in order, on `db` (its facts in an open transaction on
 * the file `path`); returns the counters by computation. Commits the facts first so that the
 * worker's connection sees them. `timings` gets each computation's milliseconds (the worker's
 * own, and `alongside_wait_ms`: how long this thread waited for it). A divisible computation named
 * in `split` runs in two parts, its first half of the series here and the second in the worker
 * (whose rows go in right after the first half's): when the worker's own computations are short
 * (an increment's), both cores share it.
 */
export const runComputations = (
  db: Database.Database,
  path: string,
  computations: ReadonlyArray<Computation>,
  batchDate: string,
  timings: Record<string, number> = {},
  /** The computations run as an increment, by name (their rows from `from` on deleted), and where each keeps its state. */
  incremental: { readonly increments: Readonly<Record<string, ComputeIncrement>>; readonly states: Record<string, unknown> } = {
    increments: {},
    states: {},
  },
  split: ReadonlyArray<string> = [],
): Record<string, Record<string, number>> => {
  const halves = computations.filter((c) => c.divisible === true && split.includes(c.name)).map((c) => c.name)
  const aside = computations.filter((c) => ALONGSIDE.has(c.name)).map((c) => c.name)
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
  // The worker reads while this thread writes: in the build's journal-less mode a writer that
  // spills its cache locks readers out until it commits, so this phase writes through a WAL
  // (readers see the committed facts, never wait) and the file is back to no journal after it.
  db.exec("COMMIT")
  db.pragma("journal_mode = WAL")
  db.exec("BEGIN")
  // the second halves first: their rows go in right after the first halves'
  const parts = Object.fromEntries(halves.map((name) => [name, { index: 1, of: 2 }]))
  const worker = startWorker({ path, names: [...halves, ...aside], batchDate, increments, parts })
  try {
    runAlongside(computations, aside, halves, worker, timed, db, counters, timings, states)
  } finally {
    // A computation of this thread that throws leaves the worker running: it is stopped.
    worker.stop()
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
  worker: { readonly wait: () => ComputeAnswer },
  timed: (c: Computation) => void,
  db: Database.Database,
  counters: Record<string, Record<string, number>>,
  timings: Record<string, number>,
  states: Record<string, unknown>,
): void => {
  let written = false
  // The worker's rows, in the order it ran (its halves first, then the alongside computations').
  const write = () => {
    if (written) return
    written = true
    const t = performance.now()
    const answer = worker.wait()
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
      // the first half here; the second half's rows (the worker's first) right after them
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

const startWorker = (request: Omit<ComputeRequest, keyof BlockingChannel>): BlockingWorker<ComputeAnswer> =>
  startBlockingWorker<ComputeRequest, ComputeAnswer>(COMPUTE_WORKER, request, {
    deadlineMs: DEADLINE_MS,
    noAnswer: { _tag: "Failed", reason: "the computation worker gave no answer" },
  })
