/**
 * Staging of investment funds and ETFs. Instruments come from the CMF lists (a RUN in both the
 * active and the inactive list counts as active); their administrator is matched to an FM
 * administrator by normalised name when one exists (same provider_id), else gets an id of its own
 * from the name. Series and prices come from the book-value pages, cut at the batch date.
 *
 * In a daily increment the prices are staged from a date on when only that can have changed
 * (`fiPricesFrom`): the previous snapshot's rows before it are kept, and only the pages that
 * reach it are read; the other pages count by their summary (each series' first row, their last
 * date), so the instruments and series are what reading every page gives.
 */
import { Effect } from "effect"
import { dateToInt, intToDate } from "../../../schemas/Dates.ts"
import { fiSeriesId, instrumentId, providerIdByName } from "../../../schemas/Ids.ts"
import type { EtfTickerRecord } from "./EtfTickers.ts"
import type { FiBookValueRecord } from "./FiBookValues.ts"
import type { FiFactSheetRecord } from "./FiFactSheets.ts"
import type { FiPortfolioRecord } from "./FiPortfolio.ts"
import type { FiRegistryRecord } from "./FiRegistry.ts"
import type { AdministratorsTable } from "../../../snapshots/Tables.ts"
import type {
  FiFactSheetsTable,
  FiHoldingsTable,
  FiInstrumentsTable,
  FiPricesTable,
  FiSeriesTable,
} from "../../../snapshots/tables/Fi.ts"
import { coreOf, type StageContext } from "../StageContext.ts"
import { normalizeAdminName } from "../fm/FmTac.ts"
import { percentToFraction } from "../../cmf/Units.ts"

/** The first row of each series a book-value page lists, in page order: [RUN, label as written, currency as written]. */
export type FiPageSeries = ReadonlyArray<readonly [number, string, string]>

/** What the FI staging keeps of a book-value page without its rows (the adapter's `summaryOf`). */
export const fiPageSummary = (records: ReadonlyArray<FiBookValueRecord>): { readonly series: FiPageSeries } => {
  const seen = new Set<string>()
  const series: Array<readonly [number, string, string]> = []
  for (const r of records) {
    const label = `${r.run}|${r.serie}`
    if (seen.has(label)) continue
    seen.add(label)
    series.push([r.run, r.serie, r.currencyCode])
  }
  return { series }
}

/** A book-value page: its rows read when needed, or its summary (its last date, each series' first row). */
export interface FiPage {
  readonly read: () => ReadonlyArray<FiBookValueRecord>
  /** YYYYMMDD; 0: no row. */
  readonly latestDate: number
  /** null: unknown (the page is read). */
  readonly series: FiPageSeries | null
}

export interface FiInputs {
  readonly registry: ReadonlyArray<FiRegistryRecord>
  /** The book-value pages in the ledger's order, each read when its turn comes: one page's records in memory at a time. */
  readonly bookValues: ReadonlyArray<FiPage>
  /** Their records in all (the room the price columns are made with; they grow past it if need be). */
  readonly bookValueRows?: number
  readonly factSheets: ReadonlyArray<FiFactSheetRecord>
  readonly etfTickers: ReadonlyArray<EtfTickerRecord>
}

export interface StagedFi {
  readonly instruments: FiInstrumentsTable[]
  readonly series: FiSeriesTable[]
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
 * key order, in batches, from typed columns rather than one object per row held. With `from`
 * (YYYYMMDD) only the rows dated from it on are staged: a page whose rows all come before it
 * (by its summary) is not read, and counts for the series and last dates by its summary; the
 * repair counters then count the rows of the pages read.
 */
export const stageFi = (
  inputs: FiInputs,
  administrators: ReadonlyArray<AdministratorsTable>,
  cutoff: number,
  putPrices: (rows: ReadonlyArray<FiPricesTable>) => void,
  from = 0,
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
  const prices = new PriceColumns(from === 0 ? (inputs.bookValueRows ?? 0) : 0)
  const lastPrice = new Map<number, number>()
  const serieOf = (run: number, serie: string, currencyCode: string): number => {
    const label = `${run}|${serie}`
    let k = indexOf.get(label)
    if (k === undefined) {
      const serieId = fiSeriesId(run, serie)
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
        instrument_id: instrumentId(run),
        run,
        serie: serie.trim().toUpperCase(),
        currency: currencyCode === "" ? null : currencyCode,
      })
    }
    return k
  }
  const later = (run: number, date: number) => {
    if (date > (lastPrice.get(run) ?? 0)) lastPrice.set(run, date)
  }
  for (const page of inputs.bookValues) {
    if (from > 0 && page.series !== null && page.latestDate < from) {
      // Every row before `from` (so on or before the batch date): staged before, as its summary says.
      for (const [run, serie, currencyCode] of page.series) {
        if (!registry.has(run)) continue
        serieOf(run, serie, currencyCode)
        later(run, page.latestDate)
      }
      continue
    }
    for (const b of page.read()) {
      if (!registry.has(b.run)) {
        repairs.fi_prices_unknown_instrument++
        continue
      }
      const date = dateToInt(b.date)
      if (date > cutoff) {
        repairs.fi_prices_after_batch_date++
        continue
      }
      const k = serieOf(b.run, b.serie, b.currencyCode)
      if (date >= from) prices.push(k, date, [b.bookValue, b.economicValue, b.patrimony, b.totalAssets, b.holders, b.institutionalHolders])
      later(b.run, date)
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
    factSheets: [...factSheets.values()].sort((a, b) => byText(a.serie_id, b.serie_id)),
    repairs,
  }
}

/** The portfolio positions of the registry's funds, numbered in file order within (RUN, quarter, market). */
export const stageFiHoldings = (registry: ReadonlyArray<FiRegistryRecord>, portfolios: ReadonlyArray<FiPortfolioRecord>): FiHoldingsTable[] => {
  const runs = new Set(registry.map((r) => r.run))
  const next = new Map<string, number>()
  return portfolios
    .filter((p) => runs.has(p.run))
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
    .sort((a, b) => a.run - b.run || byText(a.period, b.period) || byText(a.market, b.market) || a.position - b.position)
}

/** The FI step's state, for the next increment: its book-value pages (name, content, first date) and registry files. */
interface FiState {
  readonly pages: ReadonlyArray<readonly [string, string, number]>
  readonly registry: ReadonlyArray<readonly [string, string]>
}

/**
 * From which date an increment stages the FI prices again (0: all of them): the day after the
 * previous batch, or the first date of a book-value page that is new, replaced or withdrawn since,
 * whichever is first; all of them when the FI part was unavailable either time, the registry
 * changed (an instrument listed or not keeps or drops its prices) or the pages that stayed are in
 * another order (a later page restates an earlier one's day).
 */
const fiPricesFrom = (context: StageContext, state: FiState): number => {
  const previous = context.previousStep
  const before = previous?.step.state as FiState | undefined
  if (previous === null || previous.step.meta.fi_status !== "available" || context.fiUnavailable !== null) return 0
  if (!Array.isArray(before?.pages) || !Array.isArray(before?.registry)) return 0
  if (JSON.stringify(before.registry) !== JSON.stringify(state.registry)) return 0
  const key = (p: readonly [string, string, number]) => `${p[0]} ${p[1]}`
  const now = new Set(state.pages.map(key))
  const then = new Set(before.pages.map(key))
  const stayed = (pages: FiState["pages"], other: ReadonlySet<string>) => pages.filter((p) => other.has(key(p))).map(key)
  if (stayed(before.pages, now).join("\n") !== stayed(state.pages, then).join("\n")) return 0
  let from = dateToInt(previous.batchDate) + 1
  for (const p of [...before.pages.filter((p) => !now.has(key(p))), ...state.pages.filter((p) => !then.has(key(p)))]) {
    if (p[2] > 0) from = Math.min(from, p[2])
  }
  return from
}

/**
 * The FI/ETF part's instruments, series, prices and fact sheets, staged together on the FI
 * registry's adapter; empty tables (and meta fi_status unavailable) when the part is unavailable
 * in this batch. In an increment the prices are staged from `fiPricesFrom` on.
 */
export const fiStep = (context: StageContext) =>
  Effect.sync(() => {
    const files = context.files("fi_book_values")
    const firstDate = new Map(files.map((f) => [f.name, f.firstDate ?? 0]))
    const state: FiState = {
      pages: context.inputs("fi_book_values").map((i) => [i.name, i.sha256, firstDate.get(i.name) ?? 0] as const),
      registry: context.inputs("fi_registry").map((i) => [i.name, i.sha256] as const),
    }
    const from = fiPricesFrom(context, state)
    if (from > 0) context.updateFrom("fi_prices", from)
    const fi =
      context.fiUnavailable === null
        ? stageFi(
            {
              registry: context.records<FiRegistryRecord>("fi_registry"),
              bookValues: files.map((f) => ({
                read: () => f.data() as ReadonlyArray<FiBookValueRecord>,
                latestDate: f.latestDate ?? 0,
                series: (f.extra as { readonly series?: FiPageSeries } | undefined)?.series ?? null,
              })),
              bookValueRows: files.reduce((n, f) => n + f.rows, 0),
              factSheets: context.records<FiFactSheetRecord>("fi_fact_sheets"),
              etfTickers: context.records<EtfTickerRecord>("etf_tickers"),
            },
            coreOf(context).administrators,
            context.cutoff,
            (rows) => context.put("fi_prices", rows),
            from,
          )
        : null
    if (fi === null) context.put("fi_prices", [])
    context.meta.fi_status = fi === null ? "unavailable" : "available"
    if (context.fiUnavailable !== null) context.meta.fi_unavailable_reason = context.fiUnavailable
    context.put("fi_instruments", fi?.instruments ?? [])
    context.put("fi_series", fi?.series ?? [])
    context.put("fi_fact_sheets", fi?.factSheets ?? [])
    Object.assign(context.repairs, fi?.repairs ?? {})
    context.keep(state)
  })

/** The FI funds' portfolio positions, on the FI portfolio's adapter (empty when the FI part is unavailable). */
export const fiHoldingsStep = (context: StageContext) =>
  Effect.sync(() => {
    context.put(
      "fi_holdings",
      context.fiUnavailable === null
        ? stageFiHoldings(context.records<FiRegistryRecord>("fi_registry"), context.records<FiPortfolioRecord>("fi_portfolio"))
        : [],
    )
  })
