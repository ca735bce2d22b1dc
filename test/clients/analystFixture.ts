/**
 * The analyst's data: the market fixture (test/market/) plus five CLP funds of one administrator
 * with a quota every weekday from 2025-01-02 to the batch date, 2026-03-04 (fourteen months, so
 * every series has a 1-year return), published with the returns computed as a build does.
 * Prices follow a closed form (`analystPrice`), so a test can work out any value by itself.
 */

import { ALFA, D3 } from "../market/fixtureFunds.ts"
import { publishMarketSnapshot } from "../market/marketSnapshot.ts"
import { testCrc32, weekdays } from "../support/snapshotFixture.ts"

export const ANALYST_FIRST = "2025-01-02"
export const ANALYST_RUNS = [8801, 8802, 8803, 8804, 8805] as const

/** The series id of fund `run`'s series A. */
export const analystId = (run: number): number => testCrc32(`fm:${run}:A`)

/** Fund `run`'s quota on day `n` (0 = ANALYST_FIRST, counting weekdays): a drift and a wobble of its own. */
export const analystPrice = (run: number, n: number): number => {
  const k = run - 8800
  return Math.round(1000 * (1 + 0.0002 * k) ** n * (1 + 0.01 * Math.sin(n / (2 + k))) * 10_000) / 10_000
}

export const ANALYST_DATES = weekdays(ANALYST_FIRST, D3)

const int = (iso: string): number => Number(iso.replaceAll("-", ""))

/** Publishes the snapshot into `snapshotsDir`; its file name. */
export const publishAnalystSnapshot = (snapshotsDir: string): string =>
  publishMarketSnapshot(snapshotsDir, {
    returns: true,
    extra: (writer) => {
      const providerId = testCrc32(`agf:${ALFA}`)
      writer.insertFunds(
        ANALYST_RUNS.map((run) => ({
          concept_id: testCrc32(`fm:${run}`),
          run,
          provider_id: providerId,
          name: `Fondo Mutuo Analista ${run - 8800}`,
          short_name: null,
          fund_type: 5,
          currency: "$$",
          start_date: null,
          end_date: null,
          is_current: 1,
        })),
      )
      writer.insertSeries(
        ANALYST_RUNS.map((run) => ({
          asset_id: analystId(run),
          concept_id: testCrc32(`fm:${run}`),
          run,
          serie: "A",
          currency: "$$",
          first_date: int(ANALYST_FIRST),
          last_date: int(D3),
        })),
      )
      writer.insertQuotas(
        ANALYST_RUNS.flatMap((run) =>
          ANALYST_DATES.map((date, n) => ({
            asset_id: analystId(run),
            date: int(date),
            price: analystPrice(run, n),
            patrimony: 1e9,
            holders: 100,
            factor_reparto: null,
            factor_ajuste: null,
          })),
        ).sort((a, b) => a.asset_id - b.asset_id || a.date - b.date),
      )
    },
  })

