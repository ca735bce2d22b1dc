/**
 * Worker thread entry of the parse ahead (ParseAhead.ts): parses its files into the parse cache on
 * disk and answers how many failed. Always answers (modules are imported inside the try) and raises
 * the shared flag.
 */
import { workerData } from "node:worker_threads"
import { answerBlocking } from "../../snapshots/BlockingWorker.ts"
import type { ParseAheadAnswer, ParseAheadRequest } from "./ParseAhead.ts"

const request = workerData as ParseAheadRequest
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
answerBlocking(request, answer)
