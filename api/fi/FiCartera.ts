/**
 * The FI portfolio routes: `/cartera/holdings` (per position) and `/cartera/resumen` (per
 * instrument type) of one period. Without `month`: the latest period with positions in either
 * market (404 when the fund has none); a well-formed month without data: 200 with `data: []`; a
 * malformed month: 400. `market` filters the rows; `meta.availability` always reports both markets.
 */
import { Effect } from "effect"
import { BadRequest, NotFound } from "../../schemas/ApiErrors.ts"
import { formatRun } from "../../schemas/Ids.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import type { FiHoldingsTable, FiInstrumentsTable } from "../../snapshots/tables/Fi.ts"
import { read } from "../snapshot/Pinned.ts"
import { requireInstrument } from "./FiDetail.ts"
import { fiHolding } from "./FiHolding.ts"
import { holdingsOf, latestHoldingsPeriod } from "./FiHoldings.ts"
import { fiMeta } from "./FiMeta.ts"
import type { CarteraQuery } from "./FiQueries.ts"

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/
const DOCUMENT = { N: "ifrs_cartera_nac", E: "ifrs_cartera_ext" } as const

/** 400 for a `month` that is not YYYY-MM with a month 01–12 (a check that needs no data). */
export const checkMonth = (month: string | undefined): Effect.Effect<void, BadRequest> =>
  month === undefined || MONTH.test(month)
    ? Effect.void
    : Effect.fail(new BadRequest({ parameter: "month", message: `malformed query parameter month: ${month} is not YYYY-MM (month 01–12)` }))

/** The portfolio a request names: its instrument and period. */
export interface Portfolio {
  readonly instrument: FiInstrumentsTable
  /** YYYY-MM */
  readonly month: string
}

/** The instrument and period of a portfolio request; 404 when the instrument is unknown or has no period (without `month`). */
export const requirePortfolio = Effect.fn(function* (id: string, month: string | undefined) {
  const instrument = yield* requireInstrument(id)
  const chosen = month ?? (yield* read((r) => latestHoldingsPeriod(r, instrument.run)))
  if (chosen === null) {
    return yield* new NotFound({ parameter: "instrument_id", message: `the fund ${formatRun(instrument.run)} has no portfolio period` })
  }
  return { instrument, month: chosen } satisfies Portfolio
})

/** The period's rows for the requested market, with the meta that describes them. */
const portfolio = (reader: SnapshotReader, { instrument, month }: Portfolio, market: CarteraQuery["market"]) => {
  const all = holdingsOf(reader, instrument.run, month)
  const count = { N: all.filter((h) => h.market === "N").length, E: all.filter((h) => h.market === "E").length }
  const markets = (["N", "E"] as const).filter((m) => market === "all" || market === m)
  return {
    rows: all.filter((h) => market === "all" || h.market === market),
    meta: {
      ...fiMeta(reader),
      instrument_id: instrument.instrument_id,
      run: formatRun(instrument.run),
      month,
      market,
      availability: { N: count.N > 0 ? "available" : "unavailable", E: count.E > 0 ? "available" : "unavailable" } as const,
      sources: markets.filter((m) => count[m] > 0).map((m) => ({ market: m, document: DOCUMENT[m], positions: count[m] })),
      valuation_unit: "cmf_reported" as const,
      percentage_unit: "percent_of_fund_assets" as const,
    },
  }
}

const byWeight = (a: FiHoldingsTable, b: FiHoldingsTable): number =>
  (b.pct_fund_assets ?? Number.NEGATIVE_INFINITY) - (a.pct_fund_assets ?? Number.NEGATIVE_INFINITY) ||
  (a.market === b.market ? 0 : a.market === "N" ? -1 : 1) ||
  a.position - b.position

export const carteraHoldings = (reader: SnapshotReader, which: Portfolio, market: CarteraQuery["market"]) => {
  const p = portfolio(reader, which, market)
  return { data: [...p.rows].sort(byWeight).map(fiHolding), meta: p.meta }
}

export const carteraResumen = (reader: SnapshotReader, which: Portfolio, market: CarteraQuery["market"]) => {
  const p = portfolio(reader, which, market)
  const groups = new Map<string, { positions: number; national: number; foreign: number; pct: number }>()
  for (const h of p.rows) {
    const g = groups.get(h.instrument_type) ?? { positions: 0, national: 0, foreign: 0, pct: 0 }
    g.positions++
    if (h.market === "N") g.national += h.valuation_thousands
    else g.foreign += h.valuation_thousands
    g.pct += h.pct_fund_assets ?? 0
    groups.set(h.instrument_type, g)
  }
  const data = [...groups.entries()]
    .map(([type, g]) => ({
      instrument_type: type,
      positions: g.positions,
      valuation_national_thousands: g.national,
      valuation_foreign_thousands: g.foreign,
      pct_fund_assets: g.pct,
    }))
    .sort((a, b) => b.pct_fund_assets - a.pct_fund_assets || (a.instrument_type < b.instrument_type ? -1 : 1))
  return { data, meta: p.meta }
}
