/** `pipeline reproduce` and snapshot retention. */
import { Effect } from "effect"
import { existsSync, mkdtempSync, rmSync, unlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SqliteLedger } from "../../pipeline/ledger/Ledger.ts"
import { runPipelineLive } from "../../pipeline/Pipeline.ts"
import { reproduceLive } from "../../pipeline/Reproduce.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { PIPELINE_VERSION } from "../../pipeline/Version.ts"
import { filesToRemove } from "../../snapshots/Retention.ts"

let work: string
let dataDir: string
const published: Record<string, string> = {}

const runFor = async (date: string) => {
  const outcome = await Effect.runPromise(
    runPipelineLive({
      dataDir,
      sources: [{ kind: "folder", path: join(work, "sample") }],
      date,
      today: "2026-11-22",
      historyStart: "2019-01-01",
      fetch: { timeoutMillis: 1000, retries: 0, retryBaseMillis: 1 },
      retentionDays: 1,
    }),
  )
  if (outcome.outcome !== "published") throw new Error("expected a new snapshot")
  published[date] = outcome.file
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-repro-"))
  dataDir = join(work, "data")
  await writeSample({ out: join(work, "sample"), scale: "small", seed: 11, endDate: "2026-11-20" })
  // Kept by retention (last 1 day + each month's last batch): 09-30, 10-15, 11-20; removed: 10-14.
  for (const d of ["2026-09-30", "2026-10-14", "2026-10-15", "2026-11-20"]) await runFor(d)
}, 120_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

const run = (date: string, restore = false) => Effect.runPromise(reproduceLive(dataDir, date, { restore }))

describe("pipeline reproduce", () => {
  it("rebuilds a day more than 30 days back with the same content hash", async () => {
    const r = await run("2026-09-30")
    expect(r.outcome).toBe("match")
    expect(published["2026-09-30"]).toContain(r.actualHash.slice(0, 16))
  })

  it("retention removed the mid-month day; reproduce --restore puts the identical file back", async () => {
    const snapshots = join(dataDir, "snapshots")
    const file = published["2026-10-14"]!
    expect(existsSync(join(snapshots, file))).toBe(false) // retention: last 1 day + month ends
    expect(existsSync(join(snapshots, file.replace(".sqlite", ".manifest.json")))).toBe(true) // manifests stay
    expect(existsSync(join(snapshots, published["2026-10-15"]!))).toBe(true)
    const r = await run("2026-10-14", true)
    expect(r.outcome).toBe("match")
    expect(r.restored).toBe(true)
    expect(existsSync(join(snapshots, file))).toBe(true)
  })

  it("says 'hash differs' when the recorded hash is not what the inputs give", async () => {
    const ledger = new SqliteLedger(join(dataDir, "ledger.sqlite"))
    ledger.append({
      type: "BatchBuilt",
      payload: { batch_date: "2026-11-20", file: "x", content_hash: "0".repeat(64), pipeline_version: PIPELINE_VERSION, inputs: ledger.currentInputs().map((i) => i.sha256) },
    })
    ledger.close()
    expect((await run("2026-11-20")).outcome).toBe("hash_differs")
  })

  it("says 'version differs' when the day was built by another pipeline version", async () => {
    const ledger = new SqliteLedger(join(dataDir, "ledger.sqlite"))
    ledger.append({
      type: "BatchBuilt",
      payload: { batch_date: "2026-11-20", file: "x", content_hash: "1".repeat(64), pipeline_version: "0.0.1-old", inputs: ledger.currentInputs().map((i) => i.sha256) },
    })
    ledger.close()
    const r = await run("2026-11-20")
    expect(r.outcome).toBe("version_differs")
    expect(r.builtWith).toBe("0.0.1-old")
  })

  it("does not need the parse cache or the published file", async () => {
    rmSync(join(dataDir, "cache"), { recursive: true, force: true })
    unlinkSync(join(dataDir, "snapshots", published["2026-09-30"]!))
    expect((await run("2026-09-30")).outcome).toBe("match")
  })

  it("fails clearly for a day never built", async () => {
    const error = await Effect.runPromise(Effect.flip(reproduceLive(dataDir, "2020-01-01", { restore: false })))
    expect(error.reason).toMatch(/no batch was built for 2020-01-01/)
  })
})

describe("retention", () => {
  const names = (dates: string[]) => dates.map((d, i) => `${d}-${String(i).padStart(16, "a")}.sqlite`)
  it("keeps CURRENT, the last N dates and each month's last date; nothing else", () => {
    const files = names(["2026-09-29", "2026-09-30", "2026-10-14", "2026-10-15", "2026-11-18", "2026-11-19", "2026-11-20"])
    const removed = filesToRemove([...files, "CURRENT", "x.manifest.json"], files[0]!, 2)
    // kept: 09-29 (CURRENT), 09-30 and 10-15 (month ends), 11-19 and 11-20 (last two); removed: 10-14, 11-18
    expect(removed).toEqual([files[2], files[4]])
  })
  it("never lists manifests or other files", () => {
    expect(filesToRemove(["a.manifest.json", "CURRENT", "ledger.sqlite"], null, 0)).toEqual([])
  })
})
