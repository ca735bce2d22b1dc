/**
 * "Who holds this" (GET /api/holders, api/holders/Holders.ts) over HTTP on the small sample: the
 * holders the route gives are those a plain scan of every stored position finds (every FM row of
 * the month, every FI row of the latest quarter on or before it, its reported fields parsed in the
 * test), ordered by weight; by instrument, ISIN and issuer RUT (with dots and check digit or
 * without); each look-up an index search; the parameter errors.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { lookupSql } from "../../api/holders/Holders.ts"
import { readCurrent } from "../../snapshots/Pointer.ts"
import { DDL } from "../../snapshots/Tables.ts"
import { SnapshotWriter } from "../../snapshots/Writer.ts"
import { createKey, get, type RunningServer, startServer } from "../support/server.ts"
import { publishSmallSample } from "../support/smallSample.ts"

interface Position {
  readonly vehicle: "mutual_fund" | "investment_fund"
  readonly run: number
  readonly month: string
  readonly market: string
  readonly position: number
  readonly code: string | null
  readonly isin: string | null
  readonly issuerRut: number | null
  readonly pct: number | null
  readonly value: number
}

/** Every stored position, read whole (no index, no SQL JSON): the test's own view of the portfolios. */
const everyPosition = (db: Database.Database): Position[] => {
  const fm = db.prepare("SELECT * FROM fm_holdings").all() as Array<Record<string, unknown>>
  const fi = db.prepare("SELECT * FROM fi_holdings").all() as Array<Record<string, unknown>>
  return [
    ...fm.map((r) => ({
      vehicle: "mutual_fund" as const,
      run: r.run as number,
      month: r.month as string,
      market: r.market as string,
      position: r.position as number,
      code: r.instrument_code as string,
      isin: null,
      issuerRut: r.issuer_rut as number | null,
      pct: r.pct_fund_assets as number,
      value: r.valuation_thousands as number,
    })),
    ...fi.map((r) => {
      const body = JSON.parse(r.body as string) as { nemotecnico: string | null; isin: string | null; issuerRut: number | null }
      return {
        vehicle: "investment_fund" as const,
        run: r.run as number,
        month: r.period as string,
        market: r.market as string,
        position: r.position as number,
        code: body.nemotecnico,
        isin: body.isin,
        issuerRut: body.issuerRut,
        pct: r.pct_fund_assets as number | null,
        value: r.valuation_thousands as number,
      }
    }),
  ]
}

const idOf = (p: Position) => `${p.vehicle === "mutual_fund" ? "fm" : "fi"}_${p.run}_${p.month}_${p.market}_${p.position}`

/** The RUT check digit, worked out here (modulo 11). */
const dv = (body: number): string => {
  const digits = String(body).split("").reverse().map(Number)
  const sum = digits.reduce((acc, d, i) => acc + d * [2, 3, 4, 5, 6, 7][i % 6]!, 0)
  const r = 11 - (sum % 11)
  return r === 11 ? "0" : r === 10 ? "K" : String(r)
}

describe("GET /api/holders", () => {
  const work = mkdtempSync(join(tmpdir(), "fds-holders-"))
  const dataDir = join(work, "data")
  let server: RunningServer
  let key: string
  let positions: Position[]
  let db: Database.Database
  let latestFm: string
  let fiPeriods: string[]

  const holders = async (query: string) => get(`${server.url}/api/holders?${query}`, { "x-api-key": key })

  /** The holders a scan finds for `month`, as the route orders them (weight, then value, then id). */
  const expected = (month: string, match: (p: Position) => boolean) => {
    const fiPeriod = fiPeriods.filter((p) => p <= month).at(-1)
    return positions
      .filter((p) => (p.vehicle === "mutual_fund" ? p.month === month : p.month === fiPeriod) && match(p))
      .sort((a, b) => (b.pct ?? -1) - (a.pct ?? -1) || b.value - a.value || a.vehicle.localeCompare(b.vehicle) || a.run - b.run || a.market.localeCompare(b.market) || a.position - b.position)
      .map(idOf)
  }

  beforeAll(async () => {
    await publishSmallSample(dataDir)
    key = (await createKey(dataDir, { email: "holders@example.cl" })).key
    server = await startServer({ dataDir })
    db = new Database(join(dataDir, "snapshots", readCurrent(join(dataDir, "snapshots"))!), { readonly: true })
    positions = everyPosition(db)
    latestFm = positions
      .filter((p) => p.vehicle === "mutual_fund")
      .map((p) => p.month)
      .sort()
      .at(-1)!
    fiPeriods = [...new Set(positions.filter((p) => p.vehicle === "investment_fund").map((p) => p.month))].sort()
  }, 240_000)
  afterAll(async () => {
    db?.close()
    await server?.close()
    rmSync(work, { recursive: true, force: true })
  })

  it("finds every portfolio holding an instrument in the latest month, largest weight first", async () => {
    // the code held by the most funds that month
    const counts = new Map<string, number>()
    for (const p of positions) if (p.vehicle === "mutual_fund" && p.month === latestFm && p.code !== null) counts.set(p.code, (counts.get(p.code) ?? 0) + 1)
    const [code, held] = [...counts].sort((a, b) => b[1] - a[1])[0]!
    expect(held).toBeGreaterThan(1)
    const res = await holders(`instrument=${encodeURIComponent(` ${code.toLowerCase()} `)}`)
    expect(res.status).toBe(200)
    const body = res.body as { data: Array<{ id: string; attributes: Record<string, unknown> }>; meta: Record<string, unknown> }
    expect(body.data.map((d) => d.id)).toEqual(expected(latestFm, (p) => p.code === code))
    expect(body.meta).toMatchObject({ by: "instrument", value: code, month: latestFm, total: body.data.length })
    const first = body.data[0]!.attributes
    expect(first.weight).toBeCloseTo((first.pct_activo_fondo as number) / 100, 12)
    expect(typeof first.fund_name).toBe("string")
  })

  it("by issuer RUT, with dots and check digit or without, across FM and FI portfolios of an earlier month", async () => {
    // an issuer held by an FI portfolio: the month is its quarter, so both kinds are looked at
    const fiHeld = positions.find((p) => p.vehicle === "investment_fund" && p.issuerRut !== null)
    expect(fiHeld).toBeDefined()
    const rut = fiHeld!.issuerRut!
    const month = fiHeld!.month
    const ids = expected(month, (p) => p.issuerRut === rut)
    expect(ids.length).toBeGreaterThan(0)
    const dotted = String(rut).replace(/\B(?=(\d{3})+(?!\d))/g, ".")
    for (const given of [String(rut), `${rut}-${dv(rut)}`, `${dotted}-${dv(rut).toLowerCase()}`]) {
      const res = await holders(`issuer_rut=${encodeURIComponent(given)}&month=${month}`)
      expect(res.status, given).toBe(200)
      const body = res.body as { data: Array<{ id: string }>; meta: Record<string, unknown> }
      expect(body.data.map((d) => d.id), given).toEqual(ids)
      expect(body.meta).toMatchObject({ by: "issuer_rut", value: String(rut), month, fi_period: month })
    }
    const wrong = dv(rut) === "0" ? "1" : "0"
    const refused = await holders(`issuer_rut=${rut}-${wrong}`)
    expect(refused.status).toBe(422)
    expect(refused.body).toMatchObject({ error: "invalid_parameter", parameter: "issuer_rut" })
  })

  it("by ISIN, from the FI foreign positions", async () => {
    const withIsin = positions.find((p) => p.vehicle === "investment_fund" && p.isin !== null)
    expect(withIsin).toBeDefined()
    const res = await holders(`isin=${withIsin!.isin}&month=${withIsin!.month}`)
    expect(res.status).toBe(200)
    const ids = (res.body as { data: Array<{ id: string }> }).data.map((d) => d.id)
    expect(ids).toEqual(expected(withIsin!.month, (p) => p.isin === withIsin!.isin || (p.vehicle === "mutual_fund" && p.code === withIsin!.isin)))
    expect(ids).toContain(idOf(withIsin!))
  })

  it("answers an empty list for what nobody holds, and refuses none or two of the three", async () => {
    const none = await holders("instrument=NOBODYHOLDSTHIS")
    expect(none.status).toBe(200)
    expect(none.body).toMatchObject({ data: [], meta: { total: 0 } })
    for (const query of ["", "month=2026-10", "instrument=A&isin=US0378331005", "instrument=A&issuer_rut=1-9"]) {
      const res = await holders(query)
      expect(res.status, query).toBe(422)
      expect(res.body, query).toMatchObject({ error: "invalid_parameter" })
    }
    const badMonth = await holders("instrument=A&month=2026-13")
    expect(badMonth.status).toBe(422)
    expect(badMonth.body).toMatchObject({ parameter: "month" })
  })

  it("searches an index for each look-up, never scans the positions", () => {
    for (const vehicle of ["mutual_fund", "investment_fund"] as const) {
      for (const by of ["instrument", "isin", "issuer_rut"] as const) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${lookupSql(vehicle, by)}`).all("X", "2026-10") as Array<{ detail: string }>).map((r) => r.detail)
        expect(plan.join(" | "), `${vehicle} ${by}`).toMatch(/SEARCH h USING INDEX (fm|fi)_holdings_/)
        expect(plan.some((d) => /^SCAN h\b/.test(d)), `${vehicle} ${by}`).toBe(false)
      }
    }
  })
})

describe("the holders' indexes on a daily increment", () => {
  it("an increment's copy of a snapshot written before them gets them, its rows untouched", () => {
    const dir = mkdtempSync(join(tmpdir(), "fds-holder-indexes-"))
    try {
      const base = join(dir, "older.sqlite")
      const older = new Database(base)
      older.exec(DDL)
      older.prepare("INSERT INTO fm_holdings VALUES (8043, '2026-10', 'N', 1, 'BCP0800327', 97029000, 'BANCO', 'CL', 'BB', NULL, 1500.5, 12.5)").run()
      const names = () =>
        (older.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'f%_holdings_%' ORDER BY name").pluck().all() as string[])
      const expected = names()
      expect(expected).toEqual(["fi_holdings_isin", "fi_holdings_issuer", "fi_holdings_nemotecnico", "fm_holdings_instrument", "fm_holdings_issuer"])
      // a snapshot of before the indexes
      for (const name of expected) older.exec(`DROP INDEX ${name}`)
      expect(names()).toEqual([])
      older.close()
      const writer = new SnapshotWriter(join(dir, "out"), base)
      try {
        const db = (writer as unknown as { readonly db: Database.Database }).db
        expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'f%_holdings_%' ORDER BY name").pluck().all()).toEqual(expected)
        expect(db.prepare("SELECT run, instrument_code, valuation_thousands FROM fm_holdings").all()).toEqual([
          { run: 8043, instrument_code: "BCP0800327", valuation_thousands: 1500.5 },
        ])
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${lookupSql("mutual_fund", "instrument")}`).all("X", "2026-10") as Array<{ detail: string }>).map((r) => r.detail)
        expect(plan.join(" | ")).toMatch(/SEARCH h USING INDEX fm_holdings_instrument/)
      } finally {
        writer.abort()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
