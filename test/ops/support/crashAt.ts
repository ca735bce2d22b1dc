/**
 * Preloaded into a pipeline child process (`node --import`) to kill it with SIGKILL at an exact
 * moment: when the `FDS_CRASH_NTH`-th call (default 1) of `fs.<FDS_CRASH_FN>` with a path argument
 * matching `FDS_CRASH_PATH` (a regular expression) is about to happen (`FDS_CRASH_WHEN=before`)
 * or has just returned (`after`). Without FDS_CRASH_FN it does nothing. A real SIGKILL: no
 * finalizer, no exit handler, no flush runs.
 */
import fs from "node:fs"
import { syncBuiltinESMExports } from "node:module"

const name = process.env.FDS_CRASH_FN
if (name !== undefined && name !== "") {
  const pattern = new RegExp(process.env.FDS_CRASH_PATH ?? ".")
  const when = process.env.FDS_CRASH_WHEN === "after" ? "after" : "before"
  const nth = Number(process.env.FDS_CRASH_NTH ?? "1")
  const table = fs as unknown as Record<string, (...args: unknown[]) => unknown>
  const original = table[name]
  if (typeof original !== "function") throw new Error(`crashAt: fs.${name} is not a function`)
  let seen = 0
  table[name] = function (this: unknown, ...args: unknown[]) {
    const hit = args.some((a) => typeof a === "string" && pattern.test(a)) && ++seen === nth
    if (hit && when === "before") process.kill(process.pid, "SIGKILL")
    const result = original.apply(this, args)
    if (hit && when === "after") process.kill(process.pid, "SIGKILL")
    return result
  }
  // ES module imports of node:fs see the patched function only after this.
  syncBuiltinESMExports()
}
