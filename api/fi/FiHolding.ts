/** One FI portfolio position as the API shows it: the `fi_holdings` columns plus the reported fields kept in `body`. */
import { formatRun } from "../../schemas/Ids.ts"
import type { FiHoldingsTable } from "../../snapshots/tables/Fi.ts"

const text = (v: unknown): string | null => (typeof v === "string" ? v : null)
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null)

export const fiHolding = (h: FiHoldingsTable) => {
  // `body` is the pipeline's JSON of the parsed record (pipeline/datasets/fi/FiPortfolio.ts field names).
  const b = JSON.parse(h.body) as Record<string, unknown>
  const rut = num(b.issuerRut)
  return {
    market: h.market as "N" | "E",
    position: h.position,
    instrument_type: h.instrument_type,
    nemotecnico: text(b.nemotecnico),
    isin: text(b.isin),
    issuer_rut: rut === null ? null : formatRun(rut),
    issuer_name: text(b.issuerName),
    issuer_country: text(b.issuerCountry),
    esf_classification: text(b.esfClassification),
    maturity_date: text(b.maturityDate),
    instrument_status: text(b.instrumentStatus),
    risk_rating: text(b.riskRating),
    business_group: text(b.businessGroup),
    units: num(b.units),
    units_type: text(b.unitsType),
    rate_or_price: num(b.rateOrPrice),
    valuation_code: text(b.valuationCode),
    rate_base_days: num(b.rateBaseDays),
    interest_type: text(b.interestType),
    valuation_thousands: h.valuation_thousands,
    functional_currency: text(b.functionalCurrency),
    settlement_currency: text(b.settlementCurrency),
    transaction_country: text(b.transactionCountry),
    pct_issuer_capital: num(b.pctOfIssuerCapital),
    pct_issuer_assets: num(b.pctOfIssuerAssets),
    pct_fund_assets: h.pct_fund_assets,
  }
}
