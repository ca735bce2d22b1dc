/**
 * The pipeline part of `make bench` (issue #3's performance figures, at `--scale full`): the
 * sample, a cold build of the whole history, two daily builds, bytes on disk per quota row and
 * `pipeline reproduce` of a day 31 days back, each pipeline run with its wall time, its peak RSS
 * (VmHWM from /proc) and the phase timings from its JSON log lines, beside the targets.
 *
 *   BENCH_ONLY=pipeline node test/bench/main.ts            # full scale, ~10 minutes
 *   BENCH_PIPELINE_SCALE=small node test/bench/pipeline.ts # a quick check
 *
 * BENCH_KEEP=1 keeps the work directory (sample and data dir).
 */

import { mkdtempSync, rmSync, statSync } from "node:fs"
import { availableParallelism, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { readCurrent } from "../../snapshots/Pointer.ts"
import { type MeasuredRun, runMeasured } from "./harness.ts"

const root = join(import.meta.dirname, "..", "..")
const END = "2026-11-20"
const COLD = "2026-10-20"
const DAILY = ["2026-11-19", "2026-11-20"] as const
/** Issue #21's goals. */
const TARGETS = { cold_s: 60, daily_s: 10, peak_rss_mb: 1000, quota_row_bytes: 36 }
const PHASES = ["stage_ms", "insert_ms", "compute_ms", "commit_ms", "vacuum_ms", "integrity_check_ms", "quick_check_ms", "content_hash_ms", "sync_ms"]

/** One pipeline run: wall time, peak RSS and what its `staged` / `build` log lines say. */
interface RunFigures {
  readonly args: string
  readonly exit_code: number | null
  readonly wall_s: number
  readonly peak_rss_mb: number | null
  /** The process with its child processes (the parse ahead's), summed: what the machine must hold. */
  readonly peak_tree_rss_mb: number | null
  /** From spawn to the `loaded` line (or the `staged` line minus stage_ms): node start, collect, parse (or the parse cache). */
  readonly load_ms: number | null
  /** The collect (folder read, raw store, recognition, ledger), from the `collected` line. */
  readonly collect_ms: number | null
  /** The parse ahead on both cores (a cold build, reproduce), from the `parse_ahead` line; null when it did not run. */
  readonly parse_ahead_ms: number | null
  /** The load's milliseconds by data set (the `loaded` line). */
  readonly load_by_ms: unknown
  /** From the `build` line to exit: ledger events, CURRENT, retention, exit. */
  readonly after_build_ms: number | null
  readonly staged: Record<string, unknown> | null
  readonly build: Record<string, unknown> | null
  readonly stdout: string
}

const logLine = (run: MeasuredRun, stage: string): (Record<string, unknown> & { at_ms: number }) | null => {
  for (const line of run.stderrLines) {
    if (!line.text.startsWith("{")) continue
    try {
      const json = JSON.parse(line.text) as Record<string, unknown>
      if (json.stage === stage) return { ...json, at_ms: line.atMs }
    } catch {
      // not a log line
    }
  }
  return null
}

const figures = (args: string[], run: MeasuredRun): RunFigures => {
  const loaded = logLine(run, "loaded")
  const staged = logLine(run, "staged")
  const build = logLine(run, "build")
  return {
    args: args.join(" "),
    exit_code: run.code,
    wall_s: run.wallMs / 1000,
    peak_rss_mb: run.peakRssMb,
    peak_tree_rss_mb: run.peakTreeRssMb,
    collect_ms: typeof logLine(run, "collected")?.collect_ms === "number" ? (logLine(run, "collected")!.collect_ms as number) : null,
    parse_ahead_ms: typeof logLine(run, "parse_ahead")?.ms === "number" ? (logLine(run, "parse_ahead")!.ms as number) : null,
    load_by_ms: loaded?.load_by_ms ?? null,
    load_ms: loaded !== null ? loaded.at_ms : staged !== null && typeof build?.stage_ms === "number" ? staged.at_ms - build.stage_ms : null,
    after_build_ms: build !== null ? run.wallMs - build.at_ms : null,
    staged,
    build,
    stdout: run.stdout.trim(),
  }
}

const cell = (v: unknown): string => (v === null || v === undefined ? "–" : String(v))
const within = (ok: boolean): string => (ok ? "yes" : "**no**")

export const benchPipeline = async (): Promise<Record<string, unknown>> => {
  const scale = process.env.BENCH_PIPELINE_SCALE ?? "full"
  if (scale !== "small" && scale !== "full") throw new Error(`BENCH_PIPELINE_SCALE must be small or full, got ${scale}`)
  const loadStart = loadavg()
  const work = mkdtempSync(join(tmpdir(), "fds-bench-pipeline-"))
  const sampleDir = join(work, "sample")
  const dataDir = join(work, "data")
  // As `./fds` runs the pipeline: with Node's compile cache (here one of the bench's own) and
  // glibc's fixed mmap threshold (freed large blocks go back to the system).
  const env = {
    ...process.env,
    FDS_DATA_DIR: dataDir,
    NODE_COMPILE_CACHE: join(work, "compile-cache"),
    MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? "131072",
  }
  const run = async (label: string, args: string[], allowFailure = false): Promise<RunFigures> => {
    console.log(`bench pipeline: ${label}: node ${args.join(" ")}`)
    const measured = await runMeasured(args, env)
    const f = figures(args, measured)
    if (measured.code !== 0 && !allowFailure) {
      const tail = measured.stderrLines.slice(-20).map((l) => l.text).join("\n")
      throw new Error(`${label} exited ${measured.code}:\n${f.stdout}\n${tail}`)
    }
    console.log(`  ${f.wall_s.toFixed(1)} s, peak RSS ${cell(f.peak_rss_mb)} MB (with its child processes ${cell(f.peak_tree_rss_mb)} MB)${f.stdout === "" ? "" : `: ${f.stdout}`}`)
    return f
  }
  const pipeline = (...args: string[]) => ["--expose-gc", join(root, "pipeline/main.ts"), "pipeline", ...args]
  try {
    console.log(`bench pipeline: scale ${scale}, work dir ${work}, load average ${loadStart.map((x) => x.toFixed(2)).join(" ")} (${availableParallelism()} CPUs)`)
    const sample = await run("sample", [join(root, "pipeline/main.ts"), "sample", "--out", sampleDir, "--scale", scale, "--end", END])
    // The ceiling, in this run on this sample: the quota table alone loaded by a plain scanner (pipelineCeiling.ts).
    console.log("bench pipeline: ceiling: the quota table alone from the same cartolas, plain scanner, 100-row inserts")
    const ceilingRun = await runMeasured([join(import.meta.dirname, "pipelineCeiling.ts"), sampleDir, join(work, "ceiling.sqlite")], env)
    const ceiling = {
      ...(JSON.parse(ceilingRun.stdout.trim().split("\n").at(-1) || "{}") as {
        readonly parse_ms?: number
        readonly sort_ms?: number
        readonly insert_ms?: number
        readonly total_ms?: number
        readonly rows?: number
      }),
      wall_s: ceilingRun.wallMs / 1000,
      peak_rss_mb: ceilingRun.peakRssMb,
      exit_code: ceilingRun.code,
    }
    console.log(`  ${ceiling.wall_s.toFixed(1)} s, peak RSS ${cell(ceiling.peak_rss_mb)} MB: ${ceilingRun.stdout.trim()}`)
    const cold = await run(`cold build ${COLD} (empty data dir)`, pipeline("run", "--source", sampleDir, "--date", COLD))
    const daily: RunFigures[] = []
    for (const date of DAILY) daily.push(await run(`daily build ${date}`, pipeline("run", "--source", sampleDir, "--date", date)))
    const last = daily.at(-1)!

    const snapshots = join(dataDir, "snapshots")
    const file = readCurrent(snapshots)
    if (file === null) throw new Error(`no CURRENT in ${snapshots}`)
    const db = new Database(join(snapshots, file), { readonly: true })
    const quotaRows = db.prepare("SELECT count(*) FROM quotas").pluck().get() as number
    const quotaBytes = db.prepare("SELECT sum(pgsize) FROM dbstat WHERE name = 'quotas'").pluck().get() as number
    db.close()
    const fileBytes = statSync(join(snapshots, file)).size
    const size = {
      file,
      quota_rows: quotaRows,
      quotas_table_bytes: quotaBytes,
      file_bytes: fileBytes,
      quotas_table_bytes_per_quota_row: quotaBytes / quotaRows,
      file_bytes_per_quota_row: fileBytes / quotaRows,
    }

    const reproduce = await run(`reproduce ${COLD}`, pipeline("reproduce", "--date", COLD), true)
    const reproduceMatch = reproduce.exit_code === 0 && reproduce.stdout.startsWith("match:")
    const loadEnd = loadavg()

    const builds = { cold, [`daily_${DAILY[0]}`]: daily[0]!, [`daily_${DAILY[1]}`]: last, reproduce }
    // the process with its child processes: what a 1 GB machine must hold
    const peak = Math.max(...Object.values(builds).map((b) => Math.max(b.peak_rss_mb ?? 0, b.peak_tree_rss_mb ?? 0)))
    console.log("")
    console.log(`Daily build modelled as the next day's batch over a folder that already holds the history (the sample to ${END}):`)
    console.log(`only --date moves; the data dir keeps the raw store, the parse cache and the folder memo of the runs before, as a daily run's does.`)
    console.log(`Each daily build starts from the previous batch's snapshot (an increment) unless it cannot; "daily" below is the ${DAILY[1]} run.`)
    console.log("")
    console.log("| figure | measured | target | within |")
    console.log("|---|---|---|---|")
    console.log(`| cold build ${COLD}, empty data dir | ${cold.wall_s.toFixed(1)} s | ≤ ${TARGETS.cold_s} s | ${within(cold.wall_s <= TARGETS.cold_s)} |`)
    console.log(
      `| ceiling: the quota table alone, plain scanner (parse ${cell(ceiling.parse_ms)} ms, sort ${cell(ceiling.sort_ms)} ms, insert ${cell(ceiling.insert_ms)} ms; ${cell(ceiling.rows)} rows) | ${ceiling.wall_s.toFixed(1)} s | (beside the cold build) | |`,
    )
    console.log(`| daily build ${DAILY[1]} | ${last.wall_s.toFixed(1)} s | ≤ ${TARGETS.daily_s} s | ${within(last.wall_s <= TARGETS.daily_s)} |`)
    console.log(`| peak RSS, largest of the four pipeline runs (with their child processes) | ${peak} MB | ≤ ${TARGETS.peak_rss_mb} MB | ${within(peak <= TARGETS.peak_rss_mb)} |`)
    console.log(
      `| bytes per quota row, quotas table pages (dbstat) | ${size.quotas_table_bytes_per_quota_row.toFixed(1)} B | ≤ ${TARGETS.quota_row_bytes} B | ${within(size.quotas_table_bytes_per_quota_row <= TARGETS.quota_row_bytes)} |`,
    )
    console.log(`| bytes per quota row, whole snapshot file | ${size.file_bytes_per_quota_row.toFixed(1)} B | (shown) | |`)
    console.log(
      `| reproduce ${COLD} (${reproduceMatch ? "match" : "NO MATCH"}) | ${reproduce.wall_s.toFixed(1)} s | ≤ cold (${cold.wall_s.toFixed(1)} s) | ${within(reproduceMatch && reproduce.wall_s <= cold.wall_s)} |`,
    )
    console.log(`quota rows ${quotaRows}, quotas table ${quotaBytes} B, file ${fileBytes} B (${file}); sample generated in ${sample.wall_s.toFixed(1)} s`)
    console.log("")
    console.log(`| run | build | wall s | peak RSS MB | with children MB | collect ms | parse ahead ms | load ms | ${PHASES.join(" | ")} | after build ms |`)
    console.log(`|---|---|---|---|---|---|---|---|${PHASES.map(() => "---|").join("")}---|`)
    for (const [name, b] of Object.entries(builds)) {
      // the build line says whether the run was an increment (and from which date) or from nothing
      const kind = b.build?.kind === undefined ? "–" : b.build.kind === "increment" ? `increment from ${cell(b.build.from)}` : String(b.build.kind)
      console.log(
        `| ${name} | ${kind} | ${b.wall_s.toFixed(1)} | ${cell(b.peak_rss_mb)} | ${cell(b.peak_tree_rss_mb)} | ${cell(b.collect_ms)} | ${cell(b.parse_ahead_ms)} | ${cell(b.load_ms)} | ${PHASES.map((p) => cell(b.build?.[p])).join(" | ")} | ${cell(b.after_build_ms)} |`,
      )
    }
    console.log(
      "load ms: spawn to the `loaded` log line (node start, collect, parse ahead, parse or parse cache; before it: the `staged` line less stage_ms); collect ms and parse ahead ms are parts of it; stage ms: staging less the inserts into the snapshot (insert ms); after build: the `build` line to exit; with children: the build's process and its child processes summed, sampled every 200 ms.",
    )
    console.log(`load average at start ${loadStart.map((x) => x.toFixed(2)).join(" ")}, at end ${loadEnd.map((x) => x.toFixed(2)).join(" ")} (${availableParallelism()} CPUs)`)
    return {
      scale,
      end_date: END,
      daily_model: `next day's batch (--date) over a folder holding the sample to ${END}; data dir with raw store, parse cache and folder memo from the runs before`,
      targets: TARGETS,
      sample: { wall_s: sample.wall_s, peak_rss_mb: sample.peak_rss_mb },
      ceiling,
      cold,
      daily: last,
      daily_before: daily[0],
      reproduce: { ...reproduce, match: reproduceMatch },
      peak_rss_mb: peak,
      size,
      load_average: { start: loadStart, end: loadEnd, cpus: availableParallelism() },
    }
  } finally {
    if (process.env.BENCH_KEEP === "1") console.log(`bench pipeline: kept ${work}`)
    else rmSync(work, { recursive: true, force: true })
  }
}

if (import.meta.main) await benchPipeline()
