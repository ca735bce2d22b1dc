/**
 * The child process of the parse ahead (ParseAhead.ts): parses its files into the parse cache on
 * disk and prints how many failed. Always answers.
 */
import { childAnswer, childRequest } from "../AlongsideProcess.ts"
import type { ParseAheadAnswer, ParseAheadRequest } from "./ParseAhead.ts"

const request = childRequest<ParseAheadRequest>()
let answer: ParseAheadAnswer
try {
  const started = performance.now()
  const { parseIntoCache } = await import("../Build.ts")
  const { FolderRawStore } = await import("../RawStore.ts")
  const { DiskParsedCache, PARSED_CACHE_VERSION } = await import("./ParsedCache.ts")
  const { PIPELINE_VERSION } = await import("../Version.ts")
  if (request.versions.pipeline !== PIPELINE_VERSION || request.versions.cache !== PARSED_CACHE_VERSION) {
    answer = { _tag: "Failed", reason: `the code on disk is pipeline ${PIPELINE_VERSION} (cache ${PARSED_CACHE_VERSION}), not the build's` }
  } else {
    const cache = new DiskParsedCache(request.dataDir, { keepOtherVersions: true })
    const failed = parseIntoCache(new FolderRawStore(request.rawDir), request.inputs, cache)
    answer = { _tag: "Parsed", files: request.inputs.length, failed, ms: performance.now() - started }
  }
} catch (e) {
  answer = { _tag: "Failed", reason: e instanceof Error ? e.message : String(e) }
}
childAnswer(answer)
