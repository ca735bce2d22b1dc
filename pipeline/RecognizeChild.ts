/**
 * The child process of a folder collect's recognition (RecognizeAhead.ts): stores and recognises
 * its files, printing each one's recognition (null where it threw). Always answers.
 */
import { childAnswer, childRequest } from "./AlongsideProcess.ts"
import type { RecognizeAnswer, Recognized, RecognizeRequest } from "./RecognizeAhead.ts"

const request = childRequest<RecognizeRequest>()
let answer: RecognizeAnswer
try {
  const { recognize } = await import("./RecognizeAhead.ts")
  const { FolderRawStore } = await import("./RawStore.ts")
  const { PIPELINE_VERSION } = await import("./Version.ts")
  if (request.pipeline !== PIPELINE_VERSION) {
    answer = { _tag: "Failed", reason: `the code on disk is pipeline ${PIPELINE_VERSION}, not the collect's` }
  } else {
    const raw = new FolderRawStore(request.rawDir)
    const files: Array<Recognized | null> = request.paths.map((path) => {
      try {
        return recognize(raw, path)
      } catch {
        return null
      }
    })
    answer = { _tag: "Recognized", files }
  }
} catch (e) {
  answer = { _tag: "Failed", reason: e instanceof Error ? e.message : String(e) }
}
childAnswer(answer)
