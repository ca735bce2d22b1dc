/**
 * /health from the pipeline's report: the staleness rule on worked examples (instants worked out
 * by hand from Chile's offsets: UTC−3 in summer, UTC−4 in winter, clocks changed at local
 * midnight), the state table, and the real API reading STATUS.json next to its snapshot.
 */
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { healthState, type PipelineStatus, santiagoStartOf, staleAt, writeStatus } from "../../snapshots/Status.ts"
import { get, type RunningServer, startServer } from "../support/server.ts"
import { makeDataDir, makeFixtureA } from "../support/snapshotFixture.ts"
import { logChildOutput } from "../support/testLog.ts"
import { root } from "./support/ops.ts"

const status = (outcome: PipelineStatus["outcome"]): PipelineStatus => ({
  outcome,
  batch_date: "2026-02-06",
  file: null,
  reason: outcome === "rejected" ? "bad file" : null,
  started_at: "2026-02-07T10:30:00.000Z",
  finished_at: "2026-02-07T10:31:00.000Z",
  pipeline_version: "test",
})

describe("staleness", () => {
  it("finds the first instant of a local date, across Chile's clock changes", () => {
    expect(santiagoStartOf("2026-11-21")).toBe(Date.UTC(2026, 10, 21, 3)) // summer: 00:00 −03
    expect(santiagoStartOf("2026-07-01")).toBe(Date.UTC(2026, 6, 1, 4)) // winter: 00:00 −04
    expect(santiagoStartOf("2026-04-04")).toBe(Date.UTC(2026, 3, 4, 3)) // the day before summer time ends
    expect(santiagoStartOf("2026-04-05")).toBe(Date.UTC(2026, 3, 5, 4)) // 24:00 −03 became 23:00 −04: starts at 00:00 −04
    expect(santiagoStartOf("2026-09-06")).toBe(Date.UTC(2026, 8, 6, 4)) // 00:00 −04 does not exist: starts at 01:00 −03
  })

  it("counts the hours from the end of the batch date, skipping the weekend before the next weekday", () => {
    // Thursday 2026-11-19 ends Friday 00:00 −03 (03:00Z); + 36 h = Saturday 12:00 local.
    expect(staleAt("2026-11-19", 36)).toBe(Date.UTC(2026, 10, 21, 15))
    // Friday 2026-11-20: Saturday and Sunday do not count: Tuesday 12:00 local.
    expect(staleAt("2026-11-20", 36)).toBe(Date.UTC(2026, 10, 24, 15))
    // Wednesday 2026-07-01 in winter ends Thursday 04:00Z; + 24 h.
    expect(staleAt("2026-07-01", 24)).toBe(Date.UTC(2026, 6, 3, 4))
  })
})

describe("the health state", () => {
  const base = {
    served: { batchDate: "2026-11-19", file: "2026-11-19-0000000000000000.sqlite" },
    current: { file: "2026-11-19-0000000000000000.sqlite", sinceMillis: Date.UTC(2026, 10, 20, 10) },
    status: status("published"),
    nowMillis: Date.UTC(2026, 10, 21, 14, 59),
    staleAfterHours: 36,
    graceMillis: 10_000,
  }

  it("is unavailable with nothing served, ok for a fresh batch after a good run", () => {
    expect(healthState({ ...base, served: null })).toBe("unavailable")
    expect(healthState(base)).toBe("ok")
    expect(healthState({ ...base, status: status("unchanged") })).toBe("ok")
    expect(healthState({ ...base, status: status("rolled_back") })).toBe("ok")
  })

  it("is degraded after a failed or rejected run, even with fresh data", () => {
    expect(healthState({ ...base, status: status("failed") })).toBe("degraded")
    expect(healthState({ ...base, status: status("rejected") })).toBe("degraded")
  })

  it("is degraded once the batch is stale, where a pipeline reports", () => {
    const late = { ...base, nowMillis: Date.UTC(2026, 10, 21, 15, 1) }
    expect(healthState(late)).toBe("degraded")
    expect(healthState({ ...late, status: null })).toBe("ok") // no STATUS.json: no schedule to be late against
  })

  it("is degraded while the API finds something wrong with CURRENT or the served file, ok with none", () => {
    expect(healthState({ ...base, faults: ["CURRENT is missing"] })).toBe("degraded")
    expect(healthState({ ...base, faults: [] })).toBe("ok")
    expect(healthState({ ...base, served: null, faults: ["CURRENT is missing"] })).toBe("unavailable")
  })

  it("is degraded while the served batch says it lacks its FI/ETF part", () => {
    expect(healthState({ ...base, served: { ...base.served, fiUnavailable: true } })).toBe("degraded")
    expect(healthState({ ...base, served: { ...base.served, fiUnavailable: false } })).toBe("ok")
  })

  it("is degraded when CURRENT names a file the API has not taken for longer than the grace", () => {
    const other = { file: "2026-11-20-1111111111111111.sqlite", sinceMillis: base.nowMillis - 5_000 }
    expect(healthState({ ...base, current: other })).toBe("ok") // a swap takes a moment
    expect(healthState({ ...base, current: { ...other, sinceMillis: base.nowMillis - 11_000 } })).toBe("degraded")
  })
})

describe("GET /health with a pipeline status", () => {
  const fx = makeFixtureA() // batch 2026-02-06: stale after 36 h by any clock this test runs on
  let server: RunningServer
  const healthAt = async (url: string) =>
    (await get(url + "/health")).body as { status: string; last_scraped_date: string; total_records: number; reasons: string[]; sources: unknown[] }

  beforeAll(async () => {
    delete process.env.FDS_STALE_AFTER_HOURS // the default, 36 h (read once, when the API starts)
    server = await startServer({ dataDir: fx.dataDir })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("keeps its fields; degraded after a rejected run or once stale, where a pipeline reports", async () => {
    expect(await healthAt(server.url)).toEqual({
      status: "ok",
      last_scraped_date: "2026-02-06",
      batch_id: fx.snapshot.finished.file.replace(/\.sqlite$/, ""),
      total_records: fx.snapshot.totalRecords,
      reasons: [],
      sources: [],
    })
    writeStatus(fx.snapshotsDir, { ...status("published"), file: fx.snapshot.finished.file })
    expect(await healthAt(server.url)).toEqual({
      status: "degraded",
      last_scraped_date: "2026-02-06",
      batch_id: fx.snapshot.finished.file.replace(/\.sqlite$/, ""),
      total_records: fx.snapshot.totalRecords,
      reasons: ["the served batch 2026-02-06 is stale: older than 36 h after its day (weekends not counted)"],
      sources: [],
    })
    writeStatus(fx.snapshotsDir, { ...status("rejected"), reason: "cartola_diaria f.txt line 4 field VALOR_CUOTA: bad", file: fx.snapshot.finished.file })
    // the cause's kind, not its text (a run's reason can quote a command's stderr or a URL: /health is public)
    expect((await healthAt(server.url)).reasons[0]).toMatch(/^the last pipeline run \(.+\) was rejected: see STATUS\.json or \.\/fds pipeline status$/)
    writeFileSync(join(fx.snapshotsDir, "STATUS.json"), "{ not json")
    expect((await healthAt(server.url)).status).toBe("ok") // an unreadable report is no report
  })

  it("while nothing is served, a first run that failed is said too (503, the run's kind, not its reason)", async () => {
    const empty = makeDataDir()
    const alone = await startServer({ dataDir: empty.dataDir })
    try {
      writeStatus(empty.snapshotsDir, { ...status("failed"), reason: "connect ECONNREFUSED https://www.cmfchile.cl/secret-path", file: null })
      const res = await get(`${alone.url}/health`)
      expect(res.status).toBe(503)
      const body = res.body as { status: string; batch_id: string | null; reasons: string[] }
      expect(body.status).toBe("unavailable")
      expect(body.batch_id).toBeNull()
      expect(body.reasons).toContain("the last pipeline run (2026-02-07T10:31:00.000Z) was failed: see STATUS.json or ./fds pipeline status")
      expect(body.reasons).toContain("nothing is published yet")
      expect(JSON.stringify(body)).not.toContain("secret-path")
    } finally {
      await alone.close()
      empty.cleanup()
    }
  })

  it("FDS_STALE_AFTER_HOURS moves the limit (./fds serve as a child process)", async () => {
    writeStatus(fx.snapshotsDir, { ...status("published"), file: fx.snapshot.finished.file })
    const child = spawn(process.execPath, [join(root, "api", "main.ts"), "serve"], {
      cwd: root,
      env: { ...process.env, FDS_DATA_DIR: fx.dataDir, PORT: "0", FDS_STALE_AFTER_HOURS: String(24 * 365 * 100) },
      stdio: ["ignore", "pipe", "pipe"],
    })
    logChildOutput(child, `serve (pid ${child.pid})`)
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = ""
        const onData = (chunk: Buffer) => {
          out += chunk.toString()
          const m = /Listening on (http:\/\/[0-9.]+:\d+)/.exec(out)
          if (m) resolve(m[1]!)
        }
        child.stdout!.on("data", onData)
        child.stderr!.on("data", onData)
        child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)))
        setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 20_000)
      })
      expect((await healthAt(url)).status).toBe("ok")
      writeStatus(fx.snapshotsDir, { ...status("rejected"), file: fx.snapshot.finished.file })
      expect((await healthAt(url)).status).toBe("degraded")
    } finally {
      child.kill("SIGKILL")
    }
  })
})
