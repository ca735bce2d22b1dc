/**
 * Parsing progress: a bar with rate and ETA on `stream` when it is a terminal, JSON log lines on
 * stderr otherwise (`logLine` of snapshots/Log.ts: the callback runs outside any Effect).
 */
import { SingleBar } from "cli-progress"
import { logLine } from "../snapshots/Log.ts"
import type { Progress } from "./Load.ts"

export const terminalOrLogProgress = (stream: NodeJS.WriteStream = process.stderr): Progress => {
  if (stream.isTTY) {
    const bar = new SingleBar(
      {
        format: "parsing {bar} {files}/{totalFiles} files | {rows} rows | {rate} rows/s | ETA {eta_formatted}",
        stream,
        hideCursor: true,
      },
    )
    let started = 0
    let files = 0
    let totalFiles = 0
    return {
      start: (count, bytes) => {
        started = performance.now()
        totalFiles = count
        bar.start(bytes, 0, { rows: 0, rate: 0, files: 0, totalFiles })
      },
      file: (_name, rows, bytes) => {
        const seconds = (performance.now() - started) / 1000
        bar.increment(bytes, { rows, rate: seconds > 0 ? Math.round(rows / seconds) : 0, files: ++files, totalFiles })
      },
      stop: () => bar.stop(),
    }
  }
  let total = 0
  let done = 0
  let totalBytes = 0
  let doneBytes = 0
  let started = 0
  let lastLog = 0
  return {
    start: (files, bytes) => {
      total = files
      totalBytes = bytes
      started = performance.now()
    },
    file: (name, rows, bytes) => {
      done++
      doneBytes += bytes
      const now = performance.now()
      if (now - lastLog < 2000 && done < total) return
      lastLog = now
      const seconds = (now - started) / 1000
      const eta = doneBytes > 0 ? ((totalBytes - doneBytes) * seconds) / doneBytes : 0
      logLine("info", "parsing", { stage: "parse", files_done: done, files_total: total, last_file: name, rows, rows_per_s: Math.round(rows / Math.max(seconds, 0.001)), eta_s: Math.round(eta), rss_mb: Math.round(process.memoryUsage.rss() / 1e6) })
    },
    stop: () => {},
  }
}
