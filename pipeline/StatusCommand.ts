/**
 * `./fds pipeline status`: the last run (STATUS.json) and each data set's freshness as a table,
 * the same facts and states as /health's `sources` (snapshots/Status.ts judges both).
 */
import { join } from "node:path"
import { readStatus, type SourceReport, sourceState } from "../snapshots/Status.ts"
import { dataDir, santiagoToday } from "./daemon/RunConfig.ts"
import { readSettings } from "./Settings.ts"

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd()
  return [line(header), ...rows.map(line)].join("\n")
}

/** The status as text; `today` in America/Santiago decides what is late. */
export const statusText = (dataDir: string, today: string): string => {
  const status = readStatus(join(dataDir, "snapshots"))
  if (status === null) return `no pipeline run has written ${join(dataDir, "snapshots", "STATUS.json")} yet`
  const head =
    (status.outcome === "running"
      ? `running since ${status.started_at}${status.process === undefined ? "" : ` (pid ${status.process.pid})`}; the last batch ${status.batch_date ?? "(none)"}`
      : status.outcome === "killed"
        ? `last run: killed (started ${status.started_at}); the last batch ${status.batch_date ?? "(none)"}`
        : `last run: ${status.outcome} ${status.batch_date ?? "(no batch date)"} at ${status.finished_at}`) +
    (status.file === null ? "" : `, serving ${status.file}`) +
    (status.reason === null ? "" : `\n  ${status.reason}`)
  const sources: ReadonlyArray<SourceReport> = status.sources ?? []
  if (sources.length === 0) return `${head}\n(no source report: the last run predates pipeline 0.4, or read no inputs yet)`
  const rows = sources.map((s) => [
    s.data_set,
    sourceState(s, today),
    s.cadence,
    s.latest_value_date ?? "-",
    s.how ?? "-",
    s.last_received_at ?? "-",
  ])
  const waiting = sources.filter((s) => s.waiting !== null).map((s) => `  ${s.data_set}: ${s.waiting}`)
  return [head, "", table(["data set", "state", "cadence", "latest value", "how", "last received"], rows), ...(waiting.length === 0 ? [] : ["", "waiting for a drop:", ...waiting])].join("\n")
}

export const statusCommand = (): void => {
  console.log(statusText(readSettings(dataDir), santiagoToday()))
}
