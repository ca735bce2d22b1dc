/** The daemon's log: one JSON object per line (time, level, msg, fields), for journald or a log shipper. */
export type Level = "info" | "warn" | "error"
export type Log = (level: Level, msg: string, fields?: Readonly<Record<string, unknown>>) => void

export const jsonLog =
  (write: (line: string) => void = (line) => process.stdout.write(line)): Log =>
  (level, msg, fields = {}) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + "\n")
