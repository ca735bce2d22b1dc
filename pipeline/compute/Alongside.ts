/**
 * Runs the ALONGSIDE computations in a worker thread while the build's thread runs the others,
 * then writes their recorded rows into the build's transaction at the place they would have run:
 * the snapshot is the same as with every computation in turn (the tables are disjoint, each
 * written in its own order), ~2 s sooner at full scale on two cores.
 */
import type Database from "better-sqlite3"
import { type BlockingChannel, type BlockingWorker, startBlockingWorker } from "../../snapshots/BlockingWorker.ts"
import type { Computation } from "./Computation.ts"
import type { ComputeAnswer, ComputeRequest } from "./ComputeWorker.ts"
import { ALONGSIDE } from "./Computations.ts"

const COMPUTE_WORKER = new URL("./ComputeWorker.ts", import.meta.url)
/** How long this thread waits for the worker (BlockingWorker.ts); the two computations take ~5 s at full scale. */
const DEADLINE_MS = 5 * 60_000

/**
 * Every computation of `computations`, in order, on `db` (its facts in an open transaction on
 * the file `path`); returns the counters by computation. Commits the facts first so that the
 * worker's connection sees them.
 */
export const runComputations = (
  db: Database.Database,
  path: string,
  computations: ReadonlyArray<Computation>,
  batchDate: string,
): Record<string, Record<string, number>> => {
  const aside = computations.filter((c) => ALONGSIDE.has(c.name)).map((c) => c.name)
  const counters: Record<string, Record<string, number>> = {}
  if (aside.length === 0) {
    for (const c of computations) counters[c.name] = c.run(db, batchDate)
    return counters
  }
  // The worker reads while this thread writes: in the build's journal-less mode a writer that
  // spills its cache locks readers out until it commits, so this phase writes through a WAL
  // (readers see the committed facts, never wait) and the file is back to no journal after it.
  db.exec("COMMIT")
  db.pragma("journal_mode = WAL")
  db.exec("BEGIN")
  const worker = startWorker({ path, names: aside, batchDate })
  try {
    runAlongside(db, computations, aside, worker, batchDate, counters)
  } finally {
    // A computation of this thread that throws leaves the worker running: it is stopped.
    worker.stop()
  }
  // Back to the build's mode: the WAL is checkpointed into the file and removed. SQLite refuses
  // to go from WAL straight to OFF (the file would stay marked WAL, which an increment, built
  // without VACUUM INTO, would publish): through DELETE, which marks the file rollback-journal.
  db.exec("COMMIT")
  db.pragma("journal_mode = DELETE")
  db.pragma("journal_mode = OFF")
  db.exec("BEGIN")
  return counters
}

const runAlongside = (
  db: Database.Database,
  computations: ReadonlyArray<Computation>,
  aside: ReadonlyArray<string>,
  worker: { readonly wait: () => ComputeAnswer },
  batchDate: string,
  counters: Record<string, Record<string, number>>,
): void => {
  let written = false
  for (const c of computations) {
    if (!ALONGSIDE.has(c.name)) {
      counters[c.name] = c.run(db, batchDate)
      continue
    }
    if (written) continue
    // The first alongside computation's place: all of their rows go in here, in their order.
    const answer = worker.wait()
    if (answer._tag === "Failed") throw new Error(`computations ${aside.join(", ")} failed: ${answer.reason}`)
    for (const insert of answer.inserts) {
      const statement = db.prepare(insert.sql)
      for (const args of insert.runs) statement.run(args as unknown[])
    }
    Object.assign(counters, answer.counters)
    written = true
  }
}

const startWorker = (request: Omit<ComputeRequest, keyof BlockingChannel>): BlockingWorker<ComputeAnswer> =>
  startBlockingWorker<ComputeRequest, ComputeAnswer>(COMPUTE_WORKER, request, {
    deadlineMs: DEADLINE_MS,
    noAnswer: { _tag: "Failed", reason: "the computation worker gave no answer" },
  })
