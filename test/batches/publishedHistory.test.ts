/**
 * The ledger's published batches (snapshots/PublishedHistory.ts) on a worked example written here:
 * builds, publishes and a rollback, each recorded at a chosen instant; and the cached read of a
 * real ledger file, read again only once the ledger changed.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { SqliteLedger } from "../../pipeline/ledger/Ledger.ts"
import { PublishedLedger, publishedBatches } from "../../snapshots/PublishedHistory.ts"

const A = "2026-11-18-aaaaaaaaaaaaaaaa.sqlite"
const B = "2026-11-19-bbbbbbbbbbbbbbbb.sqlite"
const C = "2026-11-20-cccccccccccccccc.sqlite"
const N = "2026-11-20-dddddddddddddddd.sqlite"

const built = (file: string, at: string, inputs: number) => ({
  type: "BatchBuilt" as const,
  recorded_at: at,
  payload: JSON.stringify({ batch_date: file.slice(0, 10), file, content_hash: `${file.slice(11, 27)}${"0".repeat(48)}`, pipeline_version: "0.9", inputs: Array.from({ length: inputs }, (_, i) => `sha${i}`) }),
})
const moved = (type: "BatchPublished" | "BatchRolledBack", file: string, at: string) => ({
  type,
  recorded_at: at,
  payload: JSON.stringify({ batch_date: file.slice(0, 10), file, content_hash: `${file.slice(11, 27)}${"0".repeat(48)}` }),
})

/** A published (t1), B published (t2), rolled back to A (t3), N built but never published, C published (t4). */
const EVENTS = [
  built(A, "t0", 3),
  moved("BatchPublished", A, "t1"),
  built(B, "t1b", 4),
  moved("BatchPublished", B, "t2"),
  moved("BatchRolledBack", A, "t3"),
  built(N, "t3b", 5),
  built(C, "t3c", 6),
  moved("BatchPublished", C, "t4"),
]

describe("the published batches of the ledger", () => {
  it("lists each published file once, newest first, with its build, first publication and last replacement", () => {
    const batches = publishedBatches(EVENTS)
    expect(batches.map((b) => [b.id, b.builtAt, b.publishedAt, b.supersededAt, b.inputCount])).toEqual([
      [C.slice(0, -7), "t3c", "t4", null, 6],
      // replaced by the rollback to A
      [B.slice(0, -7), "t1b", "t2", "t3", 4],
      // current again after the rollback, until C
      [A.slice(0, -7), "t0", "t1", "t4", 3],
    ])
    expect(batches[0]).toMatchObject({ batchDate: "2026-11-20", contentHash: `cccccccccccccccc${"0".repeat(48)}`, pipelineVersion: "0.9" })
    // A was current twice: its first span ended when B came, not when C did
    expect(batches.map((b) => [b.id.slice(0, 10), b.currentIntervals])).toEqual([
      ["2026-11-20", [{ from: "t4", to: null }]],
      ["2026-11-19", [{ from: "t2", to: "t3" }]],
      ["2026-11-18", [{ from: "t1", to: "t2" }, { from: "t3", to: "t4" }]],
    ])
  })

  it("a roll forward after a rollback: the rolled-back batch's spans end at the rollback; a move to the current one opens nothing", () => {
    const batches = publishedBatches([...EVENTS, moved("BatchRolledBack", A, "t5"), moved("BatchRolledBack", C, "t6"), moved("BatchPublished", C, "t7")])
    expect(batches.map((b) => [b.id.slice(0, 10), b.supersededAt, b.currentIntervals])).toEqual([
      ["2026-11-20", null, [{ from: "t4", to: "t5" }, { from: "t6", to: null }]],
      ["2026-11-19", "t3", [{ from: "t2", to: "t3" }]],
      ["2026-11-18", "t6", [{ from: "t1", to: "t2" }, { from: "t3", to: "t4" }, { from: "t5", to: "t6" }]],
    ])
  })

  it("a rollback to the last batch leaves it current (superseded_at null) and the one it replaced superseded", () => {
    const batches = publishedBatches([...EVENTS, moved("BatchRolledBack", B, "t5")])
    expect(batches.map((b) => [b.id.slice(0, 10), b.supersededAt])).toEqual([
      ["2026-11-20", "t5"],
      ["2026-11-19", null],
      ["2026-11-18", "t4"],
    ])
  })

  const work = mkdtempSync(join(tmpdir(), "fds-ledger-"))
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it("a ledger that cannot be read is an error, never an empty list; one gone after it listed batches too", () => {
    const path = join(work, "broken.sqlite")
    writeFileSync(path, Buffer.alloc(4096, 0x5a))
    const view = new PublishedLedger(path)
    expect(view.view().error).toMatch(/could not be read/)
    rmSync(path)
    expect(view.view()).toMatchObject({ batches: [], error: null }) // never seen with batches: none yet
    const ledger = new SqliteLedger(path)
    ledger.append({ type: "BatchPublished", payload: { batch_date: "2026-11-18", file: A, content_hash: "a".repeat(64) } })
    ledger.close()
    expect(view.view().batches).toHaveLength(1)
    rmSync(path)
    expect(view.view().error).toMatch(/gone/)
  })

  it("reads a ledger file once, and again after it changed; no ledger: none, without an error", () => {
    const path = join(work, "ledger.sqlite")
    const view = new PublishedLedger(path)
    expect(view.view()).toMatchObject({ batches: [], error: null })
    const ledger = new SqliteLedger(path)
    try {
      ledger.append({ type: "BatchBuilt", payload: { batch_date: "2026-11-18", file: A, content_hash: "a".repeat(64), pipeline_version: "0.9", inputs: ["x"] } })
      ledger.append({ type: "BatchPublished", payload: { batch_date: "2026-11-18", file: A, content_hash: "a".repeat(64) } })
      const first = view.view()
      expect(first.batches.map((b) => b.file)).toEqual([A])
      expect(view.view()).toBe(first) // unchanged: the same read
      ledger.append({ type: "BatchPublished", payload: { batch_date: "2026-11-19", file: B, content_hash: "b".repeat(64) } })
      const second = view.view()
      expect(second).not.toBe(first)
      expect(second.batches.map((b) => [b.file, b.builtAt === null, b.supersededAt === null])).toEqual([
        [B, true, true],
        [A, false, false],
      ])
      expect(second.byFile.get(A)?.supersededAt).toBe(second.byFile.get(B)?.publishedAt)
    } finally {
      ledger.close()
    }
  })
})
