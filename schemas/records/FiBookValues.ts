/** One row of a fund's CMF values tab (`entidad.php … pestania=7`): one series on one date. */

export interface FiBookValueRecord {
  /** Row of the values table (1 = its header row). */
  readonly line: number
  /** Fund RUN (from the page heading) without check digit. */
  readonly run: number
  /** YYYY-MM-DD */
  readonly date: string
  readonly serie: string
  /** "Moneda" as written (the sample writes ISO codes: CLP, USD, COP). */
  readonly currencyCode: string
  /** Valor libro of the quota, > 0: the FI price (`price_basis` = `valor_libro`). */
  readonly bookValue: number
  /** Valor económico of the quota. */
  readonly economicValue: number | null
  /** Patrimonio neto of the series, in the fund's currency. */
  readonly patrimony: number | null
  /** Activo total of the fund, in the fund's currency. */
  readonly totalAssets: number | null
  /** Number of aportantes (holders). */
  readonly holders: number | null
  readonly institutionalHolders: number | null
  /** "Agencia", as written; null when blank. */
  readonly agency: string | null
}
