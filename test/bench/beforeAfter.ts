/**
 * `BENCH_ONLY=before-after BENCH_BEFORE=<commit> make bench`: another checkout of this repository
 * (the commit before a re-cut, say) beside this one, measured side by side in one run: the figures
 * of a change that must not make anything slower.
 *
 * The commit is checked out as a detached git worktree in a temporary folder that shares this
 * checkout's node_modules (the bench refuses a commit whose package.json names a dependency this
 * checkout lacks). Then, with the trees taking turns (the first tree of each repetition alternates,
 * so the machine's drift falls on both):
 * - **pipeline**: one sample (this tree's generator) built by each tree into its own empty data
 *   dir: a cold build, then two daily builds (increments), BENCH_BEFORE_REPEATS times (3): the
 *   medians of each run's wall time and peak RSS, and after ÷ before;
 * - **API**: each tree publishes the small sample into its own data dir with its own CLI and
 *   serves it; bounded autocannon rounds on /days, all-funds, returns and compare, the servers
 *   taking turns round by round: medians of throughput and p99, and after ÷ before. This tree
 *   runs twice: as it is, and with its answer cache off (FDS_ANSWER_CACHE_MB=0), so that the
 *   cache's gain is not read as the change's.
 *
 * BENCH_PIPELINE_SCALE=small|full (full) sets the pipeline's sample; BENCH_SECONDS, BENCH_ROUNDS
 * and BENCH_CONNECTIONS the HTTP rounds (harness.ts).
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs"
import { availableParallelism, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { readCurrent } from "../../snapshots/Pointer.ts"
import { loadSettings, median, type Round, round, runMeasured, startProcess } from "./harness.ts"

const root = join(import.meta.dirname, "..", "..")
const END = "2026-11-20"
const COLD = "2026-10-20"
const DAILY = ["2026-11-19", "2026-11-20"] as const
const RUNS = ["cold", `daily_${DAILY[0]}`, `daily_${DAILY[1]}`] as const

type Tree = { readonly name: string; readonly root: string }

const git = (...args: string[]) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim()

/** The commit as a detached worktree under `work`, with this checkout's node_modules. */
const checkOut = (commit: string, work: string): Tree => {
  const sha = git("rev-parse", "--verify", `${commit}^{commit}`)
  const dir = join(work, "before")
  git("worktree", "add", "--detach", "--quiet", dir, sha)
  const theirs = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>
  for (const name of Object.keys({ ...theirs.dependencies, ...theirs.devDependencies })) {
    if (!existsSync(join(root, "node_modules", name))) throw new Error(`${commit} needs ${name}, which this checkout's node_modules lacks`)
  }
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"))
  return { name: `before (${sha.slice(0, 7)})`, root: dir }
}

const ratio = (after: number, before: number) => (before === 0 ? Number.NaN : after / before)
const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "–")

/** Each tree's cold and daily builds, the trees taking turns. */
const pipelineSideBySide = async (trees: ReadonlyArray<Tree>, work: string, repeats: number) => {
  const scale = process.env.BENCH_PIPELINE_SCALE ?? "full"
  if (scale !== "small" && scale !== "full") throw new Error(`BENCH_PIPELINE_SCALE must be small or full, got ${scale}`)
  const sample = join(work, "sample")
  execFileSync(process.execPath, [join(root, "pipeline/main.ts"), "sample", "--out", sample, "--scale", scale, "--end", END], { stdio: "ignore" })
  const wall: Record<string, Record<string, number[]>> = {}
  const rss: Record<string, Record<string, number[]>> = {}
  for (const t of trees) {
    wall[t.name] = Object.fromEntries(RUNS.map((r) => [r, []]))
    rss[t.name] = Object.fromEntries(RUNS.map((r) => [r, []]))
  }
  for (let i = 0; i < repeats; i++) {
    const order = i % 2 === 0 ? trees : [...trees].reverse()
    for (const t of order) {
      const dataDir = join(work, `data-${i}-${trees.indexOf(t)}`)
      const env = {
        ...process.env,
        FDS_DATA_DIR: dataDir,
        NODE_COMPILE_CACHE: join(work, `compile-cache-${trees.indexOf(t)}`),
        MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? "131072",
      }
      const dates = [COLD, ...DAILY]
      for (const [k, run] of RUNS.entries()) {
        const args = ["--expose-gc", join(t.root, "pipeline/main.ts"), "pipeline", "run", "--source", sample, "--date", dates[k]!]
        const measured = await runMeasured(args, env)
        if (measured.code !== 0) {
          throw new Error(`${t.name} ${run} exited ${measured.code}: ${measured.stderrLines.slice(-10).map((l) => l.text).join("\n")}`)
        }
        wall[t.name]![run]!.push(measured.wallMs / 1000)
        rss[t.name]![run]!.push(Math.max(measured.peakRssMb ?? 0, measured.peakTreeRssMb ?? 0))
        console.log(`  repetition ${i + 1}, ${t.name}, ${run}: ${(measured.wallMs / 1000).toFixed(1)} s, peak ${measured.peakTreeRssMb ?? "–"} MB`)
      }
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  const [before, after] = trees as [Tree, Tree]
  console.log("")
  console.log(`pipeline, ${scale} sample, medians of ${repeats} repetitions (the trees taking turns):`)
  console.log(`| run | ${before.name} wall s | after wall s | after ÷ before | ${before.name} peak MB | after peak MB | after ÷ before |`)
  console.log("|---|---|---|---|---|---|---|")
  const figures: Record<string, unknown> = {}
  for (const run of RUNS) {
    const w = [median(wall[before.name]![run]!), median(wall[after.name]![run]!)] as const
    const m = [median(rss[before.name]![run]!), median(rss[after.name]![run]!)] as const
    figures[run] = { wall_s: { before: w[0], after: w[1], ratio: ratio(w[1], w[0]) }, peak_mb: { before: m[0], after: m[1], ratio: ratio(m[1], m[0]) } }
    console.log(`| ${run} | ${fixed(w[0], 1)} | ${fixed(w[1], 1)} | ${fixed(ratio(w[1], w[0]))} | ${fixed(m[0], 0)} | ${fixed(m[1], 0)} | ${fixed(ratio(m[1], m[0]))} |`)
  }
  return { scale, repeats, runs: figures, each: { wall_s: wall, peak_mb: rss } }
}

/** A tree's own data dir with the small sample published by its own CLI, a key, and its server. */
const serveTree = async (tree: Tree, work: string, sample: string, extra: NodeJS.ProcessEnv = {}) => {
  const dataDir = join(work, `api-${tree.root === root ? "after" : "before"}`)
  const env = { ...process.env, FDS_DATA_DIR: dataDir }
  if (!existsSync(join(dataDir, "snapshots"))) {
    mkdirSync(dataDir, { recursive: true })
    execFileSync(process.execPath, [join(tree.root, "pipeline/main.ts"), "pipeline", "run", "--source", sample], { env, stdio: "ignore" })
  }
  const key = execFileSync(
    process.execPath,
    [join(tree.root, "api/main.ts"), "keys", "create", "--email", "bench@example.com", "--tier", "internal"],
    { env, encoding: "utf8" },
  ).trim()
  const server = await startProcess([join(tree.root, "api/main.ts"), "serve"], { ...env, PORT: "0", FDS_RATE_LIMIT_PER_SECOND: "0", ...extra })
  return { ...server, key, dataDir }
}

const apiSideBySide = async (trees: ReadonlyArray<Tree>, work: string) => {
  const { seconds, rounds, connections } = loadSettings()
  const sample = join(work, "api-sample")
  execFileSync(process.execPath, [join(root, "pipeline/main.ts"), "sample", "--out", sample, "--scale", "small"], { stdio: "ignore" })
  const [beforeTree, afterTree] = trees as [Tree, Tree]
  const servers = {
    before: await serveTree(beforeTree, work, sample),
    after: await serveTree(afterTree, work, sample),
    after_no_answer_cache: await serveTree(afterTree, work, sample, { FDS_ANSWER_CACHE_MB: "0" }),
  }
  try {
    // the routes' ids from the snapshot itself (both trees built the same bytes)
    const snapshots = join(servers.after.dataDir, "snapshots")
    const db = new Database(join(snapshots, readCurrent(snapshots)!), { readonly: true })
    const longest = db.prepare("SELECT asset_id FROM series ORDER BY first_date, asset_id LIMIT 1").pluck().get() as number
    db.close()
    // ten real ids of the batch: the first ten all-funds rows (the market universe, as compare's)
    const all = (await (await fetch(`${servers.after.url}/api/all-funds?vehicle=all`, { headers: { "x-api-key": servers.after.key } })).json()) as {
      data: Array<{ serieId: string }>
    }
    const ten = all.data.slice(0, 10).map((r) => r.serieId)
    const paths = {
      days: `/api/real_assets/${longest}/days`,
      all_funds: "/api/all-funds?vehicle=all",
      returns: `/api/real_assets/${longest}/returns`,
      compare_10: `/api/compare?series=${ten.join(",")}`,
    }
    console.log(`\napi: ${rounds} rounds × ${seconds} s, ${connections} connections a route, the servers taking turns`)
    const results: Record<string, unknown> = {}
    console.log(`| route | before req/s | after req/s | after ÷ before | after, cache off req/s | ÷ before | before p99 ms | after p99 ms | cache off p99 ms |`)
    console.log("|---|---|---|---|---|---|---|---|---|")
    for (const [name, path] of Object.entries(paths)) {
      const rs: Record<string, Round[]> = { before: [], after: [], after_no_answer_cache: [] }
      for (const [who, s] of Object.entries(servers)) {
        const res = await fetch(s.url + path, { headers: { "x-api-key": s.key } })
        if (res.status !== 200) throw new Error(`${who} answered ${path} with ${res.status}: ${(await res.text()).slice(0, 300)}`)
        await round(s.url + path, { "x-api-key": s.key }, 2, connections) // warm-up
      }
      for (let i = 0; i < rounds; i++) {
        const order = Object.entries(servers)
        if (i % 2 === 1) order.reverse()
        for (const [who, s] of order) rs[who]!.push(await round(s.url + path, { "x-api-key": s.key }, seconds, connections))
      }
      const fig = (who: string) => ({
        requests_per_second: median(rs[who]!.map((r) => r.requestsPerSecond)),
        p99_ms: median(rs[who]!.map((r) => r.p99)),
        non_2xx: rs[who]!.reduce((n, r) => n + r.non2xx + r.errors, 0),
      })
      const b = fig("before")
      const a = fig("after")
      const off = fig("after_no_answer_cache")
      results[name] = { path, before: b, after: a, after_no_answer_cache: off, ratio: ratio(a.requests_per_second, b.requests_per_second) }
      console.log(
        `| ${name} | ${fixed(b.requests_per_second, 0)} | ${fixed(a.requests_per_second, 0)} | ${fixed(ratio(a.requests_per_second, b.requests_per_second))} | ${fixed(off.requests_per_second, 0)} | ${fixed(ratio(off.requests_per_second, b.requests_per_second))} | ${b.p99_ms} | ${a.p99_ms} | ${off.p99_ms} |`,
      )
      for (const [who, f] of [["before", b], ["after", a], ["after, cache off", off]] as const) {
        if (f.non_2xx > 0) console.log(`  ${name}: ${who} answered ${f.non_2xx} requests with an error or a non-2xx status`)
      }
    }
    return { rounds, seconds, connections, routes: results }
  } finally {
    for (const s of Object.values(servers)) s.child.kill("SIGTERM")
  }
}

export const benchBeforeAfter = async (): Promise<Record<string, unknown>> => {
  const commit = process.env.BENCH_BEFORE
  if (commit === undefined || commit === "") throw new Error("BENCH_BEFORE=<commit> names the checkout to measure this one against")
  const repeats = Number(process.env.BENCH_BEFORE_REPEATS ?? 3)
  if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`BENCH_BEFORE_REPEATS must be a whole number ≥ 1, got ${process.env.BENCH_BEFORE_REPEATS}`)
  const work = mkdtempSync(join(tmpdir(), "fds-bench-before-after-"))
  const loadStart = loadavg()
  try {
    const before = checkOut(commit, work)
    const trees = [before, { name: `after (${git("rev-parse", "--short", "HEAD")})`, root }]
    console.log(`bench before-after: ${trees.map((t) => t.name).join(" vs ")}, work dir ${work}, ${availableParallelism()} CPUs`)
    const pipeline = await pipelineSideBySide(trees, work, repeats)
    const api = await apiSideBySide(trees, work)
    const loadEnd = loadavg()
    console.log(`load average at start ${loadStart.map((x) => x.toFixed(2)).join(" ")}, at end ${loadEnd.map((x) => x.toFixed(2)).join(" ")}`)
    return { before: trees[0]!.name, after: trees[1]!.name, pipeline, api, load_average: { start: loadStart, end: loadEnd } }
  } finally {
    try {
      git("worktree", "remove", "--force", join(work, "before"))
    } catch {
      // never checked out
    }
    rmSync(work, { recursive: true, force: true })
  }
}

if (import.meta.main) await benchBeforeAfter()
