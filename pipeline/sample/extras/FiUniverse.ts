/**
 * The synthetic investment-fund (FI/ETF) market of the sample: administrators, funds, series, which
 * funds publish daily values and portfolios, their fact sheets and tickers. Plain data from the
 * "fi" PRNG stream; nothing is written here. The edge cases sit at fixed fund indices (`FI_EDGE`).
 */
import { businessDayOnOrBefore, dayOf, isoOf } from "../Calendar.ts"
import type { Prng } from "../Prng.ts"
import type { SampleFund, Universe } from "../Universe.ts"
import { type FiScale, FI_ADMIN_NAMES, FI_SCALES, FI_THEMES, ETF_THEMES } from "./FiConfig.ts"

/** Fund indices of the edge cases (same at both scales; which RUN they get depends on the seed). */
export const FI_EDGE = {
  /** ETFs with tickers CFIETFIPSA, CFIETFCC, CFIETFGE (the last one in USD). */
  etfs: [0, 1, 2],
  /** Fund 1's series: TAC PENDIENTE (pending_review); fund 2's: CONFLICTO (unavailable_or_conflict). */
  tacPending: 1,
  tacConflict: 2,
  /** In COP (no conversion: unknown_currency); its TAC is NO_INFORMADA (not_reported). */
  cop: 3,
  /** Last book value 35 days before the end date (stale price). */
  stale: 4,
  /** Active, but its values page only says "Sin Información" (unavailable price). */
  noValues: 5,
  /** Daily values but no portfolio period at all; its fact sheet is two years old (stale TAC). */
  noPortfolio: 6,
  /** Portfolios for the last quarters except the second newest; no fact sheet line (not_checked). */
  portfolioGap: 7,
  /** On both the VI and the NV list of FIRES, like real RUN 9251 (it gets RUN 9251 when free). */
  bothLists: 8,
  /** Its RUN is also an FM fund's RUN in the FM registry. */
  sharedWithFm: 9,
  /** Inactive (NV list): one with values that stop ~200 days before the end, one without values. */
  inactiveWithValues: 10,
  inactiveNoValues: 11
} as const

export type FiCurrency = "CLP" | "USD" | "COP"
export type FiReview = "REVISADA" | "PENDIENTE" | "NO_INFORMADA" | "CONFLICTO"

export interface FiAdmin {
  readonly rut: number
  readonly name: string
  readonly short: string
  /** Also manages mutual funds (same RUT and name as in the FM registry). */
  readonly alsoFm: boolean
}

export interface FiSeries {
  readonly label: string
  readonly ticker: string | null
  readonly initialValue: number
  readonly initialUnits: number
  readonly unitsPerHolder: number
  readonly institutionalShare: number
  /** Annual fee: the series' value grows by the fund's return minus this. */
  readonly feeRate: number
  /** valor económico / valor libro */
  readonly economicPremium: number
  /** Fact sheet line; null: the series is not in the file (not_checked). */
  readonly sheet: { readonly review: FiReview; readonly tacPercent: number | null; readonly day: number } | null
}

export interface FiFund {
  readonly index: number
  readonly run: number
  readonly admin: FiAdmin
  readonly name: string
  readonly regulatoryType: "FIRES" | "FINRE"
  readonly active: boolean
  readonly lists: ReadonlyArray<"VI" | "NV">
  readonly currency: FiCurrency
  /** As the portfolio pages say it: "Cifras expresadas en miles de: PESOS". */
  readonly functionalCurrency: string
  readonly series: ReadonlyArray<FiSeries>
  /** First and last business day with values; null: no values ever published. */
  readonly values: { readonly first: number; readonly last: number } | null
  readonly drift: number
  readonly vol: number
  /** Quarter ends (YYYY-MM) with portfolio pages. */
  readonly portfolioPeriods: ReadonlyArray<string>
  /** A quarter whose foreign (E) page is an empty table while the national one has positions. */
  readonly emptyForeignPeriod: string | null
}

export interface FiUniverse {
  readonly admins: ReadonlyArray<FiAdmin>
  readonly funds: ReadonlyArray<FiFund>
  /** First day of the values history (January 1). */
  readonly valuesFrom: number
  readonly endDay: number
}

/** The last `count` quarter ends whose portfolios are published by `endDay` (60 days after, 90 in December). */
export const publishedQuarters = (endDay: number, count: number): ReadonlyArray<string> => {
  const quarters: Array<string> = []
  let [y, m] = [Number(isoOf(endDay).slice(0, 4)), 12]
  while (quarters.length < count) {
    const last = dayOf(`${y}-${String(m).padStart(2, "0")}-01`) + (m === 6 || m === 9 ? 29 : 30)
    if (last + (m === 12 ? 90 : 60) <= endDay) quarters.unshift(`${y}-${String(m).padStart(2, "0")}`)
    ;[y, m] = m === 3 ? [y - 1, 12] : [y, m - 3]
  }
  return quarters
}

const CURRENCY_TEXT: Readonly<Record<FiCurrency, string>> = { CLP: "PESOS", USD: "DOLARES", COP: "PESOS COLOMBIANOS" }

const makeAdmins = (prng: Prng, scale: FiScale, fm: Universe): Array<FiAdmin> => {
  // FM administrators 0 and 2 first: the one with Ñ manages FM and FI funds at every scale.
  const order = [0, 2, ...fm.admins.map((_, i) => i).filter((i) => i !== 0 && i !== 2)]
  const reused = order.slice(0, Math.min(scale.reuseFmAdmins, fm.admins.length)).map((i) => fm.admins[i]!)
  const ruts = new Set(fm.admins.map((a) => a.rut))
  const admins: Array<FiAdmin> = reused.map((a) => ({ rut: a.rut, name: a.name, short: a.short, alsoFm: true }))
  for (const { name, short } of FI_ADMIN_NAMES.slice(0, scale.admins - admins.length)) {
    let rut = 0
    while (rut === 0 || ruts.has(rut)) rut = prng.int(76000000, 77999999)
    ruts.add(rut)
    admins.push({ rut, name, short, alsoFm: false })
  }
  return admins
}

const makeSeries = (prng: Prng, labels: ReadonlyArray<string>, currency: FiCurrency, tickers: ReadonlyArray<string | null>): Array<FiSeries> =>
  labels.map((label, i) => {
    const u = prng.next()
    const patrimony = (currency === "CLP" ? 2e9 : currency === "USD" ? 2e6 : 5e10) * (1 + 80 * u * u)
    const initialValue = currency === "CLP" ? prng.pick([1000, 5000, 10000, 25000]) * (0.8 + 0.6 * prng.next()) : currency === "USD" ? 80 + 70 * prng.next() : 9000 + 3000 * prng.next()
    const holders = label === "I" ? prng.int(2, 30) : prng.int(20, 4000)
    return {
      label,
      ticker: tickers[i] ?? null,
      initialValue,
      initialUnits: patrimony / initialValue,
      unitsPerHolder: patrimony / initialValue / holders,
      institutionalShare: label === "I" ? 0.6 + 0.4 * prng.next() : 0.05 * prng.next(),
      feeRate: label === "I" ? 0.004 : 0.006 + 0.014 * prng.next(),
      economicPremium: 0.97 + 0.08 * prng.next(),
      sheet: null
    }
  })

/** Builds the FI market for `scale` next to the FM market `fm`, ending on `endDay`. */
export const buildFiUniverse = (prng: Prng, scaleName: "small" | "full", fm: Universe, endDay: number): FiUniverse => {
  const scale = FI_SCALES[scaleName]
  const last = businessDayOnOrBefore(endDay)
  const valuesFrom = scale.valuesFrom === "two-years" ? dayOf(`${Number(isoOf(endDay).slice(0, 4)) - 1}-01-01`) : dayOf(scale.valuesFrom)
  const admins = makeAdmins(prng, scale, fm)
  const quarters = publishedQuarters(endDay, 4)
  const fmRuns = new Set(fm.funds.map((f) => f.run))
  // The FM fund whose RUN FI 9 shares: one of a reused administrator, past the FM edge cases.
  const shared: SampleFund = fm.funds.find((f) => f.index >= 7 && admins.some((a) => a.rut === f.admin.rut)) ?? fm.funds[7] ?? fm.funds.at(-1)!
  let both = 9251
  while (fmRuns.has(both)) both++
  const taken = new Set([...fmRuns, both])
  let nextRun = 7000
  // Selection sampling: exactly `withValues` funds get values (ETFs always do).
  let valuesNeeded = scale.withValues - 10
  let valuesLeft = scale.funds - 12
  const names = new Set<string>()
  const etfTickers = [...ETF_THEMES.keys()]
  let etfCount = 0
  const funds: Array<FiFund> = []
  const E = FI_EDGE

  for (let index = 0; index < scale.funds; index++) {
    const fixed = index <= E.inactiveNoValues
    const isEtf = index < 3 || (index > E.inactiveNoValues && index < 12 + scale.etfs - 3)
    const admin = index === E.sharedWithFm ? (admins.find((a) => a.rut === shared.admin.rut) ?? admins[0]!) : index < admins.length ? admins[index]! : prng.pick(admins)
    const regulatoryType = fixed ? (index === E.inactiveNoValues ? "FINRE" : "FIRES") : isEtf || prng.chance(0.35) ? "FIRES" : "FINRE"
    const active = fixed ? index < E.inactiveWithValues : isEtf || prng.chance(scale.activeShare)
    const currency: FiCurrency = index === E.cop ? "COP" : index === 2 || (!fixed && !isEtf && prng.chance(0.15)) ? "USD" : "CLP"
    do nextRun += prng.int(1, 3)
    while (taken.has(nextRun))
    const run = index === E.bothLists ? both : index === E.sharedWithFm ? shared.run : nextRun

    const ticker = isEtf ? (etfTickers[etfCount++] ?? null) : null
    const base = ticker !== null ? `ETF ${ETF_THEMES.get(ticker)}` : index === E.cop ? "DEUDA COLOMBIA" : index === E.sharedWithFm ? shared.shortName : prng.pick(FI_THEMES)
    let name = `FONDO DE INVERSIÓN ${admin.short} ${base}`
    for (let n = 2; names.has(name); n++) name = `FONDO DE INVERSIÓN ${admin.short} ${base} ${n}`
    names.add(name)

    const labels = ticker !== null ? ["UNICA"] : index === E.stale ? ["A", "I"] : regulatoryType === "FINRE" && prng.chance(0.6) ? ["UNICA"] : ["A", "B", "I", "C"].slice(0, prng.int(1, 3))
    const series = makeSeries(prng, labels, currency, [ticker])

    const drawn = !fixed && prng.next() * valuesLeft-- < valuesNeeded
    const hasValues = fixed ? index !== E.noValues && index !== E.inactiveNoValues : isEtf || drawn
    if (hasValues && !fixed) valuesNeeded--
    let values: FiFund["values"] = null
    if (hasValues) {
      const young = scaleName === "full" && !fixed && prng.chance(0.5)
      const first = young ? valuesFrom + prng.int(0, Math.max(0, last - valuesFrom - 200)) : valuesFrom
      const end = index === E.stale ? businessDayOnOrBefore(endDay - 35) : active ? last : businessDayOnOrBefore(Math.max(first + 60, endDay - prng.int(150, 400)))
      values = { first, last: index === E.inactiveWithValues ? businessDayOnOrBefore(endDay - 200) : end }
    }
    const hasPortfolio = active && index !== E.noPortfolio && (fixed || prng.chance(scale.portfolioShare))
    const portfolioPeriods = hasPortfolio ? quarters.filter((q) => index !== E.portfolioGap || q !== quarters.at(-2)) : []

    const withSheets = series.map((s, i): FiSeries => {
      if (!active || index === E.portfolioGap || (!fixed && prng.chance(0.1))) return s
      const tacPercent = Math.round((0.3 + 2.2 * prng.next()) * 100) / 100
      const day = index === E.noPortfolio ? endDay - 800 : endDay - prng.int(10, 150)
      const review: FiReview = index === E.tacPending && i === 0 ? "PENDIENTE" : index === E.tacConflict ? "CONFLICTO" : index === E.cop ? "NO_INFORMADA" : "REVISADA"
      return { ...s, sheet: { review, tacPercent: review === "NO_INFORMADA" ? null : tacPercent, day } }
    })

    funds.push({
      index,
      run,
      admin,
      name,
      regulatoryType,
      active,
      lists: index === E.bothLists ? ["VI", "NV"] : active ? ["VI"] : ["NV"],
      currency,
      functionalCurrency: CURRENCY_TEXT[currency],
      series: withSheets,
      values,
      drift: 0.02 + 0.08 * prng.next(),
      vol: isEtf ? 0.12 + 0.1 * prng.next() : 0.01 + 0.12 * prng.next(),
      portfolioPeriods,
      emptyForeignPeriod: index === 0 ? quarters[0]! : null
    })
  }
  return { admins, funds, valuesFrom, endDay }
}
