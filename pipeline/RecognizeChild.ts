/** The child process of a folder collect's recognition (RecognizeAhead.ts's `recognizeJob`). Always answers. */
import { serveJob } from "./offload/Offload.ts"
import { recognizeJob } from "./RecognizeAhead.ts"

await serveJob(recognizeJob)
