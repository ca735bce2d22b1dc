/**
 * Parsed CMF records: what the source parsers (`pipeline/sources/`) hand to staging.
 * Values are as CMF publishes them (fund currency, raw currency codes, daily amounts); no I/O here.
 */
import { Schema } from "effect"

/** The raw data sets the pipeline recognises by their header line. */
export const DataSetName = Schema.Literals([
  "fm_registry",
  "cartola_diaria",
  "fm_tac",
  "fm_portfolio",
  "fi_registry",
  "fi_book_values",
  "fi_portfolio",
  "indicators",
  "afm_categories",
  "benchmark_catalog",
  "benchmark_prices",
  "cmf_spheres",
  "article107",
  "fi_fact_sheets",
  "etf_tickers",
  "series_renames",
  "fm_bpr_daily",
]).annotate({
  description: "A raw data set the pipeline recognises by its header or content signature (CMF-SOURCES.md)",
})
export type DataSetName = typeof DataSetName.Type

/** One fund of the FM registry (`fm_ident2.php`), deduplicated by RUN. */
export interface FmRegistryRecord {
  /** 1-based line in the file of the first occurrence. */
  readonly line: number
  /** Administrator RUT without check digit. */
  readonly agfRut: number
  readonly agfName: string
  /** Fund RUN without check digit. */
  readonly run: number
  readonly fundName: string
  readonly shortName: string
  /** CMF fund type 1–8 ("Tipo de Fondo Mutuo"); null when blank. */
  readonly fundType: number | null
  /** Fecha Inicio Operaciones, YYYY-MM-DD. */
  readonly startDate: string | null
  /** Fecha Término Operaciones, YYYY-MM-DD; null while the fund is active. */
  readonly endDate: string | null
  /** Raw CMF code: "$$" (CLP), "PROM" (USD), "EUR", ... */
  readonly currencyCode: string
}

/**
 * One row of the daily cartola: one series of one fund on one date.
 * Amounts are in the fund's currency; the cost columns are daily amounts, not rates.
 */
export interface CartolaRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** RUN_ADM: administrator RUT without check digit. */
  readonly agfRut: number
  /** NOM_ADM, mojibake repaired. */
  readonly agfName: string
  /** RUN_FM: fund RUN without check digit. */
  readonly run: number
  /** FECHA_INF as YYYY-MM-DD. */
  readonly date: string
  readonly serie: string
  /** MONEDA, raw: "$$" | "PROM" | "EUR" | ... */
  readonly currencyCode: string
  /** ACTIVO_TOT (fund level, repeated on each series row). */
  readonly totalAssets: number | null
  /** VALOR_CUOTA, always > 0. */
  readonly price: number
  /** PATRIMONIO_NETO of the series. */
  readonly patrimony: number | null
  /** NUM_PARTICIPES. */
  readonly holders: number | null
  /** NUM_PARTICIPES_INST. */
  readonly institutionalHolders: number | null
  /** CUOTAS_EN_CIRCULACION. */
  readonly unitsOutstanding: number | null
  /** CUOTAS_APORTADAS (subscribed that day). */
  readonly unitsSubscribed: number | null
  /** CUOTAS_RESCATADAS (redeemed that day). */
  readonly unitsRedeemed: number | null
  /** FACTOR DE AJUSTE; null when blank (normal days: treat as 1). */
  readonly factorAjuste: number | null
  /** FACTOR DE REPARTO; null when blank. FR = dividend per unit / VALOR_CUOTA + 1. */
  readonly factorReparto: number | null
  /** REM_FIJA: fixed management fee charged that day. */
  readonly fixedFee: number | null
  /** REM_VARIABLE: variable management fee charged that day. */
  readonly variableFee: number | null
  /** GASTOS_AFECTOS: expenses subject to VAT. */
  readonly expensesSubjectToVat: number | null
  /** GASTOS_NO_AFECTOS: expenses exempt from VAT. */
  readonly expensesExemptFromVat: number | null
  /** COMISION_INVERSION: subscription commissions charged that day. */
  readonly subscriptionFee: number | null
  /** COMISION_RESCATE: redemption commissions charged that day. */
  readonly redemptionFee: number | null
  /** INVERSION_EN_FONDOS. */
  readonly investmentInFunds: number | null
  /** PARTICIPES_INST (S/N); null when blank. */
  readonly hasInstitutionalHolders: boolean | null
  /** FONDO_PEN (S/N); null when blank. */
  readonly pensionFund: boolean | null
}
