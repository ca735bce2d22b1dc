/**
 * Collects raw files for a run: from a folder (dropped files, any layout) or from the CMF over
 * HTTP. Each file is stored in the raw store and recorded in the ledger once; a file whose
 * content matches no data set is stored too (for inspection) and rejects the batch, naming it.
 */

import { readdirSync, statSync } from "node:fs"
import { basename, join } from "node:path"
import { Effect, Result, Schema } from "effect"
import { weekdaysBefore } from "../snapshots/Status.ts"
import { FolderMemo } from "./FolderMemo.ts"
import type { CaptchaSolver } from "./fetch/CaptchaSolver.ts"
import { CartolaSession, fetchCartolaRange } from "./fetch/CartolaDownload.ts"
import { CmfSession, CmfSourceError, type FetchOptions, getBytes, getPage, postForm, send } from "./fetch/CmfHttp.ts"
import { type IndicatorFetcher, indicatorYears } from "./fetch/IndicatorFetch.ts"
import { readInboxFile } from "./InboxFile.ts"
import type { Ledger, RawFileObserved } from "./ledger/Ledger.ts"
import { currentOffload } from "./offload/Offload.ts"
import type { RawStore } from "./RawStore.ts"
import { type Recognized, recognizeAhead } from "./RecognizeAhead.ts"
import { ParseLimitExceeded } from "./cmf/ParseLimits.ts"
import { logLine } from "../snapshots/Log.ts"
import { printableName } from "./cmf/PrintableName.ts"
import { detect } from "./datasets/Registry.ts"
import { readWorkbook, workbookFormat } from "./cmf/Workbook.ts"

export class UnrecognizedFile extends Schema.TaggedError<UnrecognizedFile>()("UnrecognizedFile", {
  /** As messages print it (printableName). */
  file: Schema.String,
  sha256: Schema.String,
  /** Why, when more is known than "no data set": a workbook that cannot be read. */
  detail: Schema.optional(Schema.String),
}) {}

export interface CollectResult {
  readonly observed: ReadonlyArray<RawFileObserved>
  /** How many of them were new to the ledger. */
  readonly appended: number
  /** Data sets this source could not fetch unattended (no captcha command, no API key): they wait for a dropped file. */
  readonly waiting: ReadonlyArray<WaitingDataSet>
}

export interface WaitingDataSet {
  readonly dataSet: "cartola_diaria" | "indicators"
  /** What is missing, said once per run. */
  readonly why: string
}

const record = (
  ledger: Ledger["Service"],
  raw: RawStore["Service"],
  name: string,
  source: string,
  bytes: Uint8Array,
): Effect.Effect<{ observed: RawFileObserved; appended: boolean }, UnrecognizedFile> => {
  const sha = raw.put(bytes)
  let dataSet: ReturnType<typeof detect>
  let key: string | null
  try {
    dataSet = detect(bytes, name)
    key = dataSet === null ? null : dataSet.key(name, bytes, sha)
  } catch (e) {
    // A page over a parse limit, met by a detect or key that reads more than its head.
    if (e instanceof ParseLimitExceeded) return unrecognized(source, sha, bytes, `cannot be read: refused unread: ${e.message}`)
    throw e
  }
  if (dataSet === null || key === null) return unrecognized(source, sha, bytes)
  return observe(ledger, { data_set: dataSet.name, key, name, source, sha256: sha, bytes: bytes.length })
}

/** A file recognised ahead (RecognizeAhead.ts): recorded as `record` would have. */
const recordRecognized = (
  ledger: Ledger["Service"],
  name: string,
  source: string,
  r: Recognized,
): Effect.Effect<{ observed: RawFileObserved; appended: boolean }, UnrecognizedFile> =>
  r.dataSet === null || r.key === null
    ? unrecognized(source, r.sha256, readInboxFile(source))
    : observe(ledger, { data_set: r.dataSet, key: r.key, name, source, sha256: r.sha256, bytes: r.bytes })

const observe = (ledger: Ledger["Service"], observed: RawFileObserved) => Effect.succeed({ observed, appended: ledger.observe(observed) })

const unrecognized = (source: string, sha: string, bytes: Uint8Array, why?: string): Effect.Effect<never, UnrecognizedFile> => {
  // A workbook (by its bytes) that no data set recognised: say why when it cannot be read at all
  // (damaged, or over a parse limit: an HTML page's head read can be).
  const unreadable = why !== undefined || workbookFormat(bytes) === null ? null : readWorkbook(bytes, 50)
  const detail = unreadable !== null && Result.isFailure(unreadable) ? `cannot be read as a workbook: ${unreadable.failure}` : why
  return Effect.fail(new UnrecognizedFile({ file: printableName(source), sha256: sha, ...(detail === undefined ? {} : { detail }) }))
}

/** An inbox entry left out, said on stderr as the pipeline's other log lines. */
const skipped = (path: string, what: string): void => {
  logLine("warn", `inbox: ${printableName(path)} skipped: ${what}`, { file: printableName(path) })
}

/**
 * The regular files of the inbox and its folders. Symbolic links are not followed: whoever can
 * drop a file could link `/etc/passwd` into the raw store, or a loop that fails the whole run.
 * Links, sockets, FIFOs and devices are skipped, each named in a warning.
 */
const listFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      if (e.name.startsWith(".")) return []
      const path = join(dir, e.name)
      if (e.isSymbolicLink()) {
        skipped(path, "a symbolic link (links are not followed; copy the file into the inbox)")
        return []
      }
      if (e.isDirectory()) return listFiles(path)
      if (e.isFile()) return [path]
      skipped(path, "not a regular file")
      return []
    })
    .sort()

/** Every file of the folder; with a memo, a file unchanged since it was last read is not read again. */
export const collectFolder = (
  ledger: Ledger["Service"],
  raw: RawStore["Service"],
  dir: string,
  memo?: FolderMemo,
  /** Bytes of files to recognise from which they are recognised on both cores (RecognizeAhead.ts). */
  aheadMinBytes?: number,
) =>
  Effect.gen(function* () {
    // The folder itself is the operator's setting (it may be a link to a mounted volume): followed.
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      return yield* new UnrecognizedFile({ file: printableName(dir), sha256: "" })
    }
    const observed: RawFileObserved[] = []
    let appended = 0
    const stored = (sha: string) => raw.has(sha)
    const files = listFiles(dir).map((path) => {
      const stamp = memo === undefined ? "" : FolderMemo.stamp(path)
      return { path, stamp, known: memo?.lookup(path, stamp, stored) }
    })
    // Files the memo does not know, recognised on both cores when there are many (a cold build).
    const offload = yield* currentOffload
    const ahead = yield* Effect.promise(() =>
      recognizeAhead(
        offload,
        raw,
        files.flatMap((f) => (f.known === undefined ? [f.path] : [])),
        aheadMinBytes,
      ),
    )
    for (const { path, stamp, known } of files) {
      if (known !== undefined) {
        observed.push(known)
        if (ledger.observe(known)) appended++
        continue
      }
      const recognized = ahead?.get(path)
      const r = yield* (
        recognized === undefined
          ? record(ledger, raw, basename(path), path, readInboxFile(path))
          : recordRecognized(ledger, basename(path), path, recognized)
      )
      memo?.remember(path, stamp, r.observed)
      observed.push(r.observed)
      if (r.appended) appended++
    }
    memo?.save()
    return { observed, appended, waiting: [] } satisfies CollectResult
  })

const compact = (iso: string): string => iso.replaceAll("-", "")
const monthEnd = (y: number, m: number): string =>
  `${y}-${String(m).padStart(2, "0")}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, "0")}`

/** Calendar months [first, last] from `start` to `end`, the last one clamped to `end`. */
export const monthRanges = (start: string, end: string): Array<{ first: string; last: string }> => {
  const out: Array<{ first: string; last: string }> = []
  let y = Number(start.slice(0, 4))
  let m = Number(start.slice(5, 7))
  for (;;) {
    const first = `${y}-${String(m).padStart(2, "0")}-01`
    if (first > end) break
    const full = monthEnd(y, m)
    out.push({ first: first < start ? start : first, last: full < end ? full : end })
    m++
    if (m === 13) {
      m = 1
      y++
    }
  }
  return out
}

/** The `count` calendar months before the month of `until`, oldest first, as YYYY-MM. */
export const closedMonths = (until: string, count: number): string[] => {
  const out: string[] = []
  let y = Number(until.slice(0, 4))
  let m = Number(until.slice(5, 7))
  for (let i = 0; i < count; i++) {
    m--
    if (m === 0) {
      m = 12
      y--
    }
    out.unshift(`${y}-${String(m).padStart(2, "0")}`)
  }
  return out
}

/**
 * From the CMF over HTTP: the FM registry; the daily cartola month by month through its captcha
 * form when a solver is configured (CMF serves at most ~31 days per request; months already
 * recorded whole are not fetched again, the current month is fetched again each day); the monthly
 * portfolios; the FI/ETF lists; UF and dólar by year from the CMF API or SIETE when credentials are
 * given. What is not fetched (the cartola without a solver, indicators without credentials, FI book
 * values behind reCAPTCHA, curated lists) arrives as dropped files in the inbox.
 */
export const collectHttp = (
  ledger: Ledger["Service"],
  raw: RawStore["Service"],
  options: {
    readonly baseUrl: string
    readonly historyStart: string
    readonly until: string
    readonly fetch: FetchOptions
    /** How many closed months of portfolios to fetch. */
    readonly portfolioMonths: number
    /** Solves the cartola form's captcha; null: the cartola is not fetched (it waits for a drop). */
    readonly captcha: CaptchaSolver | null
    /** UF and dólar from an API; null: they wait for a drop. */
    readonly indicators: IndicatorFetcher | null
    /** How many weekdays back the daily BPR report is fetched when none is recorded yet. */
    readonly bprDays: number
  },
) =>
  Effect.gen(function* () {
    const base = options.baseUrl.replace(/\/+$/, "")
    const observed: RawFileObserved[] = []
    let appended = 0
    // Months (and portfolios) already in a built batch are final and not fetched again; one whose
    // current file was never built into a batch (e.g. it was rejected) is fetched again each run.
    const built = new Set(ledger.events("BatchBuilt").at(-1)?.payload.inputs ?? [])
    const known = new Set(ledger.currentInputs().filter((i) => built.has(i.sha256)).map((i) => i.name))
    const keep = (r: { observed: RawFileObserved; appended: boolean }) => {
      observed.push(r.observed)
      if (r.appended) appended++
    }
    const registryUrl = `${base}/institucional/estadisticas/fm_ident2.php`
    keep(yield* record(ledger, raw, "fm_ident2.txt", registryUrl, yield* postForm(registryUrl, {}, options.fetch)))
    // The daily BPR report (no captcha): every weekday since the last batch's day (the CMF publishes
    // a day's values a business day late, so a day fetched too early is fetched again), at most
    // `bprDays` back.
    for (const day of bprDays(ledger, options.historyStart, options.until, options.bprDays)) {
      const url =
        `${base}/institucional/estadisticas/fm.fm_bpr_dia.php?admins=0&tipofondo=0&moneda=0` +
        `&dia_select=${Number(day.slice(8, 10))}&mes_peri=${day.slice(5, 7)}&anio_peri=${day.slice(0, 4)}&out=excel&lang=es`
      keep(yield* record(ledger, raw, `fm_bpr_dia_${compact(day)}.xls`, url, yield* getBytes(url, options.fetch)))
    }
    const waiting: WaitingDataSet[] = []
    if (options.captcha === null) {
      waiting.push({ dataSet: "cartola_diaria", why: "FDS_CAPTCHA_COMMAND is not set: the cartola is not fetched; drop it into the inbox" })
    } else {
      const session = new CartolaSession(base)
      for (const { first, last } of monthRanges(options.historyStart, options.until)) {
        const name = `ffmm_todos_${compact(first)}_${compact(last)}.txt`
        const whole = last === monthEnd(Number(first.slice(0, 4)), Number(first.slice(5, 7)))
        if (whole && known.has(name)) continue
        const bytes = yield* fetchCartolaRange(session, { first, last }, options.captcha, options.fetch)
        keep(yield* record(ledger, raw, name, `${base}/institucional/estadisticas/cfm_download.php?${first}..${last}`, bytes))
      }
    }
    // Monthly portfolios of the last closed months; a month already recorded is final.
    const portfolioUrl = `${base}/institucional/estadisticas/ffm_download.php`
    for (const month of closedMonths(options.until, options.portfolioMonths)) {
      for (const cartera of ["NACI", "EXTR"] as const) {
        const name = `ffm_${cartera}_${month.replace("-", "")}.txt`
        if (known.has(name)) continue
        const bytes = yield* postForm(
          portfolioUrl,
          { aa: month.slice(0, 4), mm: month.slice(5, 7), cartera, btnConsulta: "GENERAR ARCHIVO" },
          options.fetch,
        )
        keep(yield* record(ledger, raw, name, `${portfolioUrl}?${cartera}&${month}`, bytes))
      }
    }
    // The monthly TAC workbook of the last closed months (read as the CMF publishes it: XLS, or an
    // HTML table served as Excel), in the session its form page opens; a month built into a batch is final.
    const tacSession = new CmfSession()
    let tacPage = false
    for (const month of closedMonths(options.until, options.portfolioMonths)) {
      const name = `fmdfm_costos_${month.replace("-", "")}.xls`
      if (known.has(name)) continue
      if (!tacPage) {
        yield* getPage(`${base}/institucional/estadisticas/fmdfm_consulta1.php`, options.fetch, tacSession)
        tacPage = true
      }
      const url = `${base}/institucional/estadisticas/fmdfm_excel2.php?lang=es`
      const answer = yield* send(
        url,
        { method: "POST", form: { admins: "0", tipofondo: "0", moneda: "0", mes2: month.slice(5, 7), anno2: month.slice(0, 4) }, session: tacSession },
        options.fetch,
      )
      if (answer.status !== 200) return yield* new CmfSourceError({ url, message: `HTTP ${answer.status}`, retryable: false })
      keep(yield* record(ledger, raw, name, `${url}&${month}`, answer.bytes))
    }
    // The FI/ETF lists (HTML), every run: they change as funds open and close.
    for (const entidad of ["FIRES", "FINRE"] as const) {
      for (const estado of ["VI", "NV"] as const) {
        const url = `${base}/institucional/mercados/consulta.php?mercado=V&entidad=${entidad}&Estado=${estado}`
        keep(yield* record(ledger, raw, `fi_consulta_${entidad}_${estado}.html`, url, yield* getPage(url, options.fetch)))
      }
    }
    // UF and dólar by year: every year not yet recorded whole, and always the last two.
    if (options.indicators === null) {
      waiting.push({ dataSet: "indicators", why: "neither FDS_CMF_API_KEY nor FDS_BCCH_USER/FDS_BCCH_PASS is set: UF and dólar are not fetched; drop them into the inbox" })
    } else {
      const recorded = new Set(ledger.currentInputs().map((i) => i.name))
      for (const year of indicatorYears(options.indicators, options.historyStart, options.until, (n) => recorded.has(n))) {
        for (const file of yield* options.indicators.fetchYear(year, options.fetch)) {
          keep(yield* record(ledger, raw, file.name, file.url, file.bytes))
        }
      }
    }
    return { observed, appended, waiting } satisfies CollectResult
  })

/**
 * The weekdays to fetch the daily BPR report for, oldest first: from the day before the last batch
 * published (the last day known to have values; a day fetched before its values were published
 * answers an empty report, so every day after it is fetched again until a batch moves past it) to
 * `until`, at most `maxDays` back. Holidays are not known: their report is empty.
 */
export const bprDays = (ledger: Ledger["Service"], historyStart: string, until: string, maxDays: number): string[] => {
  if (maxDays <= 0) return []
  const published = ledger.events("BatchPublished").at(-1)?.payload.batch_date
  const earliest = weekdaysBefore(until, maxDays - 1)
  let from = published === undefined || published > until ? earliest : weekdaysBefore(published, 1)
  if (from < earliest) from = earliest
  if (from < historyStart) from = historyStart
  const days: string[] = []
  for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${until}T00:00:00Z`); d += 86_400_000) {
    if (![0, 6].includes(new Date(d).getUTCDay())) days.push(new Date(d).toISOString().slice(0, 10))
  }
  return days
}

export { CmfSourceError }
