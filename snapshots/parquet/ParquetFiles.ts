/**
 * Where a batch's Parquet files live and what they are called: a folder beside its snapshot,
 * `<snapshots>/<batch id>.parquet/`, holding `days-<YYYY>.parquet` (one per year of daily values),
 * `series.parquet`, `returns.parquet`, `tac.parquet`, `holdings.parquet`, and the investment funds'
 * `fi_series.parquet`, `fi_values.parquet` and `fi_holdings.parquet`. The folder is put in
 * place whole (snapshots/parquet/WriteParquet.ts), so a folder under that name is a finished one.
 */
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"

/** The name of a Parquet file of a batch; nothing else is served from its folder. */
export const PARQUET_FILE = /^(days-\d{4}|series|returns|tac|holdings|fi_series|fi_values|fi_holdings)\.parquet$/

/** The folder of a batch's Parquet files. */
export const parquetDir = (snapshotsDir: string, batchId: string): string => join(snapshotsDir, `${batchId}.parquet`)

/** The name a release gives a Parquet file: its path under the snapshots folder. */
export const parquetReleaseName = (batchId: string, file: string): string => `${batchId}.parquet/${file}`

/** The batch's Parquet files, by name (none when the batch has no folder). */
export const parquetFiles = (snapshotsDir: string, batchId: string): string[] => {
  const dir = parquetDir(snapshotsDir, batchId)
  return existsSync(dir) ? readdirSync(dir).filter((f) => PARQUET_FILE.test(f)).sort() : []
}
