/**
 * The snapshot store's log lines (JSON on console.log / console.error) of the in-process servers,
 * captured for assertions; `clear` between phases, `restore` at the end.
 */
import { vi } from "vitest"

export interface StoreLogLine {
  readonly level: string
  readonly msg: string
  readonly [field: string]: unknown
}

export const captureStoreLog = () => {
  const lines: StoreLogLine[] = []
  const keep = (...args: unknown[]) => {
    const text = args.map(String).join(" ")
    try {
      const parsed = JSON.parse(text) as unknown
      if (typeof parsed === "object" && parsed !== null && "msg" in parsed) lines.push(parsed as StoreLogLine)
    } catch {
      // not a log line of ours
    }
  }
  vi.spyOn(console, "log").mockImplementation(keep)
  vi.spyOn(console, "error").mockImplementation(keep)
  return {
    lines,
    clear: () => void lines.splice(0),
    /** Lines at warn or error level. */
    loud: () => lines.filter((l) => l.level === "warn" || l.level === "error"),
    restore: () => vi.restoreAllMocks(),
  }
}
