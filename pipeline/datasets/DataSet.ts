/**
 * The data-set port: what every raw data set plugs into the pipeline. An adapter says how to
 * recognise its bytes (never by file name), how to parse them into records, which supersession key
 * an observation has (a later observation with the same key replaces an earlier one when the
 * ledger is folded into a batch), how its files are fetched and staged into the snapshot's tables,
 * and which roles it plays for the run (daily values, whole history, required). The
 * pipeline's orchestration (collect, load, stage, increment) knows no data set by name: every adapter is
 * registered in one table, `Registry.ts`.
 */
import type { Effect } from "effect"
import type { DataSetName } from "./DataSetName.ts"
import type { SourceCadence } from "../../snapshots/Status.ts"
import type { CaptchaSolver } from "../fetch/CaptchaSolver.ts"
import type { CmfSourceError, FetchOptions } from "../fetch/CmfHttp.ts"
import type { IndicatorFetcher } from "../fetch/IndicatorFetch.ts"
import type { StageContext } from "./StageContext.ts"
import type { CacheEntry, ParsedFiles } from "./ParsedFiles.ts"
import type { CmfFileInvalid } from "../cmf/CmfFileInvalid.ts"
import type { LoadedFile } from "./LoadedFile.ts"
import type { Parsed } from "./Parsed.ts"

/** What an adapter's own `load` may use: the raw bytes, the parse cache, and the GC pacing of a cold build. */
export interface LoadContext {
  readonly sha256: string
  readonly name: string
  /** The file's size in bytes. */
  readonly size: number
  readonly bytes: () => Uint8Array
  readonly cache: ParsedFiles | null
  /** Tells the loader that `bytes` bytes were parsed (not read from the cache). */
  readonly parsed: (bytes: number) => void
  /** Values the batch's files share, by a key of the loader's (one object where many files repeat one). */
  readonly shared: Map<string, unknown>
}

export interface DataSetSource<R> {
  readonly name: DataSetName
  /** True when the bytes are this data set (a header line, a JSON shape, an HTML table's headers). */
  readonly detect: (bytes: Uint8Array) => boolean
  readonly parse: (bytes: Uint8Array, file: string) => Effect.Effect<Parsed<R>, CmfFileInvalid>
  /**
   * The supersession key: e.g. one key for a registry (the newest replaces the older), the period
   * for monthly files (`2026-10`), the instrument and period for per-fund files. `name` is only a
   * hint (it may be any dropped file's name); prefer what the content says.
   */
  readonly key: (name: string, bytes: Uint8Array, sha256: string) => string
}

/**
 * A data set as the pipeline runs it: its source (detect, parse, key) plus how its files enter a
 * batch and how they are staged.
 */
export interface DataSetAdapter<R = unknown> extends DataSetSource<R> {
  /**
   * `fi`: the FI/ETF part; a file of it that fails to parse publishes the batch without that part
   * (its routes answer 503) instead of rejecting the batch. `core`: any failure rejects the batch.
   */
  readonly part: "core" | "fi"
  /** How often its values come (what "late" means for it in /health's sources). */
  readonly cadence: SourceCadence
  /**
   * The first and latest dates (YYYY-MM-DD) a file's records are of: its freshness, and for a
   * daily-values data set the batch's date; absent: undated (a registry, a list).
   */
  readonly datesOf?: (records: ReadonlyArray<R>) => { readonly first: string; readonly latest: string } | null
  /**
   * What staging needs of a file without reading its records (cached with its summary, on the
   * loaded file as `extra`): e.g. the first row of each FI series, so that an increment that
   * stages FI prices from a date on reads only the pages that reach it.
   */
  readonly summaryOf?: (records: ReadonlyArray<R>) => unknown
  /**
   * Data sets of daily values date the batch: the latest value date among their files is the
   * batch date unless `--date` says otherwise; a batch needs at least one file of one of them.
   */
  readonly dailyValues?: boolean
  /**
   * Of a daily-values data set whose files' first value date is neither the loaded file's
   * `firstDate` nor the earliest `date` of its cached records (the cartola: its rows need not be in
   * date order, and it is cached as columns): that date (YYYYMMDD; 0: none) of a loaded file, and
   * of a cached one (null: not in the cache). A daily increment merges again from it.
   */
  readonly firstDates?: {
    readonly loaded: (file: LoadedFile) => number
    readonly cached: (cache: ParsedFiles, entry: CacheEntry) => number | null
  }
  /**
   * Set when the data set relabels or describes the whole history (the renames, the FM registry):
   * a daily increment needs its inputs unchanged; when they changed, the build is a cold one.
   */
  readonly wholeHistory?: boolean
  /**
   * Set when a batch needs a file of this data set: what to say when none is among the inputs. A
   * core data set's absence rejects the batch; an FI one's publishes it without its FI/ETF part.
   */
  readonly required?: string
  /**
   * How a file enters a batch when an array of records would not fit (the cartola's history as
   * typed columns, cached as such). Default: the records, parsed once and cached by content.
   */
  readonly load?: (context: LoadContext) => Effect.Effect<LoadedFile, CmfFileInvalid>
  /**
   * How the data set is fetched from the CMF over HTTP (or an API), when it is; the registry's
   * FETCHES says in which order. Absent: it arrives as dropped files in the inbox.
   */
  readonly fetch?: <E>(context: FetchContext<E>) => Effect.Effect<void, E | CmfSourceError>
  /**
   * This data set's part of staging, in the table's order: it reads its own files (and what earlier
   * steps staged) from the context and adds its tables, repairs and meta. Data sets staged together
   * (the FI/ETF part, the benchmarks) have one step, on the first of them.
   */
  readonly stage?: (context: StageContext) => Effect.Effect<void, CmfFileInvalid>
  /**
   * Set when the step's tables are a function of its own files and of what this lists alone: a
   * daily increment then keeps them from the previous snapshot when none of it changed (see
   * `StageReads`). Absent: the step is staged in every build (the core: renames, registry, daily values).
   */
  readonly stageReads?: StageReads
}

/** How far and with what a run fetches: its settings and fetchers, the same for every data set. */
export interface FetchSettings {
  readonly historyStart: string
  readonly until: string
  readonly fetch: FetchOptions
  /** How many closed months of monthly files to fetch. */
  readonly portfolioMonths: number
  /** Solves the cartola form's captcha; null: the cartola is not fetched (it waits for a drop). */
  readonly captcha: CaptchaSolver | null
  /** UF and dólar from an API; null: they wait for a drop. */
  readonly indicators: IndicatorFetcher | null
  /** How many weekdays back a daily report is fetched when none is recorded yet. */
  readonly bprDays: number
}

/**
 * What a data set's `fetch` is given: where and how far to fetch, the run's fetchers, what the
 * ledger already holds, and where each fetched file goes (`record`, as soon as it is fetched: a
 * failure later in the run keeps what was recorded before it). `E` is the recording's failure.
 */
export interface FetchContext<E> extends FetchSettings {
  /** The CMF's base URL, without a trailing slash. */
  readonly base: string
  /** Names of the current inputs built into the last built batch: final, not fetched again. */
  readonly known: ReadonlySet<string>
  /** Names of every current input, as the ledger holds them now. */
  readonly recorded: () => ReadonlySet<string>
  /** The batch date of the last published batch, if any. */
  readonly lastPublished: string | undefined
  readonly record: (name: string, source: string, bytes: Uint8Array) => Effect.Effect<void, E>
  /** Says that the data set is not fetched unattended (what is missing), so it waits for a dropped file. */
  readonly wait: (why: string) => void
}

/**
 * What a reusable staging step reads besides its own data set's files. The step is given a
 * context that refuses anything else (Stage.ts), so a step that reads more than it says fails
 * loudly instead of being reused when it should not be.
 */
export interface StageReads {
  /** Other data sets whose files it reads (e.g. the FI/ETF part, staged on the FI registry). */
  readonly dataSets?: ReadonlyArray<DataSetName>
  /** The core: administrators, funds, the batch's series and the renames' aliases. */
  readonly core?: boolean
  /** Data sets whose rows after the batch date it leaves out (the batch date then matters when such rows exist). */
  readonly cutoff?: ReadonlyArray<DataSetName>
  /** Whether the FI/ETF part is available in the batch. */
  readonly fiUnavailable?: boolean
}
