/** Response models of the FI portfolio routes (`/api/fi/instruments/{id}/cartera/holdings` and `/resumen`). */
import { Schema } from "effect"
import { FiUuid } from "./FiInstruments.ts"
import { FiMetaFields } from "./FiStatus.ts"

export const FiMarket = Schema.Literals(["N", "E"]).annotate({ description: "N national portfolio, E foreign portfolio" })
const Availability = Schema.Literals(["available", "unavailable"])
const NullableText = Schema.NullOr(Schema.String)
const NullableNumber = Schema.NullOr(Schema.Finite)

export const FiPortfolioMeta = Schema.Struct({
  ...FiMetaFields,
  instrument_id: FiUuid,
  run: Schema.String.annotate({ description: "Fund RUN with check digit" }),
  month: Schema.String.annotate({ description: "The period answered (YYYY-MM, a quarter end)" }),
  market: Schema.Literals(["N", "E", "all"]),
  availability: Schema.Struct({ N: Availability, E: Availability }).annotate({
    description: "Per market, whether the fund reported positions for the month",
  }),
  sources: Schema.Array(
    Schema.Struct({
      market: FiMarket,
      document: Schema.String.annotate({ description: "The CMF page: ifrs_cartera_nac or ifrs_cartera_ext" }),
      positions: Schema.Int,
    }),
  ).annotate({ description: "The CMF pages the answer comes from (markets with positions in the month)" }),
  valuation_unit: Schema.Literal("cmf_reported").annotate({
    description: "Valuations as CMF reports them: thousands of the fund's functional currency (functional_currency)",
  }),
  percentage_unit: Schema.Literal("percent_of_fund_assets").annotate({ description: "12.5 means 12.5 % of the fund's assets" }),
}).annotate({ identifier: "FiPortfolioMeta" })

export const FiHolding = Schema.Struct({
  market: FiMarket,
  position: Schema.Int.annotate({ description: "Row of the position in the CMF page" }),
  instrument_type: Schema.String,
  nemotecnico: NullableText,
  isin: NullableText.annotate({ description: "E only: ISIN or CUSIP" }),
  issuer_rut: NullableText.annotate({ description: "N only: issuer RUT with check digit" }),
  issuer_name: NullableText.annotate({ description: "E only" }),
  issuer_country: NullableText,
  esf_classification: NullableText,
  maturity_date: NullableText,
  instrument_status: NullableText,
  risk_rating: NullableText,
  business_group: NullableText,
  units: NullableNumber,
  units_type: NullableText,
  rate_or_price: NullableNumber,
  valuation_code: NullableText,
  rate_base_days: NullableNumber,
  interest_type: NullableText,
  valuation_thousands: Schema.Finite.annotate({ description: "Valuation at the close, thousands of the functional currency" }),
  functional_currency: NullableText.annotate({ description: "As the page says it: PESOS, DOLARES, …" }),
  settlement_currency: NullableText,
  transaction_country: NullableText,
  pct_issuer_capital: NullableNumber,
  pct_issuer_assets: NullableNumber,
  pct_fund_assets: NullableNumber.annotate({ description: "Percent of the fund's assets" }),
}).annotate({ identifier: "FiHolding" })

export const FiHoldingList = Schema.Struct({ data: Schema.Array(FiHolding), meta: FiPortfolioMeta }).annotate({
  identifier: "FiHoldingList",
  description: "Positions ordered by weight in the fund's assets (largest first; without a weight last), then market and row",
})

export const FiPortfolioSummaryRow = Schema.Struct({
  instrument_type: Schema.String,
  positions: Schema.Int,
  valuation_national_thousands: Schema.Finite,
  valuation_foreign_thousands: Schema.Finite,
  pct_fund_assets: Schema.Finite.annotate({ description: "Sum of the positions' weights (percent; a missing weight counts 0)" }),
}).annotate({ identifier: "FiPortfolioSummaryRow" })

export const FiPortfolioSummary = Schema.Struct({ data: Schema.Array(FiPortfolioSummaryRow), meta: FiPortfolioMeta }).annotate({
  identifier: "FiPortfolioSummary",
  description: "Positions grouped by instrument type, largest weight first, then type",
})
