/**
 * Collects raw files for a run: from a folder (dropped files, any layout) or from the CMF over
 * HTTP. Each file is stored in the raw store and recorded in the ledger once; a file whose
 * content matches no data set is stored too (for inspection) and rejects the batch, naming it.
 */

import { readdirSync, statSync } from "node:fs"
import { basename, join } from "node:path"
import { Effect, Result, Schema } from "effect"
import { FolderMemo } from "./FolderMemo.ts"
import { CmfSourceError } from "./fetch/CmfHttp.ts"
import { readInboxFile } from "./InboxFile.ts"
import type { Ledger, RawFileObserved } from "./ledger/Ledger.ts"
import { currentOffload } from "./offload/Offload.ts"
import type { RawStore } from "./RawStore.ts"
import { type Recognized, recognizeAhead } from "./RecognizeAhead.ts"
import { ParseLimitExceeded } from "./cmf/ParseLimits.ts"
import { logLine } from "../snapshots/Log.ts"
import { printableName } from "./cmf/PrintableName.ts"
import type { FetchSettings } from "./datasets/DataSet.ts"
import type { DataSetName } from "./datasets/DataSetName.ts"
import { detect, FETCHES } from "./datasets/Registry.ts"
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
  readonly dataSet: DataSetName
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

/**
 * From the CMF over HTTP (and UF and dólar from their API): each data set that has a `fetch`, in
 * the registry's FETCHES order, each file recorded as soon as it is fetched. What is not fetched
 * (the cartola without a solver, indicators without credentials, FI book values behind
 * reCAPTCHA, curated lists) arrives as dropped files in the inbox.
 */
export const collectHttp = (
  ledger: Ledger["Service"],
  raw: RawStore["Service"],
  /** The CMF's base URL, and the settings each data set's fetch is given. */
  options: FetchSettings & { readonly baseUrl: string },
) =>
  Effect.gen(function* () {
    const base = options.baseUrl.replace(/\/+$/, "")
    const observed: RawFileObserved[] = []
    let appended = 0
    // Months (and portfolios) already in a built batch are final and not fetched again; one whose
    // current file was never built into a batch (e.g. it was rejected) is fetched again each run.
    const built = new Set(ledger.events("BatchBuilt").at(-1)?.payload.inputs ?? [])
    const known = new Set(ledger.currentInputs().filter((i) => built.has(i.sha256)).map((i) => i.name))
    const waiting: WaitingDataSet[] = []
    for (const adapter of FETCHES) {
      yield* adapter.fetch!({
        base,
        historyStart: options.historyStart,
        until: options.until,
        fetch: options.fetch,
        portfolioMonths: options.portfolioMonths,
        captcha: options.captcha,
        indicators: options.indicators,
        bprDays: options.bprDays,
        known,
        recorded: () => new Set(ledger.currentInputs().map((i) => i.name)),
        lastPublished: ledger.events("BatchPublished").at(-1)?.payload.batch_date,
        record: (name, source, bytes) =>
          Effect.map(record(ledger, raw, name, source, bytes), (r) => {
            observed.push(r.observed)
            if (r.appended) appended++
          }),
        wait: (why) => void waiting.push({ dataSet: adapter.name, why }),
      })
    }
    return { observed, appended, waiting } satisfies CollectResult
  })

export { CmfSourceError }
