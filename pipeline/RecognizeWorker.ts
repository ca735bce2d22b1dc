/**
 * Worker thread entry of the folder collect's recognition (RecognizeAhead.ts): stores and
 * recognises its files, answering each one's recognition (null where it threw). Always answers
 * (modules are imported inside the try) and raises the shared flag.
 */
import { workerData } from "node:worker_threads"
import { answerBlocking } from "../snapshots/BlockingWorker.ts"
import type { RecognizeAnswer, Recognized, RecognizeRequest } from "./RecognizeAhead.ts"

const request = workerData as RecognizeRequest
let answer: RecognizeAnswer
try {
  const { recognize } = await import("./RecognizeAhead.ts")
  const { FolderRawStore } = await import("./RawStore.ts")
  const raw = new FolderRawStore(request.rawDir)
  const files: Array<Recognized | null> = request.paths.map((path) => {
    try {
      return recognize(raw, path)
    } catch {
      return null
    }
  })
  answer = { _tag: "Recognized", files }
} catch (e) {
  answer = { _tag: "Failed", reason: e instanceof Error ? e.message : String(e) }
}
answerBlocking(request, answer)
