/**
 * Preloaded (NODE_OPTIONS=--import) into a `pipeline daemon` and so into its run children: in the
 * run child (RunChild.ts) of the first run after `FDS_HOG_MARKER` (a file) appears, once the run
 * has marked itself running in STATUS.json, it removes the marker and allocates memory without
 * end, as a file that exhausts memory would: the child must die of the memory limit, not the
 * daemon. Anywhere else it does nothing.
 */
import fs from "node:fs"
import { syncBuiltinESMExports } from "node:module"

const marker = process.env.FDS_HOG_MARKER
if (marker !== undefined && marker !== "" && (process.argv[1] ?? "").endsWith("RunChild.ts")) {
  const table = fs as unknown as Record<string, (...args: unknown[]) => unknown>
  const original = table.renameSync!
  table.renameSync = function (this: unknown, ...args: unknown[]) {
    const result = original.apply(this, args)
    if (typeof args[1] === "string" && args[1].endsWith("STATUS.json") && fs.existsSync(marker)) {
      fs.rmSync(marker)
      const kept: number[][] = []
      for (;;) kept.push(new Array<number>(1 << 20).fill(kept.length + 0.5))
    }
    return result
  }
  syncBuiltinESMExports()
}
