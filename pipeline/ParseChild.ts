/** The child process of the parse ahead (ParseAhead.ts's `parseAheadJob`). Always answers. */
import { serveJob } from "./offload/Offload.ts"
import { parseAheadJob } from "./ParseAhead.ts"

await serveJob(parseAheadJob)
