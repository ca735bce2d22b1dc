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
  const { DiskParsedCache } = await import("./ParsedCache.ts")
  const failed = parseIntoCache(new FolderRawStore(request.rawDir), request.inputs, new DiskParsedCache(request.dataDir))
  answer = { _tag: "Parsed", files: request.inputs.length, failed, ms: performance.now() - started }
} catch (e) {
  answer = { _tag: "Failed", reason: e instanceof Error ? e.message : String(e) }
}
childAnswer(answer)
