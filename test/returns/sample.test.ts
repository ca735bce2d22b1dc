/**
 * Property tests on the bundled sample, built by the real pipeline (a child process) into a
 * temporary directory:
 * 1. for random series, each stored window served by /returns equals P_end / P_start − 1 (or its
 *    annualized form) recomputed from /days by the rule written independently in ./rule.ts;
 * 2. for every series, valuation and basis, the stored answer equals the computation run on the
 *    series' whole history (so the trimmed history and the stored rows lose nothing);
 * 3. at random past cutoffs, what the API reads for a request (historyFor) answers exactly as the
 *    whole history does.
 * The random seed is printed in each failure; RETURNS_PROPERTY_SEED replays one.
 */
import Database from "better-sqlite3"
import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { BASES, seriesReturns, seriesRisk, VALUATIONS } from "../../snapshots/compute/Policy.ts"
import { historyFor, loadIndicators } from "../../snapshots/readers/ReturnsHistory.ts"
import { storedReturns, storedRisk } from "../../snapshots/readers/ReturnsRows.ts"
import { createKey, get, type RunningServer } from "../support/server.ts"
import type { PeriodBody } from "./bodies.ts"
import { returnsBody } from "./bodies.ts"
import { ALL_ON, startWithFlags } from "./fixture.ts"
import { type Day, ruleWindow } from "./rule.ts"

const root = join(import.meta.dirname, "..", "..")
const seed = Number(process.env.RETURNS_PROPERTY_SEED ?? Math.floor(Math.random() * 1_000_000))
const BATCH = "2026-11-20"

/** mulberry32: a small seeded generator, enough to pick series. */
const random = (s: number) => () => {
  s = (s + 0x6d2b79f5) | 0
  let t = Math.imul(s ^ (s >>> 15), 1 | s)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

describe("returns on the sample", () => {
  let work: string
  let dataDir: string
  let server: RunningServer
  let key: string
  let db: Database.Database
  const call = (path: string) => get(server.url + path, { "x-api-key": key })

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "fds-returns-sample-"))
    dataDir = join(work, "data")
    await writeSample({ out: join(work, "sample"), scale: "small", seed: 42, endDate: BATCH })
    await promisify(execFile)(process.execPath, [join(root, "pipeline/main.ts"), "pipeline", "run", "--source", join(work, "sample")], {
      env: { ...process.env, FDS_DATA_DIR: dataDir },
    })
    key = (await createKey(dataDir, { email: "sample@example.cl", tier: "internal" })).key
    server = await startWithFlags(dataDir, ALL_ON)
    const file = readdirSync(join(dataDir, "snapshots")).find((f) => f.endsWith(".sqlite"))!
    db = new Database(join(dataDir, "snapshots", file), { readonly: true })
  })
  afterAll(async () => {
    db?.close()
    await server?.close()
    rmSync(work, { recursive: true, force: true })
  })

  it(`stored windows equal P_end/P_start − 1 recomputed from /days (seed ${seed})`, async () => {
    const ids = (db.prepare("SELECT asset_id FROM series ORDER BY asset_id").pluck().all() as number[]).map(String)
    const aliases = (db.prepare("SELECT alias_id FROM series_aliases").pluck().all() as number[]).map(String)
    const next = random(seed)
    const picked = new Set<string>(aliases) // the previous id of the renamed series, always
    while (picked.size < 25) picked.add(ids[Math.floor(next() * ids.length)]!)
    let available = 0
    for (const id of picked) {
      const body = returnsBody(await call(`/api/real_assets/${id}/returns`))
      expect(body.data.attributes.calculation_mode).toBe("snapshot")
      const daysRes = await call(`/api/real_assets/${id}/days`)
      const rows: Day[] = (daysRes.body as { data: Array<{ attributes: { date: string; price: number } }> }).data.map(
        (d) => [d.attributes.date, d.attributes.price] as const,
      )
      for (const [window, p] of Object.entries(body.data.attributes.periods) as Array<[string, PeriodBody]>) {
        const where = `seed ${seed}, series ${id}, ${window}`
        const expected = ruleWindow(rows, BATCH, window)
        if (expected.value === null) {
          expect(p.value, where).toBeNull()
          continue
        }
        available++
        expect(p.value, where).not.toBeNull()
        expect(p.value as number, where).toBeCloseTo(expected.value, 12)
        expect([p.effective_start_date, p.effective_end_date], where).toEqual([expected.start, expected.end])
      }
    }
    expect(available).toBeGreaterThan(100) // the sample's series are mostly old enough
  })

  const wholeHistory = (assetId: number) => {
    const rows = db
      .prepare("SELECT date, price, factor_reparto, factor_ajuste FROM quotas WHERE asset_id = ? ORDER BY date")
      .raw(true)
      .all(assetId) as Array<[number, number, number | null, number | null]>
    return {
      dates: rows.map((r) => r[0]),
      prices: rows.map((r) => r[1]),
      factorReparto: rows.map((r) => r[2]),
      factorAjuste: rows.map((r) => r[3]),
    }
  }
  const allSeries = () => db.prepare("SELECT asset_id, currency, first_date FROM series").all() as Array<{
    asset_id: number
    currency: string | null
    first_date: number
  }>

  it("stored answers equal the computation on the whole history, for every valuation and basis", () => {
    const batch = Number(BATCH.replaceAll("-", ""))
    const indicators = loadIndicators(db)
    for (const s of allSeries()) {
      const history = wholeHistory(s.asset_id)
      for (const valuation of VALUATIONS) {
        for (const basis of BASES) {
          const stored = storedReturns(db, s.asset_id, s.currency, valuation, basis, batch)
          expect(stored, `${s.asset_id} ${valuation} ${basis}`).toEqual(seriesReturns(history, batch, s.currency, valuation, basis, indicators))
        }
      }
      expect(storedRisk(db, s.asset_id)).toEqual(seriesRisk(history, batch, s.currency))
    }
  })

  it(`past cutoffs read for a request answer as the whole history does (seed ${seed})`, () => {
    const indicators = loadIndicators(db)
    const next = random(seed + 1)
    const batchDay = Date.parse(`${BATCH}T00:00:00Z`)
    for (const s of allSeries()) {
      const history = wholeHistory(s.asset_id)
      const first = Date.parse(`${String(s.first_date).replace(/(\d{4})(\d{2})(\d{2})/, "$1-$2-$3")}T00:00:00Z`)
      for (let k = 0; k < 4; k++) {
        // from a week before the first quote up to the batch date
        const day = new Date(first - 7 * 86_400_000 + next() * (batchDay - first + 7 * 86_400_000))
        const cutoff = Number(day.toISOString().slice(0, 10).replaceAll("-", ""))
        for (const valuation of VALUATIONS) {
          for (const basis of BASES) {
            expect(
              seriesReturns(historyFor(db, s.asset_id, cutoff, basis), cutoff, s.currency, valuation, basis, indicators),
              `seed ${seed}, ${s.asset_id} at ${cutoff}, ${valuation} ${basis}`,
            ).toEqual(seriesReturns(history, cutoff, s.currency, valuation, basis, indicators))
          }
        }
      }
    }
  })
})
