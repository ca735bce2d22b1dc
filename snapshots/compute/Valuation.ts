/**
 * Valuations of a return: `accounting` (the quota's own currency), `clp` (quotas converted with
 * the observed USD rate) and `real_uf` (CLP deflated by the UF). Which currencies each accepts,
 * and how the indicator values are looked up.
 */
import { currencyOf } from "../../schemas/FundClass.ts"
import { daysBetween, toIsoDate } from "./Calendar.ts"
import { isPositive, lastIndexOnOrBefore, type RateSeries } from "./Series.ts"

/** The valuations `/returns` accepts. */
export type Valuation = "accounting" | "clp" | "real_uf"

/** The unit a return is expressed in, with the contract's labels. */
export type ValueCurrency = "PESOS" | "DOLAR" | "UF"

/** What a valuation needs for a series: the USD→CLP rate, the UF, and the label of the result. */
export interface Conversion {
  readonly fx: boolean
  readonly uf: boolean
  /** null for a currency the contract has no label for (EUR under `accounting`). */
  readonly currency: ValueCurrency | null
}

/**
 * The conversion for a raw currency (ISO or CMF code: "$$", "PROM", "EUR", …) under a valuation,
 * or null when it has none (reason `unknown_currency`). `accounting` reports CLP, USD and EUR as
 * they are; `clp` and `real_uf` need a rate to CLP, and only the USD observed rate is loaded, so
 * EUR (and anything unknown, e.g. COP) has none there.
 */
export const conversionFor = (rawCurrency: string | null, valuation: Valuation): Conversion | null => {
  const iso = currencyOf(rawCurrency)
  if (valuation === "accounting") {
    if (iso === "CLP") return { fx: false, uf: false, currency: "PESOS" }
    if (iso === "USD") return { fx: false, uf: false, currency: "DOLAR" }
    if (iso === "EUR") return { fx: false, uf: false, currency: null }
    return null
  }
  if (iso !== "CLP" && iso !== "USD") return null
  // A CLP series needs no rate: its `clp` valuation equals its accounting one.
  return { fx: iso === "USD", uf: valuation === "real_uf", currency: valuation === "clp" ? "PESOS" : "UF" }
}

/** An indicator value used for one end of a window, as the API reports it. */
export interface IndicatorValue {
  readonly date: string
  readonly value: number
}

/** A lookup's outcome: the value, or why there is none (mapped to `<problem>_<side>_fx|uf`). */
export type Lookup =
  | { readonly ok: true; readonly input: IndicatorValue }
  | { readonly ok: false; readonly problem: "missing" | "stale" | "invalid" }

/**
 * The USD→CLP rate for a quota date: the last rate on or before it (none is published on
 * weekends and holidays), at most `toleranceDays` calendar days older, else `stale`.
 */
export const fxOnOrBefore = (rates: RateSeries | undefined, date: number, toleranceDays: number): Lookup => {
  const i = rates === undefined ? -1 : lastIndexOnOrBefore(rates.dates, date)
  if (rates === undefined || i < 0) return { ok: false, problem: "missing" }
  const rateDate = rates.dates[i] as number
  const value = rates.values[i]
  if (!isPositive(value)) return { ok: false, problem: "invalid" }
  if (daysBetween(rateDate, date) > toleranceDays) return { ok: false, problem: "stale" }
  return { ok: true, input: { date: toIsoDate(rateDate), value } }
}

/** The UF on exactly the quota date: the UF is set for every calendar day, so no fallback. */
export const ufOn = (uf: RateSeries | undefined, date: number): Lookup => {
  const i = uf === undefined ? -1 : lastIndexOnOrBefore(uf.dates, date)
  if (uf === undefined || i < 0 || uf.dates[i] !== date) return { ok: false, problem: "missing" }
  const value = uf.values[i]
  if (!isPositive(value)) return { ok: false, problem: "invalid" }
  return { ok: true, input: { date: toIsoDate(date), value } }
}
