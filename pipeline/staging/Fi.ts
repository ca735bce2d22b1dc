/**
 * Staging of investment funds and ETFs. Instruments come from the CMF lists (a RUN in both the
 * active and the inactive list counts as active); their administrator is matched to an FM
 * administrator by normalised name when one exists (same provider_id), else gets an id of its own
 * from the name. Series and prices come from the book-value pages, cut at the batch date.
 */
import { Effect } from "effect"
import { coreOf, type StageContext } from "../Stage.ts"
import { dateToInt, intToDate } from "../../schemas/Dates.ts"
import { fiSeriesId, instrumentId, providerIdByName } from "../../schemas/Ids.ts"
import type { EtfTickerRecord } from "../../schemas/records/EtfTickers.ts"
import type { FiBookValueRecord } from "../../schemas/records/FiBookValues.ts"
import type { FiFactSheetRecord } from "../../schemas/records/FiFactSheets.ts"
import type { FiPortfolioRecord } from "../../schemas/records/FiPortfolio.ts"
import type { FiRegistryRecord } from "../../schemas/records/FiRegistry.ts"
import type { AdministratorsTable } from "../../snapshots/Tables.ts"
import type {
  FiFactSheetsTable,
  FiHoldingsTable,
  FiInstrumentsTable,
  FiPricesTable,
  FiSeriesTable,
} from "../../snapshots/tables/Fi.ts"
import { normalizeAdminName } from "../sources/FmTac.ts"
import { percentToFraction } from "./Units.ts"

export interface FiInputs {
  readonly registry: ReadonlyArray<FiRegistryRecord>
  readonly bookValues: ReadonlyArray<FiBookValueRecord>
  readonly portfolios: ReadonlyArray<FiPortfolioRecord>
  readonly factSheets: ReadonlyArray<FiFactSheetRecord>
  readonly etfTickers: ReadonlyArray<EtfTickerRecord>
}

export interface StagedFi {
  readonly instruments: FiInstrumentsTable[]
  readonly series: FiSeriesTable[]
  readonly prices: FiPricesTable[]
  readonly holdings: FiHoldingsTable[]
  readonly factSheets: FiFactSheetsTable[]
  readonly repairs: Record<string, number>
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

export const stageFi = (inputs: FiInputs, administrators: ReadonlyArray<AdministratorsTable>, cutoff: number): StagedFi => {
  const fmProvider = new Map(administrators.map((a) => [normalizeAdminName(a.name), a.provider_id]))
  const ticker = new Map(inputs.etfTickers.map((t) => [t.run, t.ticker]))
  const registry = new Map<number, FiRegistryRecord>()
  for (const r of inputs.registry) {
    const seen = registry.get(r.run)
    if (seen === undefined || (seen.status === "inactive" && r.status === "active")) registry.set(r.run, r)
  }
  const repairs = { fi_prices_unknown_instrument: 0, fi_prices_after_batch_date: 0, fi_duplicate_prices: 0 }

  const series = new Map<string, FiSeriesTable>()
  // One id per (RUN, label), computed once (a UUID v5 per row cost ~1 s and a string each), and
  // the prices of a series by date: no key string per row (1.3M rows at full scale).
  const idOf = new Map<string, string>()
  const prices = new Map<string, Map<number, FiPricesTable>>()
  let duplicates = 0
  const lastPrice = new Map<number, number>()
  for (const b of inputs.bookValues) {
    if (!registry.has(b.run)) {
      repairs.fi_prices_unknown_instrument++
      continue
    }
    const date = dateToInt(b.date)
    if (date > cutoff) {
      repairs.fi_prices_after_batch_date++
      continue
    }
    const label = `${b.run}|${b.serie}`
    let serieId = idOf.get(label)
    if (serieId === undefined) {
      serieId = fiSeriesId(b.run, b.serie)
      idOf.set(label, serieId)
    }
    if (!series.has(serieId)) {
      series.set(serieId, {
        serie_id: serieId,
        instrument_id: instrumentId(b.run),
        run: b.run,
        serie: b.serie.trim().toUpperCase(),
        currency: b.currencyCode === "" ? null : b.currencyCode,
      })
    }
    let byDate = prices.get(serieId)
    if (byDate === undefined) {
      byDate = new Map()
      prices.set(serieId, byDate)
    }
    if (byDate.has(date)) duplicates++
    byDate.set(date, {
      serie_id: serieId,
      date,
      book_value: b.bookValue,
      economic_value: b.economicValue,
      patrimony: b.patrimony,
      total_assets: b.totalAssets,
      holders: b.holders,
      institutional_holders: b.institutionalHolders,
    })
    if (date > (lastPrice.get(b.run) ?? 0)) lastPrice.set(b.run, date)
  }

  repairs.fi_duplicate_prices = duplicates

  const instruments: FiInstrumentsTable[] = [...registry.values()].map((r) => {
    const admin = normalizeAdminName(r.agfName)
    const last = lastPrice.get(r.run)
    return {
      instrument_id: instrumentId(r.run),
      run: r.run,
      name: r.name,
      agf_name: r.agfName,
      provider_id: fmProvider.get(admin) ?? providerIdByName(admin),
      regulatory_type: r.regulatoryType,
      status: r.status,
      is_etf: ticker.has(r.run) ? 1 : 0,
      ticker: ticker.get(r.run) ?? null,
      last_price_date: last === undefined ? null : intToDate(last),
    }
  })

  const next = new Map<string, number>()
  const holdings: FiHoldingsTable[] = inputs.portfolios
    .filter((p) => registry.has(p.run))
    .map((p) => {
      const key = `${p.run}|${p.period}|${p.market}`
      const position = (next.get(key) ?? 0) + 1
      next.set(key, position)
      const { line: _line, run: _run, period: _period, market: _market, ...body } = p
      return {
        run: p.run,
        period: p.period,
        market: p.market,
        position,
        body: JSON.stringify(body),
        valuation_thousands: p.valuationThousands,
        pct_fund_assets: p.pctOfFundAssets,
        instrument_type: p.instrumentType,
      }
    })

  const factSheets = new Map<string, FiFactSheetsTable>()
  for (const f of inputs.factSheets) {
    const serieId = fiSeriesId(f.run, f.serie)
    factSheets.set(serieId, {
      serie_id: serieId,
      tac: f.tacPercent === null ? null : percentToFraction(f.tacPercent),
      review: f.review,
      sheet_date: f.sheetDate,
    })
  }

  return {
    instruments: instruments.sort((a, b) => byText(a.instrument_id, b.instrument_id)),
    series: [...series.values()].sort((a, b) => byText(a.serie_id, b.serie_id)),
    prices: [...prices.keys()].sort(byText).flatMap((id) => [...prices.get(id)!.values()].sort((a, b) => a.date - b.date)),
    holdings: holdings.sort(
      (a, b) => a.run - b.run || byText(a.period, b.period) || byText(a.market, b.market) || a.position - b.position,
    ),
    factSheets: [...factSheets.values()].sort((a, b) => byText(a.serie_id, b.serie_id)),
    repairs,
  }
}

/**
 * The FI/ETF part, staged together on the FI registry's adapter; empty tables (and meta
 * fi_status unavailable) when the part is unavailable in this batch.
 */
export const fiStep = (context: StageContext) =>
  Effect.sync(() => {
    const fi =
      context.fiUnavailable === null
        ? stageFi(
            {
              registry: context.records<FiRegistryRecord>("fi_registry"),
              bookValues: context.records<FiBookValueRecord>("fi_book_values"),
              portfolios: context.records<FiPortfolioRecord>("fi_portfolio"),
              factSheets: context.records<FiFactSheetRecord>("fi_fact_sheets"),
              etfTickers: context.records<EtfTickerRecord>("etf_tickers"),
            },
            coreOf(context).administrators,
            context.cutoff,
          )
        : null
    context.meta.fi_status = fi === null ? "unavailable" : "available"
    if (context.fiUnavailable !== null) context.meta.fi_unavailable_reason = context.fiUnavailable
    context.tables.set("fi_instruments", fi?.instruments ?? [])
    context.tables.set("fi_series", fi?.series ?? [])
    context.tables.set("fi_prices", fi?.prices ?? [])
    context.tables.set("fi_holdings", fi?.holdings ?? [])
    context.tables.set("fi_fact_sheets", fi?.factSheets ?? [])
    Object.assign(context.repairs, fi?.repairs ?? {})
  })
