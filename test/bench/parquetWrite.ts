/**
 * The Parquet files' cost at publish: for the batch CURRENT names in BENCH_DATA_DIR's snapshots
 * (or in the small sample, built here when BENCH_DATA_DIR is not given; BENCH_SCALE=full builds the
 * full-size one, slow), the time writeParquet takes, the peak RSS of the process that ran it (a
 * child of its own, so nothing else counts), and each file's size beside the SQLite file's.
 * The snapshot is linked into a scratch folder so an existing Parquet folder is not reused.
 * Prints a table. Run alone: `node test/bench/parquetWrite.ts`.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { writeParquet } from "../../snapshots/parquet/WriteParquet.ts"
import { publishSample } from "./harness.ts"

const MB = 1024 * 1024

/** In the child: writes the files and prints the figures as JSON. */
const child = (dir: string, batchId: string): void => {
  const started = performance.now()
  const written = writeParquet(dir, batchId)
  const ms = Math.round(performance.now() - started)
  console.log(JSON.stringify({ ms, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024), written }))
}

const main = (): void => {
  const work = mkdtempSync(join(tmpdir(), "fds-bench-parquet-"))
  try {
    let dataDir = process.env.BENCH_DATA_DIR
    if (dataDir === undefined) {
      dataDir = join(work, "data")
      const scale = process.env.BENCH_SCALE === "full" ? "full" : "small"
      console.log(`bench parquet: building the ${scale} sample in ${work}`)
      publishSample({ ...process.env, FDS_DATA_DIR: dataDir }, work, scale)
    }
    const snapshots = join(dataDir, "snapshots")
    const file = readFileSync(join(snapshots, "CURRENT"), "utf8").trim()
    const batchId = file.replace(/\.sqlite$/, "")
    const scratch = join(work, "scratch")
    execFileSync("mkdir", ["-p", scratch])
    symlinkSync(join(snapshots, file), join(scratch, file))
    const out = execFileSync(process.execPath, [import.meta.filename, "--child", scratch, batchId], { encoding: "utf8", maxBuffer: 16 * MB })
    const figures = JSON.parse(out.trim().split("\n").at(-1)!) as {
      ms: number
      peakRssMb: number
      written: ReadonlyArray<{ file: string; rows: number }>
    }
    const folder = join(scratch, `${batchId}.parquet`)
    const sqlite = statSync(join(snapshots, file)).size
    const rows = readdirSync(folder)
      .sort()
      .map((f) => ({ file: f, rows: figures.written.find((w) => w.file === f)?.rows ?? 0, bytes: statSync(join(folder, f)).size }))
    const total = rows.reduce((s, r) => s + r.bytes, 0)
    console.log(`batch ${batchId}: SQLite ${(sqlite / MB).toFixed(1)} MB`)
    console.table(rows.map((r) => ({ file: r.file, rows: r.rows, "size (KB)": Math.round(r.bytes / 1024) })))
    console.table([
      {
        "write (ms)": figures.ms,
        "peak RSS (MB)": figures.peakRssMb,
        "Parquet total (MB)": Number((total / MB).toFixed(2)),
        "SQLite (MB)": Number((sqlite / MB).toFixed(2)),
        "Parquet / SQLite": Number((total / sqlite).toFixed(3)),
      },
    ])
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

if (process.argv[2] === "--child") child(process.argv[3]!, process.argv[4]!)
else main()
