/**
 * The load phase's work: every input parsed through its data set's adapter, into and from the
 * parse cache (its summary now, its records when staged), with each data set's dates and repairs.
 * Shared by `pipeline run` (run/Phases.ts) and `pipeline reproduce`; the parse ahead of a cold
 * build runs `parseIntoCache` on the second core.
 */
import { Effect } from "effect"
import type { DataSetName } from "./datasets/DataSetName.ts"
import { dateToInt, intToDate } from "../schemas/Dates.ts"
import type { LoadedInputs } from "./LoadedInputs.ts"
import type { RawFileObserved } from "./ledger/Ledger.ts"
import type { RawStore } from "./RawStore.ts"
import type { CmfFileInvalid } from "./cmf/CmfFileInvalid.ts"
import type { DataSetAdapter, LoadContext } from "./datasets/DataSet.ts"
import type { LoadedFile } from "./datasets/LoadedFile.ts"
import { ADAPTERS } from "./datasets/Registry.ts"
import type { ParsedCache } from "./ParsedCache.ts"
import type { RecordsSummary } from "./datasets/ParsedFiles.ts"

/** Reports parsing progress (a terminal bar, log lines, or nothing); ETA from bytes, not files. */
export interface Progress {
  readonly start: (files: number, bytes: number) => void
  readonly file: (name: string, rowsSoFar: number, bytes: number) => void
  readonly stop: () => void
}
export const silentProgress: Progress = { start: () => {}, file: () => {}, stop: () => {} }

const prefixed = (dataSet: string, repairs: Readonly<Record<string, number>>): Record<string, number> =>
  Object.fromEntries(Object.entries(repairs).map(([k, v]) => [`${dataSet}.${k}`, v]))

const pushTo = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

/** Adds each of `from`'s counts to `into`'s (repairs and counters by name). */
export const addCounts = (into: Record<string, number>, from: Readonly<Record<string, number>>): void => {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v
}

/**
 * The default load of an adapter: its records, parsed once and cached by content, with a summary
 * (rows, repairs, dates) cached beside them. Only the summary is read now; the records are read
 * from the cache when the file is staged, so a batch never holds every file's records at once.
 */
const loadRecords = (adapter: DataSetAdapter, context: LoadContext): Effect.Effect<LoadedFile, CmfFileInvalid> => {
  const { cache, name } = context
  const entry = { sha256: context.sha256, name }
  // Parsed again if the entry went away meanwhile (these bytes parsed once: it cannot fail).
  const reread = (): ReadonlyArray<unknown> =>
    cache?.getRecords(entry)?.records ?? Effect.runSync(adapter.parse(context.bytes(), name)).records
  const summary = cache?.getRecordsSummary(entry)
  // (a summary cached before the adapter kept one of its own is made again)
  if (summary !== undefined && (adapter.summaryOf === undefined || summary.extra !== undefined)) {
    return Effect.succeed({ name, ...summary, data: reread })
  }
  const cached = cache?.getRecords(entry)
  const parsed =
    cached !== undefined
      ? Effect.succeed(cached)
      : Effect.map(adapter.parse(context.bytes(), name), (p) => {
          // Kept in memory only without a cache; structuredClone: the records' strings are slices
          // of the decoded page, copies let it go (the cache's copy is a copy already).
          const kept = cache === null ? { records: structuredClone(p.records), repairs: p.repairs } : p
          cache?.putRecords(entry, kept)
          context.parsed(context.size)
          return kept
        })
  return Effect.map(parsed, (p) => {
    const dates = adapter.datesOf?.(p.records) ?? null
    const made: RecordsSummary = {
      rows: p.records.length,
      repairs: p.repairs,
      ...(dates === null ? {} : { firstDate: dateToInt(dates.first), latestDate: dateToInt(dates.latest) }),
      ...(adapter.summaryOf === undefined ? {} : { extra: adapter.summaryOf(p.records) }),
    }
    cache?.putRecordsSummary(entry, made)
    const records = p.records
    return { name, ...made, data: cache === null ? () => records : reread }
  })
}

/**
 * The full GC that paces parsing (a cold build, reproduce, the parse ahead): parsing leaves garbage
 * faster than V8 collects it, and a full GC every ~128 MB of parsed input keeps the peak near what
 * is live (it varied 1.75–2.65 GB without). `gcMs` is the time spent in it.
 */
const gcPacer = () => {
  let parsedBytes = 0
  let collectedAt = 0
  const pacer = {
    gcMs: 0,
    parsed: (bytes: number): void => {
      parsedBytes += bytes
      if (parsedBytes - collectedAt < 128e6) return
      collectedAt = parsedBytes
      const t = performance.now()
      collectGarbage()
      pacer.gcMs += performance.now() - t
    },
  }
  return pacer
}

/** The load of one input by its adapter (its own `load`, or its records through the parse cache). */
const loadOf = (
  adapter: DataSetAdapter,
  input: RawFileObserved,
  raw: RawStore["Service"],
  cache: ParsedCache["Service"] | null,
  parsed: (bytes: number) => void,
  shared: Map<string, unknown>,
): Effect.Effect<LoadedFile, CmfFileInvalid> => {
  const context: LoadContext = { sha256: input.sha256, name: input.name, size: input.bytes, bytes: () => raw.get(input.sha256), cache, parsed, shared }
  return adapter.load === undefined ? loadRecords(adapter, context) : adapter.load(context)
}

/**
 * Parses each input through its adapter into the parse cache (its summary, and its records or
 * columns), as `loadInputs` would, without keeping anything: what the parse ahead of a cold build
 * does on each core (ParseAhead.ts). A file that fails is left for `loadInputs`, which
 * meets it again and reports it; returns how many failed.
 */
export const parseIntoCache = (
  raw: RawStore["Service"],
  inputs: ReadonlyArray<RawFileObserved>,
  cache: ParsedCache["Service"],
  adapters: ReadonlyArray<DataSetAdapter> = ADAPTERS,
): number => {
  const byName = new Map(adapters.map((a) => [a.name, a]))
  let failed = 0
  const { parsed } = gcPacer()
  for (const input of inputs) {
    const adapter = byName.get(input.data_set)
    if (adapter === undefined) {
      failed++
      continue
    }
    try {
      if (Effect.runSync(Effect.result(loadOf(adapter, input, raw, cache, parsed, new Map())))._tag === "Failure") failed++
    } catch {
      failed++
    }
  }
  return failed
}

/** Parses every input through its adapter (from and to the parse cache when one is given). */
export const loadInputs = (
  raw: RawStore["Service"],
  inputs: ReadonlyArray<RawFileObserved>,
  cache: ParsedCache["Service"] | null,
  progress: Progress = silentProgress,
  adapters: ReadonlyArray<DataSetAdapter> = ADAPTERS,
): Effect.Effect<LoadedInputs, CmfFileInvalid> =>
  Effect.gen(function* () {
    const repairs: Record<string, number> = {}
    let first = 0
    let latest = 0
    let latestFile: LoadedInputs["latestQuotaFile"] = null
    let rows = 0
    const files = new Map<DataSetName, LoadedFile[]>()
    // A required FI data set missing: the batch goes out without its FI/ETF part (a core one rejects it: Pipeline.ts).
    const missingFi = adapters.find((a) => a.part === "fi" && a.required !== undefined && !inputs.some((i) => i.data_set === a.name))
    let fiUnavailable: string | null = missingFi?.required ?? null
    const pacer = gcPacer()
    const loadMs: Record<string, number> = {}
    const byName = new Map(adapters.map((a) => [a.name, a]))
    const shared = new Map<string, unknown>()
    progress.start(inputs.length, inputs.reduce((n, i) => n + i.bytes, 0))
    for (const input of inputs) {
      const adapter = byName.get(input.data_set)
      if (adapter === undefined) return yield* Effect.die(new Error(`no adapter for data set ${input.data_set}`))
      const load = loadOf(adapter, input, raw, cache, pacer.parsed, shared)
      const started = performance.now()
      let file: LoadedFile
      if (adapter.part === "fi") {
        const result = yield* Effect.result(load)
        if (result._tag === "Failure") {
          fiUnavailable ??= result.failure.message
          continue
        }
        file = result.success
      } else {
        file = yield* load
      }
      loadMs[input.data_set] = (loadMs[input.data_set] ?? 0) + performance.now() - started
      addCounts(repairs, prefixed(input.data_set, file.repairs))
      pushTo(files, input.data_set, file)
      if (adapter.dailyValues === true) {
        if (file.firstDate !== undefined && file.firstDate > 0 && (first === 0 || file.firstDate < first)) first = file.firstDate
        if (file.latestDate !== undefined && file.latestDate > latest) {
          latest = file.latestDate
          latestFile = { dataSet: input.data_set, name: input.name }
        }
      }
      rows += file.rows
      progress.file(input.name, rows, input.bytes)
    }
    progress.stop()
    return {
      files,
      fiUnavailable,
      repairs,
      firstQuotaDate: first === 0 ? null : intToDate(first),
      latestQuotaDate: latest === 0 ? null : intToDate(latest),
      latestQuotaFile: latestFile,
      loadMs: { byDataSet: Object.fromEntries(Object.entries(loadMs).map(([k, v]) => [k, Math.round(v)])), gc: Math.round(pacer.gcMs) },
    }
  })

/**
 * A full garbage collection when Node runs with --expose-gc (`./fds` passes it to the pipeline):
 * while parsing, and where the build lets a step's data go, so that compute and packing do not
 * run on top of it. Without the flag V8 collects when it sees fit.
 */
export const collectGarbage = (): void => (globalThis as { gc?: () => void }).gc?.()
