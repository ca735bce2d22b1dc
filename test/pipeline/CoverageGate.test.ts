/**
 * The coverage gate: a delivery whose latest day lacks an administrator's series is a short
 * delivery, refused naming the administrator; the served batch keeps serving. Worked example first,
 * then a real run over two deliveries.
 */
import { Effect } from "effect"
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { coverageGate } from "../../pipeline/Plan.ts"
import { runPipelineLive } from "../../pipeline/Pipeline.ts"
import type { RunOptions } from "../../pipeline/RunOptions.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { readCurrent } from "../../snapshots/Pointer.ts"

describe("coverageGate (worked example)", () => {
  const active = [
    ...Array.from({ length: 8 }, (_, i) => ({ assetId: i, administrator: "ALFA AGF" })),
    { assetId: 8, administrator: "BETA AGF" },
    { assetId: 9, administrator: "GAMMA AGF" },
  ]
  it("passes at 9 of 10 series (90 %), refuses at 8 of 10 naming the administrators missing, most first", () => {
    const base = { batchDate: "2026-11-20", servedDate: "2026-11-19", active, minShare: 0.9 }
    expect(coverageGate({ ...base, covered: new Set([0, 1, 2, 3, 4, 5, 6, 7, 8]) })).toBeNull()
    expect(coverageGate({ ...base, covered: new Set([0, 1, 2, 3, 4, 5, 6, 7]) })).toBe(
      "short delivery: the daily values of 2026-11-20 cover 8 of the 10 series active on 2026-11-19 (80.0 %, below 90.0 %); " +
        "missing: BETA AGF (1), GAMMA AGF (1). Nothing was published; a fuller delivery publishes (FDS_COVERAGE_MIN sets the share)",
    )
    expect(coverageGate({ ...base, covered: new Set([8, 9]) })).toMatch(/cover 2 of the 10 .* missing: ALFA AGF \(8\)\./)
    // 0 turns it off; no active series (a first batch) passes.
    expect(coverageGate({ ...base, minShare: 0, covered: new Set() })).toBeNull()
    expect(coverageGate({ ...base, active: [], covered: new Set() })).toBeNull()
  })
})

let work = ""
let sample = ""
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-coverage-"))
  sample = join(work, "sample")
  await writeSample({ out: sample, scale: "small", seed: 11, endDate: "2026-11-20" })
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

const options = (dataDir: string, source: string, extra: Partial<RunOptions> = {}): RunOptions => ({
  dataDir,
  sources: [{ kind: "folder", path: source }],
  today: "2026-11-22",
  historyStart: "2026-01-01",
  fetch: { timeoutMillis: 1000, retries: 0, retryBaseMillis: 10 },
  ...extra,
})
const run = (o: RunOptions) => Effect.runPromise(Effect.result(runPipelineLive(o)))

/** The registry and November's cartola, its rows kept where `keep(date, run)`. */
const delivery = (name: string, keep: (date: string, run: number) => boolean): string => {
  const dir = join(work, name)
  mkdirSync(dir)
  for (const f of readdirSync(sample)) {
    if (f.startsWith("fm_ident2")) copyFileSync(join(sample, f), join(dir, f))
    if (f.startsWith("ffmm_todos_202611")) {
      const [header, ...rows] = readFileSync(join(sample, f), "latin1").split(/\r?\n/).filter((l) => l !== "")
      const kept = rows.filter((r) => {
        const c = r.split(";")
        return keep(c[3]!, Number(c[2]))
      })
      writeFileSync(join(dir, f), `${[header, ...kept].join("\n")}\n`, "latin1")
    }
  }
  return dir
}

describe("the coverage gate in a run", () => {
  it("refuses a day that lacks an administrator's series, naming it; FDS_COVERAGE_MIN=0 lets it through", async () => {
    const rows = readFileSync(join(sample, readdirSync(sample).find((f) => f.startsWith("ffmm_todos_202611"))!), "latin1").split(/\r?\n/).slice(1)
    // The administrator with the most series on 2026-11-20: its rows of that day are left out.
    const perAdmin = new Map<string, Set<string>>()
    for (const r of rows) {
      const c = r.split(";")
      if (c[3] !== "20261120") continue
      perAdmin.set(c[1]!, (perAdmin.get(c[1]!) ?? new Set()).add(`${c[2]}|${c[8]}`))
    }
    const [admin, series] = [...perAdmin].sort((a, b) => b[1].size - a[1].size)[0]!
    const total = [...perAdmin.values()].reduce((n, s) => n + s.size, 0)
    expect(series.size / total).toBeGreaterThan(0.1) // else the example would not cross the 90 % line
    const runsOf = new Set(rows.filter((r) => r.split(";")[1] === admin).map((r) => Number(r.split(";")[2])))

    const dataDir = join(work, "data")
    const first = await run(options(dataDir, delivery("d1", (date) => date <= "20261119")))
    expect(first._tag).toBe("Success")
    const served = readCurrent(join(dataDir, "snapshots"))
    const short = await run(options(dataDir, delivery("d2", (date, run) => date <= "20261119" || !runsOf.has(run))))
    expect(short._tag).toBe("Failure")
    if (short._tag === "Failure") {
      expect(short.failure.reason).toMatch(/^short delivery: the daily values of 2026-11-20 cover \d+ of the \d+ series active on 2026-11-19 \(\d+\.\d %, below 90\.0 %\); missing: /)
      const named = short.failure.reason.replace(/^.*missing: /, "").replace(/\. Nothing.*$/, "")
      const squash = (t: string) => t.trim().replace(/\s+/g, " ")
      expect(named.split(/, (?=[^,]+ \(\d+\))/).map((n) => squash(n.replace(/ \(\d+\)$/, "")))).toEqual([squash(admin)])
    }
    expect(readCurrent(join(dataDir, "snapshots"))).toBe(served)
    const allowed = await run(options(dataDir, delivery("d3", (date, run) => date <= "20261119" || !runsOf.has(run)), { coverageMin: 0 }))
    expect(allowed._tag).toBe("Success")
  }, 120_000)
})
