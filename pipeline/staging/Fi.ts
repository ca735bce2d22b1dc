/**
 * Staging of investment funds and ETFs. Instruments come from the CMF lists (a RUN in both the
 * active and the inactive list counts as active); their administrator is matched to an FM
 * administrator by normalised name when one exists (same provider_id), else gets an id of its own
 * from the name. Series and prices come from the book-value pages, cut at the batch date.
 */
import { Effect } from "effect"
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
import { coreOf, type StageContext } from "../Stage.ts"
import { normalizeAdminName } from "../sources/FmTac.ts"
import { percentToFraction } from "./Units.ts"

export interface FiInputs {
  readonly registry: ReadonlyArray<FiRegistryRecord>
  /** The book-value files, each read when its turn comes: one file's records in memory at a time. */
  readonly bookValues: ReadonlyArray<() => ReadonlyArray<FiBookValueRecord>>
  /** Their records in all (the room the price columns are made with; they grow past it if need be). */
  readonly bookValueRows?: number
  readonly portfolios: ReadonlyArray<FiPortfolioRecord>
  readonly factSheets: ReadonlyArray<FiFactSheetRecord>
  readonly etfTickers: ReadonlyArray<EtfTickerRecord>
}

export interface StagedFi {
  readonly instruments: FiInstrumentsTable[]
  readonly series: FiSeriesTable[]
  readonly holdings: FiHoldingsTable[]
  readonly factSheets: FiFactSheetsTable[]
  readonly repairs: Record<string, number>
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Price rows handed to the sink at a time. */
const PRICES_BATCH = 4096

/** The book values as columns (NaN = null), one entry per kept record in input order; grown as needed. */
class PriceColumns {
  length = 0
  serie = new Int32Array(0)
  date = new Int32Array(0)
  values: Float64Array[] = []

  constructor(room: number) {
    if (room > 0) this.grow(room)
  }

  push(serie: number, date: number, values: ReadonlyArray<number | null>): void {
    if (this.length === this.date.length) this.grow(Math.max(1024, this.length * 2))
    const at = this.length++
    this.serie[at] = serie
    this.date[at] = date
    for (let k = 0; k < values.length; k++) this.values[k]![at] = values[k] ?? Number.NaN
  }

  private grow(size: number): void {
    const grown = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(size)
      b.set(a)
      return b
    }
    this.serie = grown(this.serie, (n) => new Int32Array(n))
    this.date = grown(this.date, (n) => new Int32Array(n))
    this.values = PRICE_VALUES.map((_, k) => grown(this.values[k] ?? new Float64Array(0), (n) => new Float64Array(n)))
  }
}

/** The value columns of fi_prices after serie_id and date, in the table's order. */
const PRICE_VALUES = ["book_value", "economic_value", "patrimony", "total_assets", "holders", "institutional_holders"] as const

const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x)

/**
 * Stages the FI/ETF part; the price rows (the bulk: ~1.3M at market scale) go to `putPrices` in
 * key order, in batches, from typed columns rather than one object per row held.
 */
export const stageFi = (
  inputs: FiInputs,
  administrators: ReadonlyArray<AdministratorsTable>,
  cutoff: number,
  putPrices: (rows: ReadonlyArray<FiPricesTable>) => void,
): StagedFi => {
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
  // each kept price as a row of typed columns: no object or key string per row.
  const indexOf = new Map<string, number>()
  const ids: string[] = []
  const prices = new PriceColumns(inputs.bookValueRows ?? 0)
  const lastPrice = new Map<number, number>()
  for (const file of inputs.bookValues) {
    for (const b of file()) {
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
      let k = indexOf.get(label)
      if (k === undefined) {
        const serieId = fiSeriesId(b.run, b.serie)
        k = ids.indexOf(serieId)
        if (k < 0) {
          k = ids.length
          ids.push(serieId)
        }
        indexOf.set(label, k)
      }
      const serieId = ids[k]!
      if (!series.has(serieId)) {
        series.set(serieId, {
          serie_id: serieId,
          instrument_id: instrumentId(b.run),
          run: b.run,
          serie: b.serie.trim().toUpperCase(),
          currency: b.currencyCode === "" ? null : b.currencyCode,
        })
      }
      prices.push(k, date, [b.bookValue, b.economicValue, b.patrimony, b.totalAssets, b.holders, b.institutionalHolders])
      if (date > (lastPrice.get(b.run) ?? 0)) lastPrice.set(b.run, date)
    }
  }

  // Rows by series (serie_id order), each series' rows by date; of the same series and date the
  // last in input order stays (a later file restates an earlier one), the others are counted.
  const order = ids.map((_, k) => k).sort((a, b) => byText(ids[a]!, ids[b]!))
  const rank = new Int32Array(ids.length)
  for (const [r, k] of order.entries()) rank[k] = r
  const starts = new Int32Array(ids.length + 1)
  for (let i = 0; i < prices.length; i++) starts[rank[prices.serie[i]!]! + 1]!++
  for (let r = 0; r < ids.length; r++) starts[r + 1]! += starts[r]!
  const rows = new Int32Array(prices.length)
  const fill = starts.slice(0, ids.length)
  for (let i = 0; i < prices.length; i++) rows[fill[rank[prices.serie[i]!]!]!++] = i
  let duplicates = 0
  let batch: FiPricesTable[] = []
  const values = prices.values
  for (let r = 0; r < ids.length; r++) {
    const serieId = ids[order[r]!]!
    // Stable: rows of one date stay in input order.
    const segment = Array.from(rows.subarray(starts[r]!, starts[r + 1]!)).sort((a, b) => prices.date[a]! - prices.date[b]!)
    for (let j = 0; j < segment.length; j++) {
      const i = segment[j]!
      if (j + 1 < segment.length && prices.date[segment[j + 1]!] === prices.date[i]) {
        duplicates++
        continue
      }
      batch.push({
        serie_id: serieId,
        date: prices.date[i]!,
        book_value: values[0]![i]!,
        economic_value: orNull(values[1]![i]!),
        patrimony: orNull(values[2]![i]!),
        total_assets: orNull(values[3]![i]!),
        holders: orNull(values[4]![i]!),
        institutional_holders: orNull(values[5]![i]!),
      })
      if (batch.length === PRICES_BATCH) {
        putPrices(batch)
        batch = []
      }
    }
  }
  putPrices(batch)
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
              bookValues: context.files("fi_book_values").map((f) => () => f.data() as ReadonlyArray<FiBookValueRecord>),
              bookValueRows: context.files("fi_book_values").reduce((n, f) => n + f.rows, 0),
              portfolios: context.records<FiPortfolioRecord>("fi_portfolio"),
              factSheets: context.records<FiFactSheetRecord>("fi_fact_sheets"),
              etfTickers: context.records<EtfTickerRecord>("etf_tickers"),
            },
            coreOf(context).administrators,
            context.cutoff,
            (rows) => context.put("fi_prices", rows),
          )
        : null
    if (fi === null) context.put("fi_prices", [])
    context.meta.fi_status = fi === null ? "unavailable" : "available"
    if (context.fiUnavailable !== null) context.meta.fi_unavailable_reason = context.fiUnavailable
    context.put("fi_instruments", fi?.instruments ?? [])
    context.put("fi_series", fi?.series ?? [])
    context.put("fi_holdings", fi?.holdings ?? [])
    context.put("fi_fact_sheets", fi?.factSheets ?? [])
    Object.assign(context.repairs, fi?.repairs ?? {})
  })
