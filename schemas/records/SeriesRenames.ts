/**
 * Parsed series renames (data set `series_renames`, our curated file): CMF has no link between a
 * series' old and new label, so observed relabels are listed by hand.
 */

/** One relabel: from `firstDate` on, the series `oldSerie` of fund `run` is published as `newSerie`. */
export interface SeriesRenameRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** Fund RUN without check digit. */
  readonly run: number
  readonly oldSerie: string
  readonly newSerie: string
  /** First date observed with the new label, YYYY-MM-DD. */
  readonly firstDate: string
}
