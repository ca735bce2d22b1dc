/**
 * Verifies a snapshot in a short-lived worker thread (VerifyWorker.ts), so the event loop keeps
 * serving while quick_check reads the file. One worker per check: a check is rare (one per
 * publish), a fresh thread costs about 0.1 s, and a thread that crashes or is cancelled takes
 * nothing of the API's with it.
 */
import { Worker } from "node:worker_threads"
import type { Verdict, VerifyRequest } from "./SnapshotVerification.ts"

const VERIFY_WORKER = new URL("./VerifyWorker.ts", import.meta.url)

/** A check under way. */
export interface Verification {
  /** Settles once and never rejects: the worker's verdict, a failure of the worker, or Cancelled. */
  readonly verdict: Promise<Verdict>
  /**
   * Turns the verdict Cancelled at once (unless it is in) and ends the worker; resolves when the
   * thread has exited, which waits for a SQLite statement under way (quick_check) to return.
   * Never rejects.
   */
  readonly cancel: () => Promise<void>
}

/** Starts checking `dir/file` off the event loop; `script` is the worker (tests swap it). */
export const verifyOffThread = (dir: string, file: string, script: URL = VERIFY_WORKER): Verification => {
  // the first verdict settles it; a settled promise ignores the later ones
  const { promise, resolve: settle } = Promise.withResolvers<Verdict>()
  let worker: Worker
  try {
    worker = new Worker(script, { workerData: { dir, file } satisfies VerifyRequest })
  } catch (e) {
    settle({ _tag: "Failed", reason: `the verification worker did not start: ${String(e)}` })
    return { verdict: promise, cancel: () => Promise.resolve() }
  }
  worker.on("message", (verdict: Verdict) => settle(verdict))
  worker.on("messageerror", (e) => settle({ _tag: "Failed", reason: `the verification worker's answer was unreadable: ${String(e)}` }))
  worker.on("error", (e) => settle({ _tag: "Failed", reason: `the verification worker failed: ${String(e)}` }))
  // Messages are delivered before "exit": an exit that finds nothing settled never answered.
  worker.on("exit", (code) => settle({ _tag: "Failed", reason: `the verification worker exited (code ${code}) without an answer` }))
  return {
    verdict: promise,
    cancel: async () => {
      settle({ _tag: "Cancelled" })
      await worker.terminate().catch(() => undefined)
    },
  }
}
