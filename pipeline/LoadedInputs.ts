/**
 * A batch's inputs once loaded (Load.ts's loadInputs): each data set's files, and what they say
 * of the batch before anything is staged (the increment plans from it: increment/Increment.ts).
 */
import type { DataSetName } from "./datasets/DataSetName.ts"
import type { LoadedFile } from "./datasets/LoadedFile.ts"

/** The loaded files of a batch, by data set, and the dates and repairs they hold. */
export interface LoadedInputs {
  /** The loaded files of each data set, in the ledger's order; each file's data is read when it is staged. */
  readonly files: ReadonlyMap<DataSetName, ReadonlyArray<LoadedFile>>
  /** Why the FI/ETF part is unavailable in this batch; null when it is available. */
  readonly fiUnavailable: string | null
  readonly repairs: Record<string, number>
  /** The first and latest value dates of the daily-values data sets, YYYY-MM-DD; null when they hold no rows. */
  readonly firstQuotaDate: string | null
  readonly latestQuotaDate: string | null
  /** The file that holds the latest (named when it is refused, e.g. a date after today), with its data set. */
  readonly latestQuotaFile: { readonly dataSet: DataSetName; readonly name: string } | null
  /** Milliseconds loading took, by data set (parse or parse cache), and in the full GCs that pace parsing. */
  readonly loadMs?: { readonly byDataSet: Readonly<Record<string, number>>; readonly gc: number }
}
