/**
 * The synthetic mutual-fund market behind the sample: administrators, funds and series with their
 * dates and price dynamics. Plain data, built from a seeded PRNG; nothing is written here.
 */
import { businessDayOnOrAfter, businessDayOnOrBefore, dayOf } from "./Calendar.ts"
import type { Prng } from "./Prng.ts"
import { type ScaleConfig, adminNames, FUND_TYPES, SERIES_LABELS, themesOf } from "./UniverseConfig.ts"

export type SampleCurrency = "$$" | "PROM" | "EUR"

export interface SampleAdmin {
  readonly rut: number
  /** As in the registry (latin-1 text). */
  readonly name: string
  /** As written in the cartola NOM_ADM: for one administrator, its UTF-8 bytes read as latin-1. */
  readonly cartolaName: string
  readonly short: string
}

export interface SampleFund {
  readonly index: number
  run: number
  readonly admin: SampleAdmin
  readonly name: string
  readonly shortName: string
  readonly type: number
  readonly currency: SampleCurrency
  /** First business day of operations (day number). */
  readonly start: number
  /** Last business day of operations, or null while active. */
  readonly end: number | null
  readonly riDate: number
  readonly riNumber: number
  /** Annual drift and volatility of the fund's portfolio. */
  readonly drift: number
  readonly vol: number
  /** Pays distributions (FACTOR DE REPARTO) twice a year. */
  readonly distributes: boolean
}

export interface SampleSeries {
  readonly fund: SampleFund
  readonly label: string
  /** First and last business day with a row (inclusive). */
  readonly start: number
  readonly end: number
  readonly initialPrice: number
  readonly initialUnits: number
  readonly unitsPerHolder: number
  /** Annual fee rate charged on the series (its quota grows by drift − fee). */
  readonly feeRate: number
  readonly institutionalShare: number
  /** From `from` on, the series is published under `label` (a rename, same history). */
  readonly renamed: { readonly label: string; readonly from: number } | null
  /** A day whose published quota is a corrupt jump (×1.6), the next day is normal again. */
  readonly outlierDay: number | null
}

export interface Universe {
  readonly admins: ReadonlyArray<SampleAdmin>
  readonly funds: ReadonlyArray<SampleFund>
  /** Sorted by RUN then label: the row order within a date. */
  readonly series: ReadonlyArray<SampleSeries>
  readonly historyStart: number
  readonly endDay: number
}

const between = (prng: Prng, lo: number, hi: number): number => lo + prng.next() * (hi - lo)
const dayBetween = (prng: Prng, lo: number, hi: number): number => prng.int(lo, Math.max(lo, hi))

const weighted = (prng: Prng, weights: ReadonlyArray<number>): number => {
  const total = weights.reduce((a, b) => a + b, 0)
  let u = prng.next() * total
  for (let i = 0; i < weights.length; i++) {
    u -= weights[i]!
    if (u < 0) return i
  }
  return weights.length - 1
}

const makeAdmins = (prng: Prng, count: number): Array<SampleAdmin> => {
  const ruts = new Set<number>()
  return adminNames(count).map(({ name, short }, i) => {
    let rut = 0
    while (rut === 0 || ruts.has(rut)) rut = prng.chance(0.5) ? prng.int(76000000, 77999999) : prng.int(96500000, 96999999)
    ruts.add(rut)
    // Administrator 1 reaches the cartola as UTF-8 read as latin-1 ("MAÃ\u0091ANA").
    const cartolaName = i === 1 ? Buffer.from(name, "utf8").toString("latin1") : name
    return { rut, name, cartolaName, short }
  })
}

/** Builds the market for `config`, ending on `endDay`. Fund i < 7 carry the fixed edge cases. */
export const buildUniverse = (prng: Prng, config: ScaleConfig, endDay: number): Universe => {
  const historyStart = dayOf(config.historyStart)
  const admins = makeAdmins(prng, config.admins)
  const adminWeights = admins.map((_, i) => 1 / (1 + i / 3))
  const names = new Set<string>()
  const funds: Array<SampleFund> = []

  for (let index = 0; index < config.funds; index++) {
    const admin = index < admins.length ? admins[index]! : admins[weighted(prng, adminWeights)]!
    let type = FUND_TYPES[weighted(prng, FUND_TYPES.map((t) => t.weight))]!.type
    let currency: SampleCurrency = prng.chance(0.09) ? "PROM" : prng.chance(0.015) ? "EUR" : "$$"
    let distributes = (type === 1 || type === 2) && prng.chance(0.1)
    // Fixed edge cases, whatever the seed: see the doc comment of `writeSample`.
    if (index === 0 || index === 1 || index === 5 || index === 6) currency = "$$"
    if (index === 0) type = 3
    if (index === 2) [type, currency] = [5, "PROM"]
    if (index === 3) [type, currency] = [3, "PROM"]
    if (index === 4) [type, currency] = [6, "EUR"]
    if (index === 5 || index === 6) [type, distributes] = [2, true]

    const spec = FUND_TYPES.find((t) => t.type === type)!
    const active = index < config.active
    const nthTerminated = index - config.active
    let start: number
    let end: number | null = null
    if (active) {
      const old = index < 7 || prng.chance(config.oldFundChance)
      start = old ? dayBetween(prng, dayOf("1995-01-02"), historyStart - 1) : dayBetween(prng, historyStart, endDay - 90)
    } else if (nthTerminated < config.terminatedBeforeHistory) {
      end = dayBetween(prng, historyStart - 365 * 10, historyStart - 30)
      start = dayBetween(prng, end - 365 * 15, end - 365)
    } else {
      end = dayBetween(prng, historyStart + 250, endDay - 30)
      start = prng.chance(config.oldFundChance)
        ? dayBetween(prng, end - 365 * 15, historyStart - 1)
        : dayBetween(prng, historyStart, end - 200)
    }
    start = businessDayOnOrAfter(start)
    if (end !== null) end = businessDayOnOrBefore(end)

    let theme = prng.pick(themesOf(type))
    if (currency === "PROM" && !theme.includes("DÓLAR")) theme = `${theme} DÓLAR`
    if (currency === "EUR") theme = `${theme} EURO`
    let shortName = theme
    for (let n = 2; names.has(`${admin.short} ${shortName}`); n++) shortName = `${theme} ${n}`
    names.add(`${admin.short} ${shortName}`)

    funds.push({
      index,
      run: 0,
      admin,
      name: `FONDO MUTUO ${admin.short} ${shortName}`,
      shortName,
      type,
      currency,
      start,
      end,
      riDate: start - prng.int(20, 120),
      riNumber: prng.int(10, 999),
      drift: between(prng, spec.drift[0], spec.drift[1]),
      vol: distributes ? between(prng, 0.004, 0.01) : between(prng, spec.vol[0], spec.vol[1]),
      distributes
    })
  }

  // RUNs grow with the registration date, as CMF assigns them.
  let run = 8000
  for (const fund of [...funds].sort((a, b) => a.riDate - b.riDate || a.index - b.index)) {
    run += prng.int(1, 4)
    fund.run = run
  }

  const series: Array<SampleSeries> = []
  for (const fund of funds) series.push(...makeSeries(prng, config, fund, endDay))
  series.sort((a, b) => a.fund.run - b.fund.run || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
  return { admins, funds, series, historyStart, endDay }
}

const makeSeries = (prng: Prng, config: ScaleConfig, fund: SampleFund, endDay: number): Array<SampleSeries> => {
  const active = fund.end === null
  let count = 1 + weighted(prng, active ? config.seriesWeightsActive : config.seriesWeightsTerminated)
  if (fund.index === 0) count = 3
  if (fund.index === 1) count = Math.max(count, 2)
  const pool = SERIES_LABELS.filter((l) => l !== "A" && l !== "BPRIV")
  const labels = fund.index === 0 ? ["A", "B", "APV"] : ["A"]
  while (labels.length < count) {
    const label = prng.pick(pool)
    if (!labels.includes(label)) labels.push(label)
  }
  const last = fund.end ?? businessDayOnOrBefore(endDay)
  const local = fund.currency === "$$"
  return labels.map((label, i) => {
    const younger = i > 0 && fund.index > 1 && prng.chance(config.youngerSeriesChance)
    const start = younger ? businessDayOnOrAfter(dayBetween(prng, fund.start, last - 60)) : fund.start
    let end = last
    // Fund 1's second series is absorbed by another series on 2026-09-23 (not linked).
    if (fund.index === 1 && i === 1) end = Math.min(end, businessDayOnOrBefore(dayOf("2026-09-23")))
    const institutional = label === "I" || label === "INST" || label === "F"
    const feeFactor = institutional ? 0.3 : label === "APV" ? 0.6 : label === "ALTO" || label === "BPRIV" ? 0.5 : 1
    const typeFee = FUND_TYPES.find((t) => t.type === fund.type)!.fee
    const u = prng.next()
    const patrimony = (local ? 5e8 : 5e5) * (1 + 400 * u * u)
    const initialPrice = local ? (start < fund.start + 30 ? 1000 : prng.pick([1000, 1000, 10000])) : 100
    const seasoned = Math.max(0, (dayOf(config.historyStart) - start) / 365)
    // A series already years old when the history starts has grown from its initial quota.
    const price = seasoned > 0 ? initialPrice * (1 + seasoned * between(prng, 0.02, 0.08)) : initialPrice
    const holders = institutional ? prng.int(1, 40) : label === "APV" ? prng.int(50, 3000) : prng.int(20, 20000)
    const renameDay = businessDayOnOrAfter(dayOf("2024-03-01"))
    const renamed = fund.index === 0 && label === "B" && renameDay > start && renameDay <= end
    const outlier = businessDayOnOrAfter(dayOf("2023-06-14"))
    return {
      fund,
      label,
      start,
      end,
      initialPrice: price,
      initialUnits: patrimony / price,
      unitsPerHolder: patrimony / price / holders,
      feeRate: typeFee * feeFactor,
      institutionalShare: institutional ? between(prng, 0.5, 1) : between(prng, 0, 0.01),
      renamed: renamed ? { label: "BPRIV", from: renameDay } : null,
      outlierDay: fund.index === 2 && i === 0 && outlier > start && outlier < end ? outlier : null
    }
  })
}
