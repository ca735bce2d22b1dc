/**
 * What a run is asked to do: where its data folder is, where its raw files come from, the batch
 * date, and the settings of its fetchers. Read from the environment by daemon/RunConfig.ts and
 * handed to Pipeline.ts, so the settings need not know the run.
 */
import { join } from "node:path"
import type { Progress } from "./Load.ts"
import type { CaptchaSolver } from "./fetch/CaptchaSolver.ts"
import type { FetchOptions } from "./fetch/CmfHttp.ts"
import type { IndicatorFetcher } from "./fetch/IndicatorFetch.ts"

/** Where raw files come from: a folder of drops, or the CMF over HTTP. */
export type Source =
  | { readonly kind: "folder"; readonly path: string }
  | { readonly kind: "http"; readonly baseUrl: string }

export interface RunOptions {
  readonly dataDir: string
  readonly sources: ReadonlyArray<Source>
  /** Batch date; default: the latest quota date in the inputs. */
  readonly date?: string | undefined
  /** Today in America/Santiago: no batch or row may be dated later. */
  readonly today: string
  readonly historyStart: string
  readonly fetch: FetchOptions
  /** Snapshot files kept: the last N batch dates plus every month's last (manifests stay forever). */
  readonly retentionDays?: number | undefined
  /** Closed months of FM portfolios fetched over HTTP (default 12). */
  readonly portfolioMonths?: number | undefined
  /** Solves the cartola form's captcha (FDS_CAPTCHA_COMMAND); absent or null: the cartola waits for a drop. */
  readonly captcha?: CaptchaSolver | null | undefined
  /** UF and dólar from the CMF API or SIETE; absent or null: they wait for a drop. */
  readonly indicators?: IndicatorFetcher | null | undefined
  /** The coverage gate: the least share of the served batch's active series the new day must cover (FDS_COVERAGE_MIN, default 0.9; 0: off). */
  readonly coverageMin?: number | undefined
  /** Weekdays of the daily BPR report fetched when none is recorded yet (FDS_BPR_DAYS, default 10; 0: not fetched). */
  readonly bprDays?: number | undefined
  /** Build the day from the previous published batch's snapshot when that is safe (increment/Increment.ts; FDS_INCREMENT, default true). */
  readonly increment?: boolean | undefined
  readonly progress?: Progress | undefined
}

/** Where a run keeps its stores and snapshots in its data folder. */
export const paths = (dataDir: string) => ({
  raw: join(dataDir, "raw"),
  ledger: join(dataDir, "ledger.sqlite"),
  snapshots: join(dataDir, "snapshots"),
})
