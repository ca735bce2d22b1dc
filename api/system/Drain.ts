/**
 * The drain on SIGTERM (a balancer's "fail readiness, then stop"): the first signal makes the
 * readiness probes and /health answer 503 at once while the process keeps serving for the grace
 * period (FDS_DRAIN_SECONDS), so the balancer's checks see it leave before it stops accepting;
 * then the server's scope closes: the listener stops, requests in flight finish (effect's Node
 * server waits for them), the snapshot and the stores close, and the process exits 0. A second
 * signal exits at once.
 */
import { Cause, Exit, type Fiber, Runtime } from "effect"
import { logLine } from "../../snapshots/Log.ts"

/** Whether (and since when) the process is draining; read by the readiness rule (Readiness.ts). */
export class DrainState {
  private startedAt: number | null = null
  /** The grace period; set by `serve` once the settings are read. */
  graceMillis = 5_000

  get draining(): boolean {
    return this.startedAt !== null
  }

  /** Starts the drain; false when it had already started. */
  begin(nowMillis: number): boolean {
    if (this.startedAt !== null) return false
    this.startedAt = nowMillis
    return true
  }
}

/** The drain's lines come from signal handlers and timers, outside any Effect. */
const log = (msg: string, fields: Record<string, unknown> = {}) => logLine("info", msg, fields)

/**
 * NodeRuntime.runMain for the server, with the drain in place of its "interrupt at once": the
 * first SIGTERM or SIGINT begins the drain and interrupts the program after the grace period; a
 * second signal exits at once (128 + the signal's number, as a shell reports it). A program
 * interrupted by the drain exits 0.
 */
export const runWithDrain = (drain: DrainState) =>
  Runtime.makeRunMain(({ fiber, teardown }: { readonly fiber: Fiber.Fiber<unknown, unknown>; readonly teardown: Runtime.Teardown }) => {
    let signalled = false
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) {
        log("second signal: exiting now", { signal })
        process.exit(signal === "SIGINT" ? 130 : 143)
      }
      signalled = true
      drain.begin(Date.now())
      log("draining: readiness fails now, serving until the grace period ends", { signal, grace_seconds: drain.graceMillis / 1000 })
      setTimeout(() => {
        log("drain over: closing the listener, finishing the requests in flight")
        fiber.interruptUnsafe(fiber.id)
      }, drain.graceMillis).unref()
    }
    process.on("SIGINT", onSignal)
    process.on("SIGTERM", onSignal)
    fiber.addObserver((exit) => {
      const drained = signalled && (Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause))
      teardown(drained ? Exit.void : exit, (code) => {
        if (drained) {
          log("drained: exiting 0")
          process.exit(0)
        }
        // a program that succeeded keeps the exit code it set (process.exitCode): no argument,
        // since process.exit(undefined) sets it to undefined
        if (code === 0) process.exit()
        process.exit(code)
      })
    })
  })
