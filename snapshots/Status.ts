/**
 * data/snapshots/STATUS.json: what the last pipeline run (or rollback) did, written atomically by
 * the pipeline when a run starts (`running`, with its process) and when it ends, and read by the
 * API's /health and `./fds pipeline status`. A `running` status whose run is gone (killed by the
 * kernel, out of memory, SIGKILL, the machine stopped) is read as `killed` (RunLiveness.ts). It is
 * a report, never an input: deleting it loses nothing but the report (the ledger holds the facts).
 */
import { Option, Schema } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { writeFileAtomic } from "./Files.ts"
import { runIsGone } from "./RunLiveness.ts"

export const STATUS = "STATUS.json"

/**
 * How a run ended: a new batch went live, nothing new, refused by content, failed (source, disk,
 * crash), or killed before it could say (found by the next reader); `running` while it works.
 */
export const RunOutcomeName = Schema.Literals(["published", "unchanged", "rejected", "failed", "rolled_back", "running", "killed"])
export type RunOutcomeName = typeof RunOutcomeName.Type

/** How often a data set's values come: what "late" means for it. */
export const SourceCadence = Schema.Literals(["daily", "monthly", "quarterly", "irregular"])
export type SourceCadence = typeof SourceCadence.Type

/** One data set's freshness, as the run that wrote STATUS.json saw its inputs. */
export const SourceReport = Schema.Struct({
  data_set: Schema.String,
  cadence: SourceCadence,
  /** How its newest input came: fetched from the CMF (or an API), or dropped into the inbox; null: no input. */
  how: Schema.NullOr(Schema.Literals(["fetched", "dropped"])),
  /** The latest date its values are of (a monthly file: its month's last day); null: no input, or undated. */
  latest_value_date: Schema.NullOr(Schema.String),
  /** When its newest input was first recorded (ISO instant); null: no input. */
  last_received_at: Schema.NullOr(Schema.String),
  /** Why it is not fetched unattended (no captcha command, no API key); null when it is fetched or only ever dropped. */
  waiting: Schema.NullOr(Schema.String),
})
export type SourceReport = typeof SourceReport.Type

/** The process of a run: who `running` and `killed` speak of (the pipeline lock names the same owner while it lives). */
export const RunProcess = Schema.Struct({
  pid: Schema.Number,
  /** Field 22 of /proc/<pid>/stat (the lock's owner line); null when unknown. */
  start_time: Schema.NullOr(Schema.String),
  /** /proc/sys/kernel/random/boot_id; null when unknown. */
  boot_id: Schema.NullOr(Schema.String),
  /** The pid namespace (readlink /proc/self/ns/pid): only a reader in the same one may look the pid up. */
  pid_namespace: Schema.NullOr(Schema.String),
})
export type RunProcess = typeof RunProcess.Type

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
  /** Null while it is running, and for a run killed before it could finish. */
  finished_at: Schema.NullOr(Schema.String),
  pipeline_version: Schema.String,
  /** The run's process (written with `running`; absent in a status written before pipeline 0.7, and for a rollback). */
  process: Schema.optional(RunProcess),
  /** Each data set's freshness (absent in a status written before pipeline 0.4). */
  sources: Schema.optional(Schema.Array(SourceReport)),
})
export type PipelineStatus = typeof PipelineStatus.Type

const decodeStatus = Schema.decodeUnknownOption(PipelineStatus)

export const writeStatus = (snapshotsDir: string, status: PipelineStatus): void =>
  writeFileAtomic(join(snapshotsDir, STATUS), JSON.stringify(status, null, 2) + "\n")

/**
 * The last run's status as it is now: a `running` one whose process is gone is `killed` (its
 * reason says so); null when there is none (no run yet) or the file is not a status.
 */
export const readStatus = (snapshotsDir: string): PipelineStatus | null => {
  const status = readStatusFile(snapshotsDir)
  if (status?.outcome !== "running" || status.process === undefined) return status
  return runIsGone(join(snapshotsDir, ".."), status.process) ? killedStatus(status) : status
}

/** `status` (a run that never finished) as the killed run it was. */
export const killedStatus = (status: PipelineStatus, cause?: string): PipelineStatus => ({
  ...status,
  outcome: "killed",
  finished_at: null,
  reason:
    `the run started at ${status.started_at}${status.process === undefined ? "" : ` (pid ${status.process.pid})`} ended without finishing: ` +
    (cause ?? "killed (out of memory, SIGKILL, or the machine stopped); CURRENT names what it named before, or the batch it had published"),
})

/** STATUS.json as written, not judged (a `running` run may be gone). */
export const readStatusFile = (snapshotsDir: string): PipelineStatus | null => {
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
export interface HealthInput {
  /** `fiUnavailable`: the snapshot says (meta `fi_status`) that it lacks its FI/ETF part. */
  readonly served: { readonly batchDate: string; readonly file: string; readonly fiUnavailable?: boolean } | null
  readonly current: { readonly file: string; readonly sinceMillis: number } | null
  /** What the API found wrong with CURRENT or the served file (the causes, as logged). */
  readonly faults?: ReadonlyArray<string>
  readonly status: PipelineStatus | null
  readonly nowMillis: number
  readonly staleAfterHours: number
  readonly graceMillis: number
}

/**
 * The last run's failure, for /health (also while nothing is served): failed, rejected or killed.
 * Not its reason: /health is public, and a run's reason can quote a command's stderr, a URL or a
 * server path. Ops read it in STATUS.json or with `./fds pipeline status`.
 */
export const runReason = (status: PipelineStatus | null): string | null => {
  if (status === null || (status.outcome !== "failed" && status.outcome !== "rejected" && status.outcome !== "killed")) return null
  const when = status.outcome === "killed" ? `started ${status.started_at}` : (status.finished_at ?? status.started_at)
  const what = status.outcome === "killed" ? "killed before it finished" : status.outcome
  return `the last pipeline run (${when}) was ${what}: see STATUS.json or ./fds pipeline status`
}

/** Why /health is not `ok`, one sentence a cause (empty: ok, or nothing served). */
export const healthReasons = (input: HealthInput): string[] => {
  const reasons: string[] = [...(input.faults ?? [])]
  if (input.served === null) return reasons.length > 0 ? reasons : ["nothing is published yet"]
  if (input.served.fiUnavailable === true) reasons.push("the served batch was published without its FI/ETF part: the FI routes answer 503")
  const status = input.status
  const run = runReason(status)
  if (run !== null) reasons.push(run)
  const c = input.current
  if (c !== null && c.file !== input.served.file && input.nowMillis - c.sinceMillis > input.graceMillis) {
    reasons.push(`CURRENT names ${c.file}, which is not served (refused, or still being checked)`)
  }
  if (status !== null && input.nowMillis > staleAt(input.served.batchDate, input.staleAfterHours)) {
    reasons.push(`the served batch ${input.served.batchDate} is stale: older than ${input.staleAfterHours} h after its day (weekends not counted)`)
  }
  return reasons
}

/** ok or degraded (with `healthReasons`), or unavailable when nothing serves. */
export const healthState = (input: HealthInput): HealthState =>
  input.served === null ? "unavailable" : healthReasons(input).length > 0 ? "degraded" : "ok"

export type SourceState = "fresh" | "late" | "waiting" | "missing"

/** `date` (YYYY-MM-DD) minus `n` weekdays (holidays are not known). */
export const weekdaysBefore = (date: string, n: number): string => {
  let d = Date.parse(`${date}T00:00:00Z`)
  for (let left = n; left > 0; ) {
    d -= DAY
    if (![0, 6].includes(new Date(d).getUTCDay())) left--
  }
  return isoDay(d)
}

/** The last day of the month `months` before the month of `date`. */
const monthEndBefore = (date: string, months: number): string => {
  const y = Number(date.slice(0, 4))
  const m = Number(date.slice(5, 7)) - months
  return isoDay(Date.UTC(y, m, 0))
}

/**
 * The oldest latest-value date that is still fresh on `today`: daily values a day behind are
 * normal (the CMF publishes a business day's values on the next one), so two weekdays back; a
 * monthly file describes a closed month and arrives during the next, so the month-end two months
 * back; a quarterly one, six. Irregular data sets (registries, curated lists) are never late.
 */
export const freshSince = (cadence: SourceCadence, today: string): string | null =>
  cadence === "daily"
    ? weekdaysBefore(today, 2)
    : cadence === "monthly"
      ? monthEndBefore(today, 2)
      : cadence === "quarterly"
        ? monthEndBefore(today, 6)
        : null

/**
 * A data set's state on `today`: missing (no input, nothing to wait for), waiting (not fetched
 * unattended, and no fresh drop), late (older than its cadence allows), or fresh.
 */
export const sourceState = (source: SourceReport, today: string): SourceState => {
  if (source.last_received_at === null) return source.waiting === null ? "missing" : "waiting"
  const since = freshSince(source.cadence, today)
  if (since === null || (source.latest_value_date !== null && source.latest_value_date >= since)) return "fresh"
  return source.waiting === null ? "late" : "waiting"
}
