/** Worker thread entry of the computations run beside the build's thread (ComputeJob.ts). */
import { serveBeside } from "../../snapshots/Beside.ts"

await serveBeside(async () => (await import("./ComputeJob.ts")).computeJob)
