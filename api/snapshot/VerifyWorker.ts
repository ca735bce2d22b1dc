/** Worker thread entry: verifies the snapshot named in `workerData`, posts one Verdict, ends. */
import { setPriority } from "node:os"
import { parentPort, workerData } from "node:worker_threads"
import { type Verdict, type VerifyRequest, verifySnapshot } from "./SnapshotVerification.ts"

// A check may wait; requests should not. On Linux the nice value belongs to the thread, so this
// lowers this worker only and the event loop's thread wins the CPU on a busy machine (elsewhere
// it would lower the whole process: left alone).
if (process.platform === "linux") {
  try {
    setPriority(0, 10)
  } catch {
    // not allowed here: the check runs at normal priority
  }
}

const { dir, file } = workerData as VerifyRequest
let verdict: Verdict
try {
  verdict = { _tag: "Passed", snapshot: verifySnapshot(dir, file) }
} catch (e) {
  verdict = { _tag: "Failed", reason: String(e) }
}
parentPort?.postMessage(verdict)
