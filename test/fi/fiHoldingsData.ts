/**
 * Portfolio positions of the FI test snapshot (values chosen here; weights are exact binary
 * fractions so sums are exact). `body` holds the reported fields under the parsed record's names
 * (pipeline/datasets/fi/FiPortfolio.ts), as the pipeline stores them.
 *
 * 9251: 2025-06 N (ACC 30.25 %, BB 40.5 %) + E (ACC 20 %); 2025-09 N only (BB 35.5 %, ACC 25.25 %,
 *       DPF without weight). 7003: 2025-09 E only (ETFA 99.5 %). 7010 and the others: none.
 */
import type { FiHoldingsTable } from "../../snapshots/tables/Fi.ts"

export interface PositionFields {
  readonly instrumentType: string
  readonly valuationThousands: number
  readonly pctOfFundAssets: number | null
  readonly nemotecnico?: string | null
  readonly isin?: string | null
  readonly issuerRut?: number | null
  readonly issuerName?: string | null
  readonly issuerCountry?: string | null
  readonly functionalCurrency?: string | null
}

const NULL_BODY = {
  functionalCurrency: null,
  esfClassification: "VRCR",
  isin: null,
  nemotecnico: null,
  issuerRut: null,
  issuerName: null,
  issuerCountry: null,
  maturityDate: null,
  instrumentStatus: null,
  riskRating: null,
  businessGroup: null,
  units: null,
  unitsType: null,
  rateOrPrice: null,
  valuationCode: null,
  rateBaseDays: null,
  interestType: null,
  settlementCurrency: null,
  transactionCountry: null,
  pctOfIssuerCapital: null,
  pctOfIssuerAssets: null,
}

const position = (run: number, period: string, market: "N" | "E", n: number, f: PositionFields): FiHoldingsTable => ({
  run,
  period,
  market,
  position: n,
  body: JSON.stringify({ ...NULL_BODY, ...f }),
  valuation_thousands: f.valuationThousands,
  pct_fund_assets: f.pctOfFundAssets,
  instrument_type: f.instrumentType,
})

const pesos = { functionalCurrency: "PESOS", issuerCountry: "CL" }

export const HOLDINGS: ReadonlyArray<FiHoldingsTable> = [
  position(9251, "2025-06", "N", 1, { ...pesos, instrumentType: "ACC", valuationThousands: 630_000, pctOfFundAssets: 30.25, nemotecnico: "FALABELLA", issuerRut: 90749000 }),
  position(9251, "2025-06", "N", 2, { ...pesos, instrumentType: "BB", valuationThousands: 850_500, pctOfFundAssets: 40.5, nemotecnico: "BCHI-A1" }),
  position(9251, "2025-06", "E", 1, { functionalCurrency: "PESOS", instrumentType: "ACC", valuationThousands: 420_000, pctOfFundAssets: 20, isin: "US0378331005", issuerName: "APPLE INC", issuerCountry: "US" }),
  position(9251, "2025-09", "N", 1, { ...pesos, instrumentType: "BB", valuationThousands: 746_000, pctOfFundAssets: 35.5, nemotecnico: "BCHI-A2", issuerRut: 97004000 }),
  position(9251, "2025-09", "N", 2, { ...pesos, instrumentType: "ACC", valuationThousands: 531_000, pctOfFundAssets: 25.25, nemotecnico: "FALABELLA" }),
  position(9251, "2025-09", "N", 3, { ...pesos, instrumentType: "DPF", valuationThousands: 100_000, pctOfFundAssets: null, nemotecnico: "DPF-BCI" }),
  position(7003, "2025-09", "E", 1, { functionalCurrency: "DOLARES", instrumentType: "ETFA", valuationThousands: 12_000, pctOfFundAssets: 99.5, isin: "US4642871846", issuerName: "ISHARES", issuerCountry: "US" }),
]
