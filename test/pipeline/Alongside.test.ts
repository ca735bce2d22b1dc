/**
 * The computations run beside the others in a worker thread (pipeline/compute/Alongside.ts) write
 * exactly what they write when run in turn on the build's own connection: a snapshot built by the
 * pipeline is copied, their tables emptied and recomputed in this thread, and every table's digest
 * compared; and the returns split in two halves (the second in the worker, as an increment runs
 * them) write what they write whole. On one core (the in-process Offload) nothing runs beside:
 * every computation in turn on the build's connection, the same rows.
 */

import { copyFileSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runComputations } from "../../pipeline/compute/Alongside.ts"
import { ALONGSIDE, COMPUTATIONS } from "../../pipeline/compute/Computations.ts"
import { ReturnsComputation } from "../../pipeline/compute/ReturnsComputation.ts"
import { childProcessOffload, inProcessOffload } from "../../pipeline/offload/Offload.ts"
import { runPipelineLive } from "../../pipeline/Pipeline.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { tableDigest } from "../../snapshots/ContentHash.ts"
import { readCurrent } from "../../snapshots/Pointer.ts"
import { TABLES } from "../../snapshots/Tables.ts"

let work: string
let built: string

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-alongside-"))
  const sample = join(work, "sample")
  await writeSample({ out: sample, scale: "small", seed: 5, endDate: "2026-11-20" })
  const dataDir = join(work, "data")
  await Effect.runPromise(
    runPipelineLive({ dataDir, sources: [{ kind: "folder", path: sample }], today: "2026-11-22", historyStart: "2018-12-01", fetch: { timeoutMillis: 1000, retries: 0, retryBaseMillis: 1 } }),
  )
  built = join(dataDir, "snapshots", readCurrent(join(dataDir, "snapshots"))!)
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe("computations alongside", () => {
  it("are the family indices and the administrators' months", () => {
    expect([...ALONGSIDE].sort()).toEqual(["market_agf_monthly", "market_family_index"])
  })

  it("write the same rows as when run in turn on the build's connection", () => {
    const copy = join(work, "sequential.sqlite")
    copyFileSync(built, copy)
    const db = new Database(copy)
    try {
      const tables = ["market_family_index", "market_family_currencies", "market_agf_monthly"]
      const before = Object.fromEntries(TABLES.map((t) => [t.name, tableDigest(db, t)]))
      expect(db.prepare("SELECT count(*) FROM market_family_index").pluck().get()).toBeGreaterThan(0)
      expect(db.prepare("SELECT count(*) FROM market_agf_monthly").pluck().get()).toBeGreaterThan(0)
      db.exec("BEGIN")
      for (const t of tables) db.exec(`DELETE FROM ${t}`)
      for (const c of COMPUTATIONS) if (ALONGSIDE.has(c.name)) c.run(db, db.prepare("SELECT value FROM meta WHERE key = 'batch_date'").pluck().get() as string)
      db.exec("COMMIT")
      const after = Object.fromEntries(TABLES.map((t) => [t.name, tableDigest(db, t)]))
      expect(after).toEqual(before)
    } finally {
      db.close()
    }
  })

  it("returns in two halves, the second in the worker, write the same rows as returns whole", () => {
    const copy = join(work, "halves.sqlite")
    copyFileSync(built, copy)
    const db = new Database(copy)
    try {
      const before = Object.fromEntries(TABLES.map((t) => [t.name, tableDigest(db, t)]))
      const series = db.prepare("SELECT count(*) FROM series").pluck().get() as number
      db.exec("BEGIN")
      for (const t of ["returns_latest", "risk_latest"]) db.exec(`DELETE FROM ${t}`)
      const timings: Record<string, number> = {}
      const batchDate = db.prepare("SELECT value FROM meta WHERE key = 'batch_date'").pluck().get() as string
      const counters = runComputations(db, copy, [ReturnsComputation], batchDate, { timings, split: ["returns"], offload: childProcessOffload(2) })
      db.exec("COMMIT")
      // the worker ran the second half; the counters are both halves'
      expect(timings.returns_second_half).toBeTypeOf("number")
      expect(counters.returns?.series).toBe(series)
      const after = Object.fromEntries(TABLES.map((t) => [t.name, tableDigest(db, t)]))
      expect(after).toEqual(before)
    } finally {
      db.close()
    }
  })

  it("on one core every computation runs in turn here, nothing beside and nothing split: the same rows", () => {
    const copy = join(work, "one-core.sqlite")
    copyFileSync(built, copy)
    const db = new Database(copy)
    try {
      const before = Object.fromEntries(TABLES.map((t) => [t.name, tableDigest(db, t)]))
      const batchDate = db.prepare("SELECT value FROM meta WHERE key = 'batch_date'").pluck().get() as string
      const aside = COMPUTATIONS.filter((c) => ALONGSIDE.has(c.name))
      db.exec("BEGIN")
      for (const t of ["returns_latest", "risk_latest", "market_family_index", "market_family_currencies", "market_agf_monthly"]) db.exec(`DELETE FROM ${t}`)
      const timings: Record<string, number> = {}
      runComputations(db, copy, [ReturnsComputation, ...aside], batchDate, { timings, split: ["returns"], offload: inProcessOffload })
      // still in the build's transaction: nothing was committed for a second connection to read
      expect(db.inTransaction).toBe(true)
      db.exec("COMMIT")
      expect(Object.keys(timings).sort()).toEqual(["returns", ...aside.map((c) => c.name)].sort())
      const after = Object.fromEntries(TABLES.map((t) => [t.name, tableDigest(db, t)]))
      expect(after).toEqual(before)
    } finally {
      db.close()
    }
  })
})
