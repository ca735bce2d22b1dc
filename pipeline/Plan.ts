/**
 * The daily batch's decisions, as pure functions of what the run knows (no I/O): whether the
 * inputs can make a batch at all, and once they are parsed, whether to publish a batch (and of
 * which date), leave the published one unchanged, or reject the inputs with a reason. `Pipeline.ts`
 * gathers the facts (collect, ledger, parse) and carries the decision out.
 */
import type { DataSetName } from "./datasets/DataSetName.ts"
import { printableName } from "./cmf/PrintableName.ts"

export type Decision =
  | { readonly kind: "publish"; readonly batchDate: string }
  | { readonly kind: "unchanged"; readonly batchDate: string; readonly file: string; readonly note?: string }
  | { readonly kind: "reject"; readonly reason: string; readonly batchDate: string | null }

/** What a run does instead of publishing. */
export type Held = Exclude<Decision, { readonly kind: "publish" }>

/** Go on to parse the inputs. */
export const PROCEED = { kind: "proceed" } as const

export interface InputFacts {
  /** `--date`, when given. */
  readonly date?: string | undefined
  /** Today in America/Santiago. */
  readonly today: string
  /** The data sets of the batch's inputs. */
  readonly dataSets: ReadonlyArray<DataSetName>
  /** Data sets a batch needs, with what to say when one is missing (the adapters' `required`, core part). */
  readonly required: ReadonlyArray<{ readonly dataSet: DataSetName; readonly missing: string }>
  /** The data sets of daily values (the adapters' `dailyValues`). */
  readonly dailyValues: ReadonlyArray<DataSetName>
  /** A rollback that holds CURRENT (no new file since it), if any. */
  readonly hold: { readonly batchDate: string; readonly file: string; readonly recordedAt: string } | null
}

/** Before anything is fetched: a batch date in the future is refused. */
export const refuseFutureDate = (date: string | undefined, today: string): Held | null =>
  date !== undefined && date > today
    ? { kind: "reject", reason: `batch date ${date} is in the future (today is ${today})`, batchDate: date }
    : null

/** Before parsing: a batch date in the future, a required data set missing, or a rollback holding CURRENT. */
export const planInputs = (facts: InputFacts): Held | typeof PROCEED => {
  const future = refuseFutureDate(facts.date, facts.today)
  if (future !== null) return future
  for (const r of facts.required) {
    if (!facts.dataSets.includes(r.dataSet)) return { kind: "reject", reason: r.missing, batchDate: null }
  }
  if (!facts.dataSets.some((d) => facts.dailyValues.includes(d))) {
    return { kind: "reject", reason: `no daily values (${facts.dailyValues.join(" or ")}) among the inputs`, batchDate: null }
  }
  if (facts.hold !== null) {
    const { batchDate, file, recordedAt } = facts.hold
    const note = `held by the rollback to ${batchDate} (${recordedAt}): no new CMF file since, CURRENT stays on ${file}; new files publish again, or roll forward with \`pipeline rollback --to\``
    return { kind: "unchanged", batchDate, file, note }
  }
  return PROCEED
}

export interface BuiltBatch {
  readonly batch_date: string
  readonly file: string
  readonly inputs: ReadonlyArray<string>
  readonly pipeline_version: string
}

export interface BatchFacts {
  readonly date?: string | undefined
  readonly today: string
  /** The inputs: name and content hash, in the ledger's order. */
  readonly inputs: ReadonlyArray<{ readonly name: string; readonly sha256: string }>
  /** From the parsed daily values: their first and latest dates, and the file holding the latest. */
  readonly firstQuotaDate: string | null
  readonly latestQuotaDate: string | null
  readonly latestQuotaFile: { readonly dataSet: DataSetName; readonly name: string } | null
  /** The ledger: batches built (oldest first), and the published batch CURRENT names (null: none). */
  readonly built: ReadonlyArray<BuiltBatch>
  readonly served: { readonly batchDate: string; readonly file: string } | null
  /** Snapshot files still on disk. */
  readonly onDisk: (file: string) => boolean
  /** Whether a file was ever published. */
  readonly wasPublished: (file: string) => boolean
  readonly pipelineVersion: string
}

const sameInputs = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join()

/**
 * After parsing: the batch is dated by its data (the latest daily value, or `--date` within the
 * values); it never moves CURRENT back in time unasked; the same inputs at the same date and
 * version as the served batch change nothing.
 */
export const plan = (facts: BatchFacts): Decision => {
  const latest = facts.latestQuotaDate
  if (latest === null) return { kind: "reject", reason: "the daily values hold no rows", batchDate: null }
  if (latest > facts.today) {
    const file = facts.latestQuotaFile
    return {
      kind: "reject",
      reason: `${file?.dataSet ?? "daily values"} ${printableName(file?.name ?? "")} field FECHA_INF: daily values dated ${latest}, after today (${facts.today})`,
      batchDate: null,
    }
  }
  if (facts.date !== undefined) {
    const earliest = facts.firstQuotaDate
    if (earliest !== null && facts.date < earliest) {
      return {
        kind: "reject",
        reason: `--date ${facts.date} is before the first daily value in the inputs (${earliest}): the batch would hold no quotes`,
        batchDate: facts.date,
      }
    }
    if (facts.date > latest) {
      return {
        kind: "reject",
        reason: `--date ${facts.date} is after the latest daily value in the inputs (${latest}): a batch is dated by its data`,
        batchDate: facts.date,
      }
    }
  }
  const batchDate = facts.date ?? latest
  // Inputs that now end before the published batch (a later delivery holding fewer days, or "Sin
  // información") would move CURRENT back in time unasked: refused, naming what changed since.
  if (facts.date === undefined && facts.served !== null && latest < facts.served.batchDate) {
    const lastInputs = new Set(facts.built.at(-1)?.inputs ?? [])
    const changed = facts.inputs.filter((i) => !lastInputs.has(i.sha256)).map((i) => printableName(i.name))
    return {
      kind: "reject",
      reason:
        `the daily values now end on ${latest}, before the published batch ${facts.served.batchDate}` +
        (changed.length > 0 ? ` (changed since it was built: ${changed.join(", ")})` : "") +
        `; nothing was published. To build an earlier day on purpose, run with --date ${latest}`,
      batchDate: latest,
    }
  }
  const shas = facts.inputs.map((i) => i.sha256)
  const same = facts.built.findLast((b) => b.batch_date === batchDate && sameInputs(b.inputs, shas))
  if (
    same !== undefined &&
    same.pipeline_version === facts.pipelineVersion &&
    facts.onDisk(same.file) &&
    facts.served?.file === same.file &&
    facts.wasPublished(same.file)
  ) {
    return { kind: "unchanged", batchDate, file: same.file }
  }
  return { kind: "publish", batchDate }
}

/** A series active in the served batch: it had a value on that batch's day. */
export interface ActiveSeries {
  readonly assetId: number
  readonly administrator: string
}

/**
 * The coverage gate: a batch whose daily values on its day cover fewer than `minShare` of the
 * series active in the served batch is a short delivery (a cartola cut short, an administrator
 * missing from the BPR), refused naming the administrators whose series are missing. Null: enough.
 */
export const coverageGate = (input: {
  readonly batchDate: string
  readonly servedDate: string
  readonly active: ReadonlyArray<ActiveSeries>
  /** Asset ids with a value on the new batch's day. */
  readonly covered: ReadonlySet<number>
  readonly minShare: number
}): string | null => {
  if (input.active.length === 0 || input.minShare <= 0) return null
  const missing = input.active.filter((s) => !input.covered.has(s.assetId))
  const share = (input.active.length - missing.length) / input.active.length
  if (share >= input.minShare) return null
  const byAdministrator = new Map<string, number>()
  for (const s of missing) byAdministrator.set(s.administrator, (byAdministrator.get(s.administrator) ?? 0) + 1)
  const named = [...byAdministrator]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([name, n]) => `${name} (${n})`)
  const percent = (x: number) => `${(Math.floor(x * 1000) / 10).toFixed(1)} %`
  return (
    `short delivery: the daily values of ${input.batchDate} cover ${input.active.length - missing.length} of the ` +
    `${input.active.length} series active on ${input.servedDate} (${percent(share)}, below ${percent(input.minShare)}); ` +
    `missing: ${named.join(", ")}. Nothing was published; a fuller delivery publishes (FDS_COVERAGE_MIN sets the share)`
  )
}
