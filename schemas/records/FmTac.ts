/**
 * Parsed FM TAC (data set `fm_tac`, CMF `fmdfm_excel2.php`): the annual cost ratio of each series
 * for one month. CMF publishes no RUN: staging matches a row to its fund by normalised fund and
 * administrator name. Percentages are kept as CMF writes them (2.5 is 2.5 %), not as fractions.
 */

/** One series of one fund in the monthly TAC table. */
export interface FmTacRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** Periodo: the month-end the TAC refers to, YYYY-MM-DD. */
  readonly period: string
  /** The month of `period`, YYYY-MM. */
  readonly month: string
  /** Administradora, mojibake repaired. */
  readonly agfName: string
  /** Nombre Fondo, mojibake repaired, as published (a trailing "(2)" included). */
  readonly fundName: string
  /** Tipo Fondo: CMF fund type 1–8; null when blank. */
  readonly fundType: number | null
  /** Moneda, raw. */
  readonly currency: string
  readonly serie: string
  /** Características of the series (minimum amount, APV, …); null when blank or NA. */
  readonly characteristics: string | null
  /** Remuneración Fija as published text (e.g. "Hasta 2,38% anual IVA incluido"); null when blank or NA. */
  readonly fixedFeeText: string | null
  /** Remuneración Variable as published text; null when blank or NA. */
  readonly variableFeeText: string | null
  /** Gastos de Operación as published text; null when blank or NA. */
  readonly operatingExpensesText: string | null
  /** TAC Remuneración Fija, percent; null when NA or blank. */
  readonly tacFixedFeePercent: number | null
  /** TAC Remuneración Variable, percent; null when NA or blank. */
  readonly tacVariableFeePercent: number | null
  /** TAC Gastos de Operación, percent; null when NA or blank. */
  readonly tacOperatingExpensesPercent: number | null
  /** TAC Total, percent; null when NA or blank (the series has no TAC). */
  readonly tacTotalPercent: number | null
  /** Condición Comisión Colocación; null when blank or NA. */
  readonly placementFeeCondition: string | null
  /** Comisión Colocación (subscription fee) as text; null when blank or NA. */
  readonly placementFeeText: string | null
  /** Condición Comisión Diferida; null when blank or NA. */
  readonly deferredFeeCondition: string | null
  /** Comisión Diferida (redemption fee) as text; null when blank or NA. */
  readonly deferredFeeText: string | null
}
