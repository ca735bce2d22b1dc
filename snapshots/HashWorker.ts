/** Worker thread entry of the snapshot's content hash (HashJob.ts), beside the writer's thread. */
import { serveBeside } from "./Beside.ts"

await serveBeside(async () => (await import("./HashJob.ts")).hashJob)
