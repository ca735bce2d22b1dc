/**
 * What the snapshot store found wrong with CURRENT or with the file it serves, by kind: /health
 * is degraded while any is set (snapshots/Status.ts). Each new or changed fault is logged once at
 * error level, naming the cause; a cleared one once at info level.
 */

import { logLine } from "../../snapshots/Log.ts"

/** One JSON log line of the store (snapshots/Log.ts, on stderr); the store's watch and swap run outside any Effect. */
export const log = (level: "info" | "warn" | "error", msg: string, fields: Readonly<Record<string, unknown>>): void => logLine(level, msg, fields)

/** CURRENT names no file; CURRENT names a refused file; the served file is gone from disk; it changed or failed a read. */
export type FaultKind = "current" | "refused" | "gone" | "suspect"

export class StoreFaults {
  private readonly faults = new Map<FaultKind, { readonly cause: string; readonly logged: string }>()

  set(kind: FaultKind, cause: string, fields: Readonly<Record<string, unknown>>): void {
    const logged = JSON.stringify(fields)
    if (this.faults.get(kind)?.cause === cause && this.faults.get(kind)?.logged === logged) return
    this.faults.set(kind, { cause, logged })
    log("error", cause, fields)
  }

  clear(kind: FaultKind): void {
    const fault = this.faults.get(kind)
    if (fault === undefined) return
    this.faults.delete(kind)
    log("info", "no longer so", { was: fault.cause })
  }

  /** The causes now, for /health. */
  causes(): ReadonlyArray<string> {
    return [...this.faults.values()].map((f) => f.cause)
  }
}
