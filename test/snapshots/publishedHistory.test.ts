/**
 * The API's read-only view of the pipeline's ledger (what it falls back to when CURRENT gives it
 * nothing to serve): the files CURRENT was made to name, newest first, each once at its latest
 * event, a rollback counting as the newest; the ledger is written here by the pipeline's own Ledger.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { SqliteLedger as Ledger } from "../../pipeline/ledger/Ledger.ts"
import { publishedNewestFirst } from "../../snapshots/PublishedHistory.ts"

const work = mkdtempSync(join(tmpdir(), "fds-published-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const published = (batch_date: string, file: string) =>
  ({ type: "BatchPublished", payload: { batch_date, file, content_hash: `${file}-hash` } }) as const

describe("publishedNewestFirst", () => {
  it("lists published files newest first; a rollback makes its file the newest; each file once", () => {
    const path = join(work, "ledger.sqlite")
    const ledger = new Ledger(path)
    try {
      ledger.append(published("2026-11-18", "a.sqlite"))
      ledger.append({ type: "BatchRejected", payload: { batch_date: "2026-11-19", reason: "bad", inputs: [] } })
      ledger.append(published("2026-11-19", "b.sqlite"))
      ledger.append(published("2026-11-20", "c.sqlite"))
      ledger.append({
        type: "BatchRolledBack",
        payload: { batch_date: "2026-11-18", file: "a.sqlite", content_hash: "a.sqlite-hash", from_file: "c.sqlite", reason: null },
      })
      // read while the pipeline's connection is still open (WAL), as the API would
      expect(publishedNewestFirst(path)).toEqual([
        { file: "a.sqlite", batchDate: "2026-11-18", contentHash: "a.sqlite-hash", event: "BatchRolledBack" },
        { file: "c.sqlite", batchDate: "2026-11-20", contentHash: "c.sqlite-hash", event: "BatchPublished" },
        { file: "b.sqlite", batchDate: "2026-11-19", contentHash: "b.sqlite-hash", event: "BatchPublished" },
      ])
    } finally {
      ledger.close()
    }
    expect(publishedNewestFirst(path).map((p) => p.file)).toEqual(["a.sqlite", "c.sqlite", "b.sqlite"])
  })

  it("throws for a folder without a ledger (the caller says so)", () => {
    expect(() => publishedNewestFirst(join(work, "none.sqlite"))).toThrow()
  })
})
