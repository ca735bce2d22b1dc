/**
 * Parsed daily BPR (data set `fm_bpr_daily`, CMF `fm.fm_bpr_dia.php`): patrimony, participants and
 * quota value of every series of every mutual fund on one day, without a captcha. The CMF writes
 * the patrimony in millions; here it is in units of the fund's currency, like the cartola's.
 */

/** One series of one fund on the report's day. */
export interface FmBprDailyRecord {
  /** The sheet's row (an HTML table's row) the series was read from. */
  readonly line: number
  /** The report's day (its "Fecha : 1 DE DICIEMBRE DE 2014" line), YYYY-MM-DD. */
  readonly date: string
  /** Fund name as published (short), mojibake repaired. */
  readonly fundName: string
  /** Fund RUN without check digit (the check digit was verified). */
  readonly run: number
  /** CMF fund type 1–8 ("Tipo de fondo"). */
  readonly fundType: number
  /** Administradora; null when the report leaves it blank (it does when asked for all of them). */
  readonly agfName: string | null
  readonly serie: string
  /** The currency as the cartola codes it: "$$" (PESOS), "PROM" (DOLAR), "EUR" (EURO). */
  readonly currencyCode: string
  /** Patrimony of the series in units of its currency (the CMF's millions × 1,000,000). */
  readonly patrimony: number
  /** Número de partícipes. */
  readonly holders: number
  /** Valor cuota, > 0. */
  readonly price: number
}
