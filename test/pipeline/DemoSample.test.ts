/**
 * `make run`'s demo builds its sample up to the business day before today (`./fds sample --end
 * previous-business-day`), so that /health is ok on the day someone tries it. The end date for a
 * given today is worked out by hand on the calendar (weekends; the sample's fixed Chilean holidays);
 * the command line takes today in America/Santiago; and the demo's batch, built and served with
 * the clock at that today, is `ok` on /health, where a sample ending on a fixed date is `degraded`
 * a few days later.
 */

import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Clock, Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpServer } from "effect/http"
import { afterAll, describe, expect, it } from "vitest"
import { ServerLive } from "../../api/Server.ts"
import { runPipelineLive } from "../../pipeline/Pipeline.ts"
import { businessDayBefore } from "../../pipeline/sample/Calendar.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { runCli } from "../ops/support/ops.ts"
import { get } from "../support/server.ts"

const work = mkdtempSync(join(tmpdir(), "fds-demo-sample-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe("the demo's end date: the business day before today", () => {
  it.each([
    // today, its weekday, the end date, why
    ["2026-11-26", "Thursday", "2026-11-25", "the day before"],
    ["2026-11-24", "Tuesday", "2026-11-23", "Monday"],
    ["2026-11-23", "Monday", "2026-11-20", "Friday, over the weekend"],
    ["2026-11-22", "Sunday", "2026-11-20", "Friday"],
    ["2026-11-21", "Saturday", "2026-11-20", "Friday"],
    ["2026-09-21", "Monday", "2026-09-17", "Thursday: Friday 18 and Saturday 19 are Fiestas Patrias, then Sunday"],
    ["2026-12-09", "Wednesday", "2026-12-07", "Monday: Tuesday 8 is a holiday"],
    ["2026-05-22", "Friday", "2026-05-20", "Wednesday: Thursday 21 is a holiday"],
    ["2026-12-25", "Friday (a holiday itself)", "2026-12-24", "Thursday"],
    ["2027-01-04", "Monday", "2026-12-31", "Thursday of the year before: Friday 1 January is a holiday"],
  ])("today %s (%s) → %s (%s)", (today, _weekday, end) => {
    expect(businessDayBefore(today)).toBe(end)
  })
})

/** Today in America/Santiago, and the business day before it, worked out here without the sample's code. */
const santiagoToday = () =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "America/Santiago", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date())
const HOLIDAYS = ["01-01", "05-01", "05-21", "06-29", "08-15", "09-18", "09-19", "10-12", "10-31", "11-01", "12-08", "12-25"]
const dayBefore = (today: string): string => {
  let d = new Date(`${today}T12:00:00Z`)
  do d = new Date(d.getTime() - 86_400_000)
  while ([0, 6].includes(d.getUTCDay()) || HOLIDAYS.includes(d.toISOString().slice(5, 10)))
  return d.toISOString().slice(0, 10)
}

describe("./fds sample --end previous-business-day", () => {
  it("writes the sample up to the business day before today in America/Santiago", async () => {
    const out = join(work, "cli-sample")
    const before = dayBefore(santiagoToday())
    const run = await runCli(join(work, "cli-data"), ["sample", "--out", out, "--end", "previous-business-day"], {})
    const after = dayBefore(santiagoToday()) // the same unless the run crossed midnight in Santiago
    expect(run.code, run.stderr).toBe(0)
    const end = /rows up to (\d{4}-\d{2}-\d{2}) /.exec(run.stderr)?.[1]
    expect([before, after]).toContain(end)
    // the last monthly cartola ends on that day
    const compact = end!.replaceAll("-", "")
    const cartolas = readdirSync(out).filter((f) => /^ffmm_todos_\d{8}_\d{8}\.txt$/.test(f)).sort()
    expect(cartolas.at(-1)).toBe(`ffmm_todos_${compact.slice(0, 6)}01_${compact}.txt`)
  })

  it("refuses an end that is neither a date nor previous-business-day (exit 2)", async () => {
    const run = await runCli(join(work, "cli-data"), ["sample", "--out", join(work, "bad"), "--end", "yesterday"], {})
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("fds: --end must be a date YYYY-MM-DD or previous-business-day")
  })
})

/** A clock `at` (ISO instant) now and running on from there; sleeping as the real one. */
const clockAt = (at: string): Clock.Clock => {
  const real = Clock.Clock.defaultValue()
  const offset = Date.parse(at) - Date.now()
  const millis = () => Date.now() + offset
  return {
    ...real,
    currentTimeMillisUnsafe: millis,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanosUnsafe: () => BigInt(millis()) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(millis()) * 1_000_000n),
    monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: real.monotonicTimeNanos,
    sleep: (d) => real.sleep(d),
  }
}

/** /health of the real server on `dataDir`, its clock at `at`. */
const healthAt = async (dataDir: string, at: string) => {
  const scope = Effect.runSync(Scope.make())
  const layer = ServerLive({ dataDir, host: "127.0.0.1", port: 0, accessLog: () => {}, errorLog: () => {} }).pipe(
    Layer.provide(Layer.succeed(Clock.Clock)(clockAt(at))),
  )
  const built = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  try {
    const address = Context.get(built, HttpServer.HttpServer).address
    if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
    return (await get(`http://127.0.0.1:${address.port}/health`)).body as { status: string; last_scraped_date: string; reasons: string[] }
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

describe("the demo's batch on /health", () => {
  it("is ok on the day it is built for, where a batch three business days old is degraded", async () => {
    // Monday 2026-11-23: the demo's sample ends Friday 2026-11-20
    const today = "2026-11-23"
    const end = businessDayBefore(today)
    const sample = join(work, "sample")
    const dataDir = join(work, "data")
    await writeSample({ out: sample, scale: "small", seed: 42, endDate: end })
    await Effect.runPromise(
      runPipelineLive({
        dataDir,
        sources: [{ kind: "folder", path: sample }],
        today,
        historyStart: "2019-01-01",
        fetch: { timeoutMillis: 1000, retries: 0, retryBaseMillis: 1 },
      }),
    )
    // 15:00 in Santiago (UTC−3 in November). Friday's batch goes stale 36 h after Saturday 00:00
    // plus the two weekend days: Tuesday 2026-11-24 12:00.
    const monday = await healthAt(dataDir, "2026-11-23T18:00:00Z")
    expect(monday).toMatchObject({ status: "ok", last_scraped_date: "2026-11-20", reasons: [] })
    // the same batch on Thursday 2026-11-26 (a sample ending on a fixed date, tried days later)
    const thursday = await healthAt(dataDir, "2026-11-26T18:00:00Z")
    expect(thursday.status).toBe("degraded")
    expect(thursday.reasons).toEqual([expect.stringContaining("the served batch 2026-11-20 is stale")])
  }, 120_000)
})
