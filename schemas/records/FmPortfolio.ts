/**
 * Parsed FM portfolios (data set `fm_portfolio`, CMF `ffm_download.php`, Circular 1333): each
 * fund's holdings at a month's close, national (`NACI`) and foreign (`EXTR`) files.
 */

/** `N`: national issuers (the NACI file); `E`: foreign issuers (the EXTR file). */
export type PortfolioMarket = "N" | "E"

/** One holding of one fund at the close of `month`. */
export interface FmPortfolioRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** The month the file describes (from its name: CMF does not write it), YYYY-MM. */
  readonly month: string
  readonly market: PortfolioMarket
  /** Run Fondo: fund RUN without check digit. */
  readonly run: number
  /** Nombre Fondo, mojibake repaired. */
  readonly fundName: string
  /** Nemotécnico (instrument code). */
  readonly instrumentCode: string
  /** National issuer's RUT without check digit (FFM_6010211); null for foreign holdings or when blank. */
  readonly issuerRut: number | null
  /** Foreign issuer's name (FFM_6020200), mojibake repaired; null for national holdings. */
  readonly issuerName: string | null
  /** Issuer country code (CL, US, …); null when blank. */
  readonly issuerCountry: string | null
  /** CMF instrument type code (DPC, BB, ACC, CFI, ACE, ETFA, CFME, …). */
  readonly instrumentType: string
  /** Maturity, YYYY-MM-DD; null for blank or the "no date" sentinels (99999999, …/9999). */
  readonly maturityDate: string | null
  /** Valuation at the close, in thousands of the fund's functional currency (not pesos). */
  readonly valuationThousands: number
  /** Share of the fund's total assets, percent (2.22 is 2.22 %). */
  readonly fundAssetsPercent: number
}
