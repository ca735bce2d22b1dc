/** Parsing progress: a bar with rate and ETA on a terminal, JSON log lines otherwise. */
import { SingleBar } from "cli-progress"
import type { Progress } from "./Build.ts"

export const terminalOrLogProgress = (stream: NodeJS.WriteStream = process.stderr): Progress => {
  if (stream.isTTY) {
    const bar = new SingleBar(
      {
        format: "parsing {bar} {value}/{total} files | {rows} rows | {rate} rows/s | ETA {eta_formatted}",
        stream,
        hideCursor: true,
      },
    )
    let started = 0
    return {
      start: (files) => {
        started = performance.now()
        bar.start(files, 0, { rows: 0, rate: 0 })
      },
      file: (_name, rows) => {
        const seconds = (performance.now() - started) / 1000
        bar.increment(1, { rows, rate: seconds > 0 ? Math.round(rows / seconds) : 0 })
      },
      stop: () => bar.stop(),
    }
  }
  let total = 0
  let done = 0
  let started = 0
  let lastLog = 0
  return {
    start: (files) => {
      total = files
      started = performance.now()
    },
    file: (name, rows) => {
      done++
      const now = performance.now()
      if (now - lastLog < 2000 && done < total) return
      lastLog = now
      const seconds = (now - started) / 1000
      const eta = done > 0 ? ((total - done) * seconds) / done : 0
      stream.write(
        JSON.stringify({ level: "info", stage: "parse", files_done: done, files_total: total, last_file: name, rows, rows_per_s: Math.round(rows / Math.max(seconds, 0.001)), eta_s: Math.round(eta) }) + "\n",
      )
    },
    stop: () => {},
  }
}
