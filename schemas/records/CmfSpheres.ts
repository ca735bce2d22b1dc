/** Parsed CMF comparator "esferas" (data set `cmf_spheres`): the official 1–5 rating of a series within its group. */

/** One series as the CMF fund comparator shows it on `date`. */
export interface CmfSpheresRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** Fund RUN without check digit. */
  readonly run: number
  readonly serie: string
  /** Official comparison family (FAMILIA), mojibake repaired, never empty. */
  readonly family: string
  /** Official investor type (TIPO_INVERSIONISTA), mojibake repaired, never empty. */
  readonly investorType: string
  /** 1–5; null when CMF shows no spheres for the series (not rated). */
  readonly spheres: number | null
  /** FECHA: the comparator's cutoff, YYYY-MM-DD. */
  readonly date: string
}
