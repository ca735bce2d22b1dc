/**
 * The process of one daemon tick (started by ChildTick.ts with a memory limit): reads the run's
 * options from its environment (the daemon's), runs the batch as `pipeline run` does, with the
 * retry of source failures, and sends its log lines and its result to the daemon over IPC, then
 * exits. SIGTERM, or the daemon gone, interrupts the run (it publishes nothing more).
 */
import { readSettings } from "../Settings.ts"
import { runOptions } from "./RunConfig.ts"
import type { RetryPolicy } from "./Retry.ts"
import { type ChildMessage, runTickEffect, type TickResult } from "./Tick.ts"

const send = (message: ChildMessage): Promise<void> =>
  new Promise((resolve) => {
    if (process.send === undefined || !process.connected) return resolve()
    process.send(message, undefined, {}, () => resolve())
  })

const { run, retry } = JSON.parse(process.argv[2] ?? "{}") as { run: number; retry: RetryPolicy }
const controller = new AbortController()
process.once("SIGTERM", () => controller.abort())
process.once("disconnect", () => controller.abort())

let result: TickResult
try {
  const options = readSettings(runOptions({}))
  result = await runTickEffect(options, retry, (level, msg, fields = {}) => void send({ type: "log", level, msg, fields }), run, controller.signal)
} catch (e) {
  result = { level: "error", fields: { outcome: "failed", reason: String(e).slice(0, 2000) }, published: null }
}
await send({ type: "result", result })
process.exit(0)
