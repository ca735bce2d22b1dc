/**
 * data/snapshots/STATUS.json: what the last pipeline run (or rollback) did, written atomically by
 * the pipeline at the end of every run and read by the API's /health. It is a report, never an
 * input: deleting it loses nothing but the report (the ledger holds the facts).
 */
import { Option, Schema } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { writeFileAtomic } from "./Files.ts"

export const STATUS = "STATUS.json"

/** How a run ended: a new batch went live, nothing new, refused by content, or failed (source, disk, crash). */
export const RunOutcomeName = Schema.Literals(["published", "unchanged", "rejected", "failed", "rolled_back"])
export type RunOutcomeName = typeof RunOutcomeName.Type

/** The pipeline status file (one JSON object). */
export const PipelineStatus = Schema.Struct({
  outcome: RunOutcomeName,
  /** The batch the run built, kept or was refusing; null when it failed before knowing one. */
  batch_date: Schema.NullOr(Schema.String),
  /** The snapshot file CURRENT names after the run; null when nothing is published. */
  file: Schema.NullOr(Schema.String),
  /** Why it was rejected, failed or held, or what a published batch lacks (its FI/ETF part); null for a plain success. */
  reason: Schema.NullOr(Schema.String),
  started_at: Schema.String,
  finished_at: Schema.String,
  pipeline_version: Schema.String,
})
export type PipelineStatus = typeof PipelineStatus.Type

const decodeStatus = Schema.decodeUnknownOption(PipelineStatus)

export const writeStatus = (snapshotsDir: string, status: PipelineStatus): void =>
  writeFileAtomic(join(snapshotsDir, STATUS), JSON.stringify(status, null, 2) + "\n")

/** The last run's status; null when there is none (no run yet) or the file is not a status. */
export const readStatus = (snapshotsDir: string): PipelineStatus | null => {
  let text: string
  try {
    text = readFileSync(join(snapshotsDir, STATUS), "utf8")
  } catch {
    return null
  }
  try {
    return Option.getOrNull(decodeStatus(JSON.parse(text)))
  } catch {
    return null
  }
}

const santiagoDate = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Santiago",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
})
const HOUR = 3_600_000
const DAY = 24 * HOUR

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

/**
 * The first instant of local date `date` in America/Santiago. Chile changes its clocks at local
 * midnight, so some days begin at 01:00 and some "midnights" happen twice: the answer is found
 * from the zone itself (a binary search by the minute between 00:00 and 06:00 UTC of that date).
 */
export const santiagoStartOf = (date: string): number => {
  let lo = Date.parse(`${date}T00:00:00Z`) // still the day before in Santiago (UTC−3 or −4)
  let hi = lo + 6 * HOUR // already `date`
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000
    if (santiagoDate.format(new Date(mid)) < date) lo = mid
    else hi = mid
  }
  return hi
}

/**
 * When a batch dated `batchDate` becomes stale: `hours` after the end of that date in America/
 * Santiago, not counting the weekend days before the next weekday (CMF publishes no quotas on
 * weekends: Friday's batch is superseded by Monday's, built on Tuesday). Holidays are not known.
 */
export const staleAt = (batchDate: string, hours: number): number => {
  const day = Date.parse(`${batchDate}T00:00:00Z`)
  let weekend = 0
  for (let d = day + DAY; [0, 6].includes(new Date(d).getUTCDay()); d += DAY) weekend++
  return santiagoStartOf(isoDay(day + DAY)) + (hours + 24 * weekend) * HOUR
}

export type HealthState = "ok" | "degraded" | "unavailable"

/**
 * /health's status. Unavailable: nothing serves. Degraded: the last run failed or was rejected,
 * CURRENT names a snapshot the API refused (for longer than `graceMillis`, the time a swap takes),
 * the API found something wrong with CURRENT or the served file (`faults`: CURRENT missing, empty
 * or not a snapshot name, the served file gone from disk or changed, a refused file named), the
 * served batch is stale, or it was published without its FI/ETF part (missing, or failed its
 * checks: the FI routes answer 503). Staleness is judged only where a pipeline reports
 * (STATUS.json exists): a data folder filled by hand or by copy has no schedule to be late against.
 */
export const healthState = (input: {
  /** `fiUnavailable`: the snapshot says (meta `fi_status`) that it lacks its FI/ETF part. */
  readonly served: { readonly batchDate: string; readonly file: string; readonly fiUnavailable?: boolean } | null
  readonly current: { readonly file: string; readonly sinceMillis: number } | null
  /** What the API found wrong with CURRENT or the served file (the causes, as logged). */
  readonly faults?: ReadonlyArray<string>
  readonly status: PipelineStatus | null
  readonly nowMillis: number
  readonly staleAfterHours: number
  readonly graceMillis: number
}): HealthState => {
  if (input.served === null) return "unavailable"
  if (input.served.fiUnavailable === true) return "degraded"
  if (input.faults !== undefined && input.faults.length > 0) return "degraded"
  const status = input.status
  if (status !== null && (status.outcome === "failed" || status.outcome === "rejected")) return "degraded"
  const c = input.current
  if (c !== null && c.file !== input.served.file && input.nowMillis - c.sinceMillis > input.graceMillis) return "degraded"
  if (status !== null && input.nowMillis > staleAt(input.served.batchDate, input.staleAfterHours)) return "degraded"
  return "ok"
}
