/**
 * One return window as `/returns` reports it (the reference's ReturnPeriod, AdjustedReturnPeriod,
 * TotalReturnPeriod), with the inputs it used so that every value can be redone by hand.
 */
import { Schema } from "effect"

const Day = Schema.String.annotate({ description: "YYYY-MM-DD" })
const NullableDate = Schema.NullOr(Day)
/** Factors and indicator values as decimal strings, exactly as stored (no rounding). */
const DecimalString = Schema.String.check(Schema.isPattern(/^[+-]?\d+(\.\d+)?(e[+-]?\d+)?$/u)).annotate({
  description: "A decimal number written as a string",
})

export const WindowName = Schema.Literals(["1m", "3m", "6m", "1y", "ytd", "3y_ann", "5y_ann", "last_closed_month"])

export const PriceReason = Schema.Literals([
  "no_complete_cutoff", "no_closed_month", "missing_start_quote", "missing_end_quote", "invalid_start_quote",
  "invalid_end_quote", "stale_start_quote", "stale_end_quote", "unknown_currency", "currency_change",
  "known_discontinuity", "non_finite_return",
])
export const ConversionReason = Schema.Literals([
  "missing_start_fx", "missing_end_fx", "stale_start_fx", "stale_end_fx", "invalid_start_fx", "invalid_end_fx",
  "missing_start_uf", "missing_end_uf", "invalid_start_uf", "invalid_end_uf",
])
export const FactorReason = Schema.Literals([
  "missing_factor_coverage", "factor_quote_mismatch", "factor_currency_mismatch", "invalid_distribution_factor",
  "unsupported_adjustment", "duplicate_factor_date", "ambiguous_continuation", "continuation_cycle",
  "continuation_limit", "invalid_continuation", "origin_not_active_at_start", "ambiguous_exchange_distribution",
])

export const IndicatorInput = Schema.Struct({
  code: Schema.Literals(["uf", "dolar"]).annotate({ description: "uf: CLP per UF; dolar: observed USD rate, CLP per USD" }),
  date: Day.annotate({ description: "Date of the indicator value used" }),
  value: DecimalString,
  unit: Schema.Literal("CLP"),
}).annotate({ identifier: "IndicatorInput", description: "A UF or USD value a converted window used" })

export const EndpointInputs = Schema.Struct({
  quota_date: Day,
  quota_value: Schema.Finite.annotate({ description: "Quota value (VALOR_CUOTA) in the accounting currency" }),
  quota_currency: Schema.NullOr(Schema.Literals(["PESOS", "DOLAR", "EURO"])),
  fx: Schema.NullOr(IndicatorInput),
  uf: Schema.NullOr(IndicatorInput),
}).annotate({ identifier: "EndpointInputs", description: "What one end (start or end) of a window used" })

export const PeriodInputs = Schema.Struct({
  start: Schema.NullOr(EndpointInputs),
  end: Schema.NullOr(EndpointInputs),
}).annotate({ identifier: "PeriodInputs", description: "The quotas and indicator values behind a window" })

const periodFields = {
  value: Schema.NullOr(Schema.Finite).annotate({ description: "Decimal fraction (0.0132 = 1.32 %); null when unavailable" }),
  status: Schema.Literals(["available", "unavailable"]),
  annualized: Schema.Boolean.annotate({ description: "True for 3y_ann and 5y_ann only: (1 + R)^(1/years) − 1" }),
  target_start_date: NullableDate.annotate({ description: "The date the base quote is wanted on or before" }),
  target_end_date: NullableDate.annotate({ description: "The date the end quote is wanted on or before" }),
  effective_start_date: NullableDate.annotate({ description: "Date of the base quote used" }),
  effective_end_date: NullableDate.annotate({ description: "Date of the end quote used" }),
  inputs: PeriodInputs,
}

export const ReturnPeriod = Schema.Struct({
  ...periodFields,
  currency: Schema.NullOr(Schema.Literals(["PESOS", "DOLAR"])),
  reason: Schema.NullOr(PriceReason),
}).annotate({ identifier: "ReturnPeriod", description: "A price return in the accounting currency" })

export const AdjustedReturnPeriod = Schema.Struct({
  ...periodFields,
  currency: Schema.NullOr(Schema.Literals(["PESOS", "UF"])),
  reason: Schema.NullOr(Schema.Union([PriceReason, ConversionReason])),
}).annotate({ identifier: "AdjustedReturnPeriod", description: "A price return in CLP or in real UF terms" })

export const AppliedDistribution = Schema.Struct({
  run: Schema.String,
  serie: Schema.String.annotate({ description: "Series label on that date" }),
  date: Day,
  factor: DecimalString.annotate({ description: "FACTOR DE REPARTO as CMF published it" }),
}).annotate({ identifier: "AppliedDistribution", description: "A distribution reinvested inside a window" })

export const AppliedExchange = Schema.Struct({
  event_id: Schema.String.annotate({ description: "<asset_id>:<YYYYMMDD>" }),
  revision: Schema.Int,
  origin_run: Schema.String,
  origin_serie: Schema.String,
  destination_run: Schema.String,
  destination_serie: Schema.String,
  effective_date: Day,
  valuation_date: Day,
  factor: DecimalString.annotate({ description: "FACTOR DE AJUSTE as CMF published it" }),
}).annotate({ identifier: "AppliedExchange", description: "An adjustment (FACTOR DE AJUSTE) applied inside a window" })

export const FactorCoverage = Schema.Struct({
  run: Schema.String,
  serie: Schema.String,
  start_date: Day,
  end_date: Day,
  calendar_days: Schema.Int,
}).annotate({
  identifier: "FactorCoverage",
  description: "A stretch (per series label) whose daily CMF records were all seen: no gap over 7 calendar days between quotas",
})

export const TotalReturnPeriod = Schema.Struct({
  ...periodFields,
  currency: Schema.NullOr(Schema.Literals(["PESOS", "DOLAR", "UF"])),
  reason: Schema.NullOr(Schema.Union([PriceReason, ConversionReason, FactorReason])),
  factor_coverage: Schema.Array(FactorCoverage),
  applied_distributions: Schema.Array(AppliedDistribution),
  applied_exchanges: Schema.Array(AppliedExchange),
  distribution_multiplier: Schema.NullOr(DecimalString).annotate({ description: "Product of the applied FACTOR DE REPARTO" }),
  exchange_multiplier: Schema.NullOr(DecimalString).annotate({ description: "Product of the applied FACTOR DE AJUSTE" }),
}).annotate({ identifier: "TotalReturnPeriod", description: "A total return: distributions reinvested, adjustments applied" })

const periods = <P extends Schema.Top>(period: P, identifier: string) =>
  Schema.Struct({
    "1m": period,
    "3m": period,
    "6m": period,
    "1y": period,
    ytd: period,
    "3y_ann": period,
    "5y_ann": period,
    last_closed_month: period,
  }).annotate({ identifier })

export const ReturnPeriods = periods(ReturnPeriod, "ReturnPeriods")
export const AdjustedReturnPeriods = periods(AdjustedReturnPeriod, "AdjustedReturnPeriods")
export const TotalReturnPeriods = periods(TotalReturnPeriod, "TotalReturnPeriods")

/** An adjustment a return applied beyond the quota values: distributions, exchanges, conversion to CLP, UF deflation. */
export const ReturnAdjustment = Schema.Literals(["distributions", "exchanges", "fx_to_clp", "uf_deflation"])

/**
 * The `adjustments` of a price return in the accounting currency: always empty. Declared as an
 * array of adjustment words with at most none (not an empty tuple, `items: false`), so a generated
 * client reads it as the list it is on the other return shapes.
 */
export const NoAdjustments = Schema.Array(ReturnAdjustment)
  .check(Schema.isMaxLength(0))
  .annotate({ description: "Always empty: a price return in the accounting currency applies no adjustment" })
