/**
 * What the answers of `/api/real_assets/{asset_id}/*` add for an FI/ETF id (a UUID asset_id) to the
 * FM shape (docs/fi.md "FI/ETF ids on /api/real_assets"). Every field here is an optional key: present
 * exactly when the asset_id is an FI/ETF UUID, absent for FM series, so FM clients see no change.
 */
import { Schema } from "effect"
import { TacStatus } from "./FiStatus.ts"

const FI_ONLY = "Present for FI/ETF ids (UUID asset_id) only, absent for FM series."

const PriceSource = Schema.Literal("cmf").annotate({
  description: `${FI_ONLY} Where the prices come from: cmf, the CMF's daily FI/ETF book values`,
})
const PriceBasis = Schema.Literal("valor_libro").annotate({
  description: `${FI_ONLY} Which price of the quota: valor_libro, its book value (not a market close)`,
})
const AccountingCurrency = Schema.NullOr(Schema.String).annotate({
  description: `${FI_ONLY} The instrument's accounting currency as CMF writes it (CLP, USD, EUR, COP…)`,
})

/** `/days`: each item's currency and price kind. */
export const FiDayFields = {
  currency: Schema.optionalKey(AccountingCurrency),
  price_source: Schema.optionalKey(PriceSource),
  price_basis: Schema.optionalKey(PriceBasis),
}

/** `/days` meta: the series that answered (an instrument UUID resolves to its main series). */
export const FiDaysMetaFields = {
  serie_id: Schema.optionalKey(
    Schema.String.annotate({
      description: `${FI_ONLY} UUID of the series whose book values these are (an instrument UUID answers for its main series)`,
    }),
  ),
}

/** `/returns` (price basis, accounting or converted): where the book values come from. */
export const FiReturnFields = {
  price_source: Schema.optionalKey(PriceSource),
  price_basis: Schema.optionalKey(PriceBasis),
  accounting_currency: Schema.optionalKey(AccountingCurrency),
}

/** `/risk_metrics`: the figures are computed on the book values. */
export const FiRiskFields = {
  price_basis: Schema.optionalKey(PriceBasis),
}

/** `/expense_ratio`: the fact sheet's TAC status and the source of the figure. */
export const FiExpenseRatioFields = {
  // The status schema is a named component: its description goes on the key, not on the shared $ref.
  tac_status: Schema.optionalKey(TacStatus).annotateKey({
    description: `${FI_ONLY} The fact sheet's TAC status at the FI cutoff; expense_ratio is non-null only when it is available`,
  }),
  source: Schema.optionalKey(
    Schema.Literal("cmf_fact_sheet").annotate({ description: `${FI_ONLY} The TAC comes from the CMF fact sheet (ficha), as reviewed` }),
  ),
}
