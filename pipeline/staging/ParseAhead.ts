/**
 * The parse ahead of a cold build (and of `reproduce`) on both cores. A build from nothing parses
 * every CMF file of the history (~7,000 files at market scale: the monthly cartolas, thousands of FI
 * pages), one after the other, before it stages anything. Parsed files go into the parse cache by
 * content (ParsedCache.ts), and `loadInputs` reads a cached file's summary instead of parsing it:
 * so the files not yet cached are parsed into the cache first, half of each data set's in a child
 * process (AlongsideProcess.ts) and half in this thread, and `loadInputs` then finds them all cached. What is built is the
 * same: the same parsers write the same entries, and a file that fails is left to `loadInputs`,
 * which parses it again and reports it as before.
 *
 * Only with the cache and raw store on disk (the child opens them), at least 2 CPUs, and at least
 * `MIN_BYTES` of files not yet cached (a daily build parses a file or two: a child process would cost more
 * than it saves). `FDS_PARSE_AHEAD=0` turns it off.
 */
import { availableParallelism } from "node:os"
import { alongsideProcess } from "../AlongsideProcess.ts"
import { parseIntoCache } from "../Build.ts"
import type { RawFileObserved } from "../ledger/Ledger.ts"
import { FolderRawStore, type RawStore } from "../RawStore.ts"
import { PIPELINE_VERSION } from "../Version.ts"
import type { ParsedCache } from "./ParsedCache.ts"
import { DiskParsedCache, PARSED_CACHE_VERSION } from "./ParsedCache.ts"

const CHILD = new URL("./ParseChild.ts", import.meta.url)
/** Files not yet cached below this many bytes are left to `loadInputs` alone. */
export const MIN_BYTES = 32e6
export interface ParseAheadRequest {
  /** The parent's versions: a child that runs other code (updated on disk meanwhile) parses nothing. */
  readonly versions: { readonly pipeline: string; readonly cache: number }
  readonly rawDir: string
  readonly dataDir: string
  readonly inputs: ReadonlyArray<RawFileObserved>
}

export type ParseAheadAnswer =
  | { readonly _tag: "Parsed"; readonly files: number; readonly failed: number; readonly ms: number }
  | { readonly _tag: "Failed"; readonly reason: string }

/** What the parse ahead did, for the build log; null when it did not run. */
export interface ParseAheadFigures {
  readonly files: number
  readonly bytes: number
  readonly child_files: number
  readonly child_ms: number | null
  readonly thread_ms: number
  readonly ms: number
  readonly failed: number
}

/**
 * Splits each data set's files in two, alternately (a data set's files are alike in size and cost:
 * each half gets as many cartola months and as many FI pages).
 */
export const halves = (inputs: ReadonlyArray<RawFileObserved>): [RawFileObserved[], RawFileObserved[]] => {
  const mine: RawFileObserved[] = []
  const theirs: RawFileObserved[] = []
  const seen = new Map<string, number>()
  for (const input of inputs) {
    const n = seen.get(input.data_set) ?? 0
    seen.set(input.data_set, n + 1)
    ;(n % 2 === 0 ? theirs : mine).push(input)
  }
  return [mine, theirs]
}

export const parseAhead = async (
  raw: RawStore["Service"],
  inputs: ReadonlyArray<RawFileObserved>,
  cache: ParsedCache["Service"] | null,
  minBytes = MIN_BYTES,
): Promise<ParseAheadFigures | null> => {
  if (process.env.FDS_PARSE_AHEAD === "0" || availableParallelism() < 2) return null
  if (!(raw instanceof FolderRawStore) || !(cache instanceof DiskParsedCache)) return null
  const missing = inputs.filter((i) => !cache.hasSummary({ sha256: i.sha256, name: i.name }))
  const bytes = missing.reduce((n, i) => n + i.bytes, 0)
  if (bytes < minBytes || missing.length < 2) return null
  const started = performance.now()
  const [mine, theirs] = halves(missing)
  let failed = 0
  let threadMs = 0
  // A child that failed leaves its files unparsed: loadInputs parses them.
  const answer = await alongsideProcess<ParseAheadAnswer>(
    CHILD,
    { versions: { pipeline: PIPELINE_VERSION, cache: PARSED_CACHE_VERSION }, rawDir: raw.dir, dataDir: cache.dataDir, inputs: theirs } satisfies ParseAheadRequest,
    () => {
      failed = parseIntoCache(raw, mine, cache)
      threadMs = performance.now() - started
    },
    { _tag: "Failed", reason: "the parse process gave no answer" },
  )
  return {
    files: missing.length,
    bytes,
    child_files: theirs.length,
    child_ms: answer._tag === "Parsed" ? Math.round(answer.ms) : null,
    thread_ms: Math.round(threadMs),
    ms: Math.round(performance.now() - started),
    failed: failed + (answer._tag === "Parsed" ? answer.failed : 0),
  }
}
