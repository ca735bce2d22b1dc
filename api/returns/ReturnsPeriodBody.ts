/**
 * One window of a computed answer as the contract writes it (ReturnPeriod, AdjustedReturnPeriod,
 * TotalReturnPeriod): the value and dates, the inputs behind them, and under `total` what was
 * applied and the coverage that was checked, each labelled with the series label of its date.
 */
import { dateToInt } from "../../schemas/Dates.ts"
import { formatRun } from "../../schemas/Ids.ts"
import type { AdjustedReturnPeriod, ReturnPeriod, TotalReturnPeriod } from "../../schemas/ReturnsPeriods.ts"
import { addDays, daysBetween, toIsoDate } from "../../snapshots/compute/Calendar.ts"
import type { ReturnPeriod as Computed } from "../../snapshots/compute/Returns.ts"
import type { IndicatorValue } from "../../snapshots/compute/Valuation.ts"
import { labelAt, type ResolvedSeries } from "../../snapshots/readers/ReturnsSeries.ts"

type PeriodBody = typeof ReturnPeriod.Encoded
type AdjustedPeriodBody = typeof AdjustedReturnPeriod.Encoded
type TotalPeriodBody = typeof TotalReturnPeriod.Encoded

/** The accounting currency's contract label ("PESOS", "DOLAR", "EURO"), null when unknown. */
export type QuotaCurrency = "PESOS" | "DOLAR" | "EURO" | null

const indicator = (code: "uf" | "dolar", v: IndicatorValue | null) =>
  v === null ? null : { code, date: v.date, value: String(v.value), unit: "CLP" as const }

const endpoint = (
  date: string | null,
  price: number | null,
  currency: QuotaCurrency,
  fx: IndicatorValue | null,
  uf: IndicatorValue | null,
) =>
  date === null || price === null
    ? null
    : { quota_date: date, quota_value: price, quota_currency: currency, fx: indicator("dolar", fx), uf: indicator("uf", uf) }

/** The fields every kind of period has. */
export const periodBody = (p: Computed, quotaCurrency: QuotaCurrency) => ({
  value: p.value,
  currency: p.currency,
  status: p.status,
  reason: p.reason,
  annualized: p.annualized,
  target_start_date: p.target_start_date,
  target_end_date: p.target_end_date,
  effective_start_date: p.effective_start_date,
  effective_end_date: p.effective_end_date,
  inputs: {
    start: endpoint(p.effective_start_date, p.start_price, quotaCurrency, p.start_fx, p.start_uf),
    end: endpoint(p.effective_end_date, p.end_price, quotaCurrency, p.end_fx, p.end_uf),
  },
})

// The computations only produce the currencies and reasons each model allows for its valuation
// and basis; these casts state that, the response tests decode every answer with the schemas.
export const pricePeriod = (p: Computed, c: QuotaCurrency): PeriodBody => periodBody(p, c) as PeriodBody
export const adjustedPeriod = (p: Computed, c: QuotaCurrency): AdjustedPeriodBody => periodBody(p, c) as AdjustedPeriodBody

/** The window split where the series changed label: one coverage stretch per label. */
const coverage = (s: ResolvedSeries, start: string, end: string) => {
  const run = formatRun(s.series.run)
  const from = dateToInt(start)
  const to = dateToInt(end)
  const out: TotalPeriodBody["factor_coverage"][number][] = []
  let cursor = from
  for (const r of s.renames) {
    if (r.first_current_date <= cursor || r.first_current_date > to) continue
    const until = addDays(r.first_current_date, -1)
    out.push({ run, serie: labelAt(s, cursor), start_date: toIsoDate(cursor), end_date: toIsoDate(until), calendar_days: daysBetween(cursor, until) })
    cursor = r.first_current_date
  }
  out.push({ run, serie: labelAt(s, cursor), start_date: toIsoDate(cursor), end_date: end, calendar_days: daysBetween(cursor, to) })
  return out
}

export const totalPeriod = (p: Computed, c: QuotaCurrency, s: ResolvedSeries): TotalPeriodBody => {
  const run = formatRun(s.series.run)
  return {
    ...(periodBody(p, c) as AdjustedPeriodBody),
    currency: p.currency,
    factor_coverage:
      p.status === "available" && p.effective_start_date !== null && p.effective_end_date !== null
        ? coverage(s, p.effective_start_date, p.effective_end_date)
        : [],
    applied_distributions: p.applied_distributions.map((d) => ({
      run,
      serie: labelAt(s, dateToInt(d.date)),
      date: d.date,
      factor: String(d.factor),
    })),
    applied_exchanges: p.applied_exchanges.map((e) => {
      const label = labelAt(s, dateToInt(e.date))
      return {
        event_id: `${s.series.asset_id}:${e.date.replaceAll("-", "")}`,
        revision: 1,
        origin_run: run,
        origin_serie: label,
        destination_run: run,
        destination_serie: label,
        effective_date: e.date,
        valuation_date: e.date,
        factor: String(e.factor),
      }
    }),
    distribution_multiplier: p.distribution_multiplier === null ? null : String(p.distribution_multiplier),
    exchange_multiplier: p.exchange_multiplier === null ? null : String(p.exchange_multiplier),
  } as TotalPeriodBody
}
