/** One position of a fund's quarterly IFRS portfolio page (`ifrs_cartera_{nac,ext}.php`). */
import { Schema } from "effect"

/** N: national portfolio (`ifrs_cartera_nac`), E: foreign (`ifrs_cartera_ext`). */
export const FiPortfolioMarket = Schema.Literals(["N", "E"]).annotate({
  description: "N national portfolio, E foreign portfolio"
})
export type FiPortfolioMarket = typeof FiPortfolioMarket.Type

/**
 * Amounts are in thousands of the fund's functional currency, percentages in percent (12.5 = 12.5 %).
 * Columns only one of the two tables has are null on the other's rows.
 */
export interface FiPortfolioRecord {
  /** Row of the portfolio table (1 = its header row). */
  readonly line: number
  /** Fund RUN (from the page heading) without check digit. */
  readonly run: number
  /** Quarter end, YYYY-MM (from the page heading). */
  readonly period: string
  /** From which table the page has. */
  readonly market: FiPortfolioMarket
  /** "Cifras expresadas en miles de: PESOS" → "PESOS"; null when the page does not say. */
  readonly functionalCurrency: string | null
  /** "Clasif. del Instr. en ESF" / "Clasif del Instrumento en ESF". */
  readonly esfClassification: string
  /** E only: "Código ISIN o CUSIP". */
  readonly isin: string | null
  readonly nemotecnico: string | null
  /** N only: "Rut Emisor", body without check digit. */
  readonly issuerRut: number | null
  /** E only: "Nombre del emisor". */
  readonly issuerName: string | null
  /** "Cod. País". */
  readonly issuerCountry: string | null
  readonly instrumentType: string
  /** YYYY-MM-DD; null when blank or 9999 (no maturity). */
  readonly maturityDate: string | null
  readonly instrumentStatus: string | null
  readonly riskRating: string | null
  /** "Grupo Empresarial" (N) / "Nombre Grupo Empr." (E). */
  readonly businessGroup: string | null
  readonly units: number | null
  readonly unitsType: string | null
  /** "TIR, Valor par o Precio". */
  readonly rateOrPrice: number | null
  /** "Código Valolización" (CMF's spelling). */
  readonly valuationCode: string | null
  readonly rateBaseDays: number | null
  readonly interestType: string | null
  /** "Valolización al Cierre", thousands of the functional currency. */
  readonly valuationThousands: number
  readonly settlementCurrency: string | null
  readonly transactionCountry: string | null
  readonly pctOfIssuerCapital: number | null
  readonly pctOfIssuerAssets: number | null
  /** "% Tot. Activo del Fondo" (`percentage_unit` = `percent_of_fund_assets`). */
  readonly pctOfFundAssets: number | null
}
