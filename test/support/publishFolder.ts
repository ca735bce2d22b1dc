/**
 * One batch published by the real pipeline from a folder of CMF files (a drop), for the tests and
 * benches that write their own files and publish them day by day: runPipelineLive into `dataDir`
 * with today 2026-11-22. The settings a caller leaves out are the webhooks' and alerts' (history
 * from 2026-01-01, fetches of 2000 ms, no retries, a 10 ms retry base, the pipeline's own
 * retention and coverage gate); a caller that needs others says so in `options`.
 */
import { Effect } from "effect"
import type { Published } from "../../pipeline/daemon/Daemon.ts"
import { runPipelineLive } from "../../pipeline/Pipeline.ts"
import type { RunOptions } from "../../pipeline/RunOptions.ts"

/** What a caller may set differently: the history start, the fetch settings, the retention and the coverage gate. */
export type PublishFolderOptions = Partial<Pick<RunOptions, "historyStart" | "fetch" | "retentionDays" | "coverageMin">>

/** Publishes the batch of `date` from the files in `source`; throws unless the run published. */
export const publishFolder = async (dataDir: string, source: string, date: string, options: PublishFolderOptions = {}): Promise<Published> => {
  const outcome = await Effect.runPromise(
    runPipelineLive({
      dataDir,
      sources: [{ kind: "folder", path: source }],
      date,
      today: "2026-11-22",
      historyStart: "2026-01-01",
      fetch: { timeoutMillis: 2000, retries: 0, retryBaseMillis: 10 },
      ...options,
    }),
  )
  if (outcome.outcome !== "published") throw new Error(`the batch of ${date} was not published: ${JSON.stringify(outcome)}`)
  return outcome
}
