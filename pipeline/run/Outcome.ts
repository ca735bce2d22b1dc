/** How a batch run ends: published, unchanged, or rejected. */
import { Schema } from "effect"
import type { SourceReport } from "../../snapshots/Status.ts"
import type { WaitingDataSet } from "../Collect.ts"

/** What every successful run reports beside its outcome: each data set's freshness, and what waits for a drop. */
interface RunReport {
  /** Null when the run did not read its inputs (held by a rollback): STATUS.json keeps the last report. */
  readonly sources: ReadonlyArray<SourceReport> | null
  /** Data sets not fetched unattended this run, and why (said once per run). */
  readonly waiting: ReadonlyArray<WaitingDataSet>
}

export type RunOutcome = RunReport &
  (
    | {
        readonly outcome: "published"
        readonly batchDate: string
        readonly file: string
        readonly contentHash: string
        readonly rowCounts: Record<string, number>
        /** Why the batch went out without its FI/ETF part (those routes answer 503), or null. */
        readonly fiUnavailable: string | null
      }
    | { readonly outcome: "unchanged"; readonly batchDate: string; readonly file: string; readonly note?: string }
  )

/** The batch was refused; CURRENT still names the previous snapshot. */
export class BatchRejectedError extends Schema.TaggedError<BatchRejectedError>()("BatchRejectedError", {
  reason: Schema.String,
  /** content: the inputs were refused; source: the CMF could not be read (a retry may help); build: writing failed (disk). */
  kind: Schema.Literals(["content", "source", "build"]),
  batchDate: Schema.NullOr(Schema.String),
}) {}
