/**
 * Our Parquet writer (hyparquet-writer, snapshots/parquet/) beside DuckDB's, on one snapshot, side
 * by side in one run, each writer in a child process of its own (so its peak RSS is its own), the
 * writers taking turns for BENCH_REPEATS rounds (default 3; medians):
 *
 * - `ours (all files)`: writeParquet as the pipeline runs it (days-<YYYY>, series, returns, tac,
 *   holdings; each file fsynced).
 * - `ours (days)`: only the days-<YYYY> files, with writeParquet's own loop (writeDaysFiles).
 * - `duckdb snappy` / `duckdb zstd`: the same rows read from the SQLite snapshot with better-sqlite3
 *   (DuckDB's sqlite extension is not at hand offline), same query and order as writeParquet's,
 *   appended a row at a time with DuckDB's appender into an in-memory table, then per year
 *   `COPY (SELECT … WHERE year = Y ORDER BY asset_id, date) TO 'days-Y.parquet'
 *   (FORMAT parquet, COMPRESSION …, ROW_GROUP_SIZE 65536)`. DuckDB uses its default threads (the
 *   machine's cores); ours is one thread.
 *
 * `floor` loads no writer and only reads the days query through: the reading every writer pays and
 * the RSS every child starts from. The days-only variants fsync their files too, as writeParquet does. Afterwards (in this process,
 * outside the figures) DuckDB reads every writer's days files back: rows, sum(price) and
 * sum(shareholders) must equal the SQLite quotas table's, else the run fails.
 *
 * The snapshot: CURRENT in BENCH_DATA_DIR's snapshots, else the small sample built here
 * (BENCH_SCALE=full: the full-size one, slow). Run alone: `node test/bench/parquetWriters.ts`,
 * or as the `parquet` part of `make bench`.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { fsyncPath } from "../../snapshots/Files.ts"

// each writer's modules are imported in its own child only (before its clock starts), so DuckDB's native
// library is not in our writer's RSS; DuckDB's child takes epochDay and ROW_GROUP_ROWS from ParquetTable.ts
// (it loads hyparquet-writer, pure JS, ~0.4 MB) so both write the same dates and row groups
type DuckDB = typeof import("@duckdb/node-api")
type Table = typeof import("../../snapshots/parquet/ParquetTable.ts")
type Ours = typeof import("../../snapshots/parquet/WriteParquet.ts")

const MB = 1024 * 1024
const DAYS_SQL = "SELECT asset_id, date, price, patrimony, holders FROM quotas ORDER BY asset_id, date"

/** `floor`: no writer loaded, the days query read through and dropped: the reading every writer pays, and the RSS every child starts from. */
const VARIANTS = ["floor", "ours (all files)", "ours (days)", "duckdb snappy", "duckdb zstd"] as const
type Variant = (typeof VARIANTS)[number]

/** What a child prints: wall time, its phases, its peak RSS. */
interface ChildFigures {
  readonly ms: number
  readonly phases?: Record<string, number>
  readonly peakRssMb: number
}

const peakRssMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024)

/** Only the days-<YYYY> files, with writeParquet's own writeDaysFiles (one pass over quotas, every year's file at once), each fsynced. */
const oursDays = ({ writeDaysFiles }: Ours, sqlite: string, out: string, batchId: string): void => {
  const db = new Database(sqlite, { readonly: true, fileMustExist: true })
  try {
    for (const { file } of writeDaysFiles(db, out, [{ key: "fds.batch_id", value: batchId }])) fsyncPath(join(out, file))
  } finally {
    db.close()
  }
}

/** SQLite rows → DuckDB's appender (an in-memory table) → one COPY per year. */
const duckdbDays = async (
  { DuckDBInstance, dateValue }: DuckDB,
  { epochDay, ROW_GROUP_ROWS }: Table,
  sqlite: string,
  out: string,
  compression: "snappy" | "zstd",
): Promise<Record<string, number>> => {
  const t0 = performance.now()
  const instance = await DuckDBInstance.create(":memory:")
  const connection = await instance.connect()
  const db = new Database(sqlite, { readonly: true, fileMustExist: true })
  try {
    await connection.run(
      "CREATE TABLE days (asset_id BIGINT NOT NULL, date DATE NOT NULL, price DOUBLE NOT NULL, total_net_assets DOUBLE, shareholders BIGINT)",
    )
    const appender = await connection.createAppender("days")
    const years = new Set<number>()
    for (const raw of db.prepare(DAYS_SQL).raw(true).iterate()) {
      const row = raw as [number, number, number, number | null, number | null]
      years.add(Math.floor(row[1] / 10000))
      appender.appendBigInt(BigInt(row[0]))
      appender.appendDate(dateValue(epochDay(row[1])))
      appender.appendDouble(row[2])
      if (row[3] === null) appender.appendNull()
      else appender.appendDouble(row[3])
      if (row[4] === null) appender.appendNull()
      else appender.appendBigInt(BigInt(row[4]))
      appender.endRow()
    }
    appender.flushSync()
    appender.closeSync()
    const t1 = performance.now()
    for (const year of [...years].sort((a, b) => a - b)) {
      const file = join(out, `days-${year}.parquet`)
      await connection.run(
        `COPY (SELECT * FROM days WHERE date >= DATE '${year}-01-01' AND date < DATE '${year + 1}-01-01' ORDER BY asset_id, date)
          TO '${file}' (FORMAT parquet, COMPRESSION ${compression}, ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`,
      )
      fsyncPath(file)
    }
    return { "load (ms)": Math.round(t1 - t0), "copy (ms)": Math.round(performance.now() - t1) }
  } finally {
    db.close()
    connection.closeSync()
    instance.closeSync()
  }
}

const readOnly = (sqlite: string): void => {
  const db = new Database(sqlite, { readonly: true, fileMustExist: true })
  try {
    let rows = 0
    for (const _ of db.prepare(DAYS_SQL).raw(true).iterate()) rows++
    if (rows === 0) throw new Error("no daily values")
  } finally {
    db.close()
  }
}

/** In the child: one writer, then its figures as JSON on the last line. */
const child = async (variant: Variant, snapshots: string, batchId: string, out: string): Promise<void> => {
  const sqlite = join(snapshots, `${batchId}.sqlite`)
  const table = variant === "floor" ? null : await import("../../snapshots/parquet/ParquetTable.ts")
  const ours = variant.startsWith("ours") ? await import("../../snapshots/parquet/WriteParquet.ts") : null
  const duckdb = variant.startsWith("duckdb") ? await import("@duckdb/node-api") : null
  const started = performance.now()
  let phases: Record<string, number> | undefined
  if (variant === "floor") readOnly(sqlite)
  else if (variant === "ours (all files)") ours!.writeParquet(snapshots, batchId)
  else if (variant === "ours (days)") oursDays(ours!, sqlite, out, batchId)
  else phases = await duckdbDays(duckdb!, table!, sqlite, out, variant === "duckdb zstd" ? "zstd" : "snappy")
  const figures: ChildFigures = { ms: Math.round(performance.now() - started), ...(phases ? { phases } : {}), peakRssMb: peakRssMb() }
  console.log(JSON.stringify(figures))
}

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

const bytesOf = (dir: string, days: boolean): number =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".parquet") && (!days || f.startsWith("days-")))
    .reduce((s, f) => s + statSync(join(dir, f)).size, 0)

/** Rows, sum(price), sum(shareholders): of the days files in `dir` as DuckDB reads them back, or of the SQLite quotas. */
interface Sums {
  readonly rows: number
  readonly price: number
  readonly shareholders: number
}

const readBack = async (dir: string): Promise<Sums> => {
  const { DuckDBInstance } = await import("@duckdb/node-api")
  const instance = await DuckDBInstance.create(":memory:")
  const connection = await instance.connect()
  try {
    const r = await connection.runAndReadAll(
      `SELECT count(*)::DOUBLE, fsum(price), coalesce(sum(shareholders), 0)::DOUBLE FROM read_parquet('${join(dir, "days-*.parquet")}')`,
    )
    const [rows, price, shareholders] = r.getRows()[0] as number[]
    return { rows: rows!, price: price!, shareholders: shareholders! }
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

/** Equal counts, equal integer sums, and the price sums within 1e-9 of each other (summation order differs). */
const same = (a: Sums, b: Sums): boolean =>
  a.rows === b.rows && a.shareholders === b.shareholders && Math.abs(a.price - b.price) <= 1e-9 * Math.abs(b.price)

const show = (s: Sums): string => `${s.rows} rows, sum(price) ${s.price.toFixed(2)}, sum(shareholders) ${s.shareholders}`

export const benchParquetWriters = async (): Promise<Record<string, unknown>> => {
  const work = mkdtempSync(join(tmpdir(), "fds-bench-parquet-writers-"))
  try {
    let dataDir = process.env.BENCH_DATA_DIR
    if (dataDir === undefined) {
      dataDir = join(work, "data")
      const scale = process.env.BENCH_SCALE === "full" ? "full" : "small"
      const { publishSample } = await import("./harness.ts")
      console.log(`bench parquet writers: building the ${scale} sample in ${work}`)
      publishSample({ ...process.env, FDS_DATA_DIR: dataDir }, work, scale)
    }
    const snapshots = join(dataDir, "snapshots")
    const file = readFileSync(join(snapshots, "CURRENT"), "utf8").trim()
    const batchId = file.replace(/\.sqlite$/, "")
    const db = new Database(join(snapshots, file), { readonly: true })
    const expected = db.prepare("SELECT count(*) AS rows, sum(price) AS price, coalesce(sum(holders), 0) AS shareholders FROM quotas").get() as Sums
    db.close()
    const quotaRows = expected.rows
    const sqliteBytes = statSync(join(snapshots, file)).size
    console.log(`batch ${batchId}: SQLite ${(sqliteBytes / MB).toFixed(1)} MB, ${quotaRows} daily values`)
    const repeats = Math.max(1, Number(process.env.BENCH_REPEATS ?? 3))
    const runs = new Map<Variant, Array<ChildFigures & { bytes: number; daysBytes: number }>>(VARIANTS.map((v) => [v, []]))
    for (let round = 0; round < repeats; round++) {
      for (const variant of VARIANTS) {
        // a scratch folder with the snapshot linked in, so no Parquet folder is reused
        const scratch = join(work, `scratch-${round}-${VARIANTS.indexOf(variant)}`)
        const out = join(scratch, "out")
        mkdirSync(out, { recursive: true })
        symlinkSync(join(snapshots, file), join(scratch, file))
        const printed = execFileSync(process.execPath, [import.meta.filename, "--child", variant, scratch, batchId, out], {
          encoding: "utf8",
          maxBuffer: 16 * MB,
        })
        const figures = JSON.parse(printed.trim().split("\n").at(-1)!) as ChildFigures
        const dir = variant === "ours (all files)" ? join(scratch, `${batchId}.parquet`) : out
        if (variant === "floor") {
          runs.get(variant)!.push({ ...figures, bytes: 0, daysBytes: 0 })
          rmSync(scratch, { recursive: true, force: true })
          continue
        }
        const got = await readBack(dir)
        if (!same(got, expected)) throw new Error(`${variant}: read back ${show(got)}, the SQLite quotas give ${show(expected)}`)
        runs.get(variant)!.push({ ...figures, bytes: bytesOf(dir, false), daysBytes: bytesOf(dir, true) })
        console.log(`round ${round + 1} ${variant}: ${figures.ms} ms, ${figures.peakRssMb} MB peak RSS (read back: ${show(got)})`)
        rmSync(scratch, { recursive: true, force: true })
      }
    }
    const rows = VARIANTS.map((variant) => {
      const r = runs.get(variant)!
      const phases = r[0]!.phases
      return {
        writer: variant,
        "wall (ms)": median(r.map((x) => x.ms)),
        ...(phases === undefined
          ? {}
          : Object.fromEntries(Object.keys(phases).map((k) => [k, median(r.map((x) => x.phases?.[k] ?? 0))]))),
        "peak RSS (MB)": median(r.map((x) => x.peakRssMb)),
        "all files (MB)": Number((r[0]!.bytes / MB).toFixed(2)),
        "days files (MB)": Number((r[0]!.daysBytes / MB).toFixed(2)),
      }
    })
    console.log(`medians of ${repeats} run(s); every writer's days files read back as the SQLite quotas: ${show(expected)}`)
    console.table(rows)
    return { batchId, sqliteMb: Number((sqliteBytes / MB).toFixed(1)), quotaRows, repeats, rows }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

if (process.argv[2] === "--child") await child(process.argv[3] as Variant, process.argv[4]!, process.argv[5]!, process.argv[6]!)
else if (import.meta.main) await benchParquetWriters()
