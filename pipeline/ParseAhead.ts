/**
 * The parse ahead of a cold build (and of `reproduce`) on both cores. A build from nothing parses
 * every CMF file of the history (~7,000 files at market scale: the monthly cartolas, thousands of FI
 * pages), one after the other, before it stages anything. Parsed files go into the parse cache by
 * content (ParsedCache.ts), and `loadInputs` reads a cached file's summary instead of parsing it:
 * so the files not yet cached are parsed into the cache first, half of each data set's by
 * `parseAheadJob` off this thread (the Offload service: a child process) and half in this thread, and `loadInputs` then finds them all cached. What is built is the
 * same: the same parsers write the same entries, and a file that fails is left to `loadInputs`,
 * which parses it again and reports it as before.
 *
 * Only with the cache and raw store on disk (the child opens them: their ports' `dataDir` and `dir`),
 * an Offload on two cores, and at least `MIN_BYTES` of files not yet cached (a daily build parses a
 * file or two: a child process would cost more than it saves). `FDS_PARSE_AHEAD=0` (the in-process
 * Offload) turns it off.
 */
import { parseIntoCache } from "./Load.ts"
import type { RawFileObserved } from "./ledger/Ledger.ts"
import type { OffloadJob, OffloadShape } from "./offload/Offload.ts"
import { FolderRawStore, type RawStore } from "./RawStore.ts"
import { PIPELINE_VERSION } from "./Version.ts"
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

/** Parses the request's files into the parse cache on disk; how many failed. */
export const parseAheadJob: OffloadJob<ParseAheadRequest, ParseAheadAnswer> = {
  script: CHILD,
  noAnswer: { _tag: "Failed", reason: "the parse process gave no answer" },
  run: async (request) => {
    const started = performance.now()
    if (request.versions.pipeline !== PIPELINE_VERSION || request.versions.cache !== PARSED_CACHE_VERSION) {
      return { _tag: "Failed", reason: `the code on disk is pipeline ${PIPELINE_VERSION} (cache ${PARSED_CACHE_VERSION}), not the build's` }
    }
    const cache = new DiskParsedCache(request.dataDir, { keepOtherVersions: true })
    const failed = parseIntoCache(new FolderRawStore(request.rawDir), request.inputs, cache)
    return { _tag: "Parsed", files: request.inputs.length, failed, ms: performance.now() - started }
  },
}

export const parseAhead = async (
  offload: OffloadShape,
  raw: RawStore["Service"],
  inputs: ReadonlyArray<RawFileObserved>,
  cache: ParsedCache["Service"] | null,
  minBytes = MIN_BYTES,
): Promise<ParseAheadFigures | null> => {
  if (offload.cores < 2 || raw.dir === null || cache === null || cache.dataDir === null) return null
  const missing = inputs.filter((i) => !cache.hasSummary({ sha256: i.sha256, name: i.name }))
  const bytes = missing.reduce((n, i) => n + i.bytes, 0)
  if (bytes < minBytes || missing.length < 2) return null
  const started = performance.now()
  const [mine, theirs] = halves(missing)
  let failed = 0
  let threadMs = 0
  // A child that failed leaves its files unparsed: loadInputs parses them.
  const request = { versions: { pipeline: PIPELINE_VERSION, cache: PARSED_CACHE_VERSION }, rawDir: raw.dir, dataDir: cache.dataDir, inputs: theirs }
  const answer = await offload.alongside(parseAheadJob, request, () => {
    failed = parseIntoCache(raw, mine, cache)
    threadMs = performance.now() - started
  })
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
