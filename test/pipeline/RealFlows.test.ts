/**
 * Fund flows from real cartola rows (January 2026: dollar funds; February 2026: peso funds, a
 * Sunday and a weekend with redemptions), built by the real pipeline from a dropped folder
 * (test/support/realFlows.ts). Expected values are worked out here from the file rows: units × the
 * row's VALOR_CUOTA, summed with a plain loop; ids from an independent CRC32 of the documented keys.
 */
import Database from "better-sqlite3"
import { rmSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { buildFlowBatch, type HandRow, handRows, testDollar } from "../support/realFlows.ts"
import { testCrc32 } from "../support/snapshotFixture.ts"

let work: string
let db: Database.Database
const rows = handRows()

beforeAll(async () => {
  const built = await buildFlowBatch()
  work = built.work
  db = new Database(built.file, { readonly: true })
}, 60_000)
afterAll(() => {
  db?.close()
  if (work !== undefined) rmSync(work, { recursive: true, force: true })
})

interface Flow {
  subscribed: number
  redeemed: number
  net: number
  subscribed_clp: number | null
  redeemed_clp: number | null
  net_clp: number | null
  series_count: number
  series_days: number
  unreported_days: number
  unconverted_days: number
}
const flow = (level: string, entity: string | number, period: string, date: number, currency: string): Flow | undefined =>
  db
    .prepare(
      `SELECT subscribed, redeemed, net, subscribed_clp, redeemed_clp, net_clp, series_count, series_days, unreported_days, unconverted_days
       FROM market_flows WHERE level = ? AND entity = ? AND period = ? AND date_ymd = ? AND currency = ?`,
    )
    .get(level, String(entity), period, date, currency) as Flow | undefined

/** Σ (aportadas − rescatadas) × valor cuota over the rows, and the same × the dollar of each row's date when asked. */
const handNet = (of: ReadonlyArray<HandRow>, dollar = false): number =>
  of.reduce((sum, r) => sum + (r.aportadas - r.rescatadas) * r.valorCuota * (dollar ? testDollar(r.date) : 1), 0)

describe("fund flows built from the real cartola", () => {
  it("stores each row's units subscribed and redeemed in the quotas", () => {
    const h = rows.find((r) => r.run === 8011 && r.serie === "H" && r.date === "2026-02-01")!
    const stored = db
      .prepare("SELECT units_subscribed, units_redeemed, price FROM quotas WHERE asset_id = ? AND date = 20260201")
      .get(testCrc32("fm:8011:H"))
    expect(stored).toEqual({ units_subscribed: 0, units_redeemed: 15389.6511, price: 1832.3562 })
    expect(h.rescatadas).toBe(15389.6511)
  })

  it("a peso fund on a Sunday: RUN 8011, 2026-02-01 (six series redeemed, none subscribed)", () => {
    // by hand, serie H alone: (0 − 15389.6511) × 1832.3562 = −28,199,322.6089 CLP
    expect((0 - 15389.6511) * 1832.3562).toBeCloseTo(-28_199_322.60892182, 4)
    const day = rows.filter((r) => r.run === 8011 && r.date === "2026-02-01")
    expect(day).toHaveLength(11)
    // administrator 91999000 has only RUN 8011 on that day in these files (its RUN 8824 starts on 02-10)
    const admin = flow("administrator", testCrc32("agf:91999000"), "day", 20260201, "CLP")!
    expect(admin.net).toBeCloseTo(handNet(day), 2)
    expect(admin.net).toBeLessThan(0)
    expect(admin.subscribed).toBe(0)
    expect(admin.net_clp).toBe(admin.net) // a peso amount is its own CLP value
    expect(admin).toMatchObject({ series_count: 11, series_days: 11, unreported_days: 0, unconverted_days: 0 })
  })

  it("a weekend of a peso fund: RUN 8844 on Saturday 02-07 (no flows) and Sunday 02-08 (five series redeemed)", () => {
    const admin = testCrc32("agf:96836390")
    const saturday = rows.filter((r) => r.run === 8844 && r.date === "2026-02-07")
    expect(saturday).toHaveLength(6)
    expect(handNet(saturday)).toBe(0)
    expect(flow("administrator", admin, "day", 20260207, "CLP")).toMatchObject({ net: 0, series_days: 6 })
    const sunday = rows.filter((r) => r.run === 8844 && r.date === "2026-02-08")
    expect(flow("administrator", admin, "day", 20260208, "CLP")!.net).toBeCloseTo(handNet(sunday), 2)
  })

  it("a dollar fund: RUN 9932 on Friday 2026-01-09, in dollars and in CLP at that day's dollar", () => {
    // by hand, the only series with flows that day, F1: (2559.6257 − 43048.3026) × 1.0685 = −43,262.1513 USD;
    // × 905.50 (the fixture's dollar of 2026-01-09) = −39,173,877.97 CLP
    const day = rows.filter((r) => r.run === 9932 && r.date === "2026-01-09")
    expect(handNet(day)).toBeCloseTo(-43_262.15126765, 6)
    expect(testDollar("2026-01-09")).toBe(905.5)
    const admin = flow("administrator", testCrc32("agf:96980650"), "day", 20260109, "USD")!
    expect(admin.net).toBeCloseTo(-43_262.15126765, 6)
    expect(admin.net_clp).toBeCloseTo(-39_173_877.972857, 3)
    // the family of our classification (RUN 9932 → accionario-eeuu) says the same
    expect(flow("family", "accionario-eeuu", "day", 20260109, "USD")!.net).toBeCloseTo(-43_262.15126765, 6)
  })

  it("a dollar fund's Saturday takes Friday's dollar (the last on or before the date); the holiday 01-01 takes 12-31's", () => {
    const saturday = flow("administrator", testCrc32("agf:96980650"), "day", 20260110, "USD")!
    expect(saturday).toMatchObject({ net: 0, net_clp: 0, unconverted_days: 0, series_days: 4 })
    const holiday = flow("administrator", testCrc32("agf:96639280"), "day", 20260101, "USD")!
    expect(holiday).toMatchObject({ series_days: 6, unconverted_days: 0 })
  })

  it("a month: fund 8011 in February and fund 9932 in January, every day summed (weekends included)", () => {
    const feb8011 = rows.filter((r) => r.run === 8011 && r.date.startsWith("2026-02"))
    expect(feb8011).toHaveLength(77)
    const fund = flow("fund", testCrc32("fm:8011"), "month", 20260201, "CLP")!
    expect(fund.net).toBeCloseTo(handNet(feb8011), 2)
    expect(fund).toMatchObject({ series_count: 11, series_days: 77 })

    const jan9932 = rows.filter((r) => r.run === 9932)
    expect(jan9932).toHaveLength(97)
    const dollarFund = flow("fund", testCrc32("fm:9932"), "month", 20260101, "USD")!
    expect(dollarFund.net).toBeCloseTo(handNet(jan9932), 6)
    expect(dollarFund.net_clp).toBeCloseTo(handNet(jan9932, true), 2)
    expect(dollarFund.subscribed - dollarFund.redeemed).toBeCloseTo(dollarFund.net, 6)
  })

  it("a series' month and an administrator's month are the sums of their days", () => {
    const f1 = rows.filter((r) => r.run === 9932 && r.serie === "F1")
    expect(flow("series", testCrc32("fm:9932:F1"), "month", 20260101, "USD")!.net).toBeCloseTo(handNet(f1), 6)
    const principal = rows.filter((r) => r.agf === 91999000 && r.date.startsWith("2026-02"))
    expect(new Set(principal.map((r) => r.run))).toEqual(new Set([8011, 8824]))
    expect(flow("administrator", testCrc32("agf:91999000"), "month", 20260201, "CLP")!.net).toBeCloseTo(handNet(principal), 2)
  })

  it("stores series and fund flows by month only (their days come from the quotas)", () => {
    const levels = db.prepare("SELECT DISTINCT level || ':' || period FROM market_flows ORDER BY 1").pluck().all()
    expect(levels).toEqual(["administrator:day", "administrator:month", "family:day", "family:month", "fund:month", "series:month"])
  })
})
