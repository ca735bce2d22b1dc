/**
 * The daemon's log: one JSON object per line (time, level, msg, fields; the one format of
 * snapshots/Log.ts), on stdout for journald or a log shipper. A `Log` is passed in, so the commands
 * that log this way (the daemon, `publish`, `follow`) are tested with a function that keeps the lines.
 */
import { formatLine } from "../../snapshots/Log.ts"

export type Level = "info" | "warn" | "error"
export type Log = (level: Level, msg: string, fields?: Readonly<Record<string, unknown>>) => void

export const jsonLog =
  (write: (line: string) => void = (line) => process.stdout.write(line)): Log =>
  (level, msg, fields = {}) =>
    write(formatLine(level, msg, fields) + "\n")
