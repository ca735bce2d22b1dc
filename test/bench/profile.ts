/**
 * Where a request's CPU time goes: our server (`api/main.ts serve`, as the bench starts it) runs
 * under `node --cpu-prof` while autocannon loads one route; then the V8 profile is summarised by
 * self time per function, per source file and per area (our api/ code by concern, effect's HTTP
 * and core, node internals, GC, idle), and by the inclusive time of our middleware functions.
 * Then, unprofiled, the same load on our server, on effect's HttpApi with one endpoint at the same
 * path and no middleware (test/bench/httpApiFloorServer.ts), on effect's bare HTTP router
 * (test/bench/effectFloorServer.ts), both answering the same bytes, and on plain node:http (the
 * ceiling), with each server's CPU time per request from /proc.
 *
 *   node test/bench/profile.ts                      # /api/asset_providers, 10 s, 50 connections
 *   PROFILE_PATH=/api/all-funds BENCH_SECONDS=20 node test/bench/profile.ts
 *
 * Environment: PROFILE_PATH, BENCH_SECONDS (10), BENCH_CONNECTIONS (50), PROFILE_STDOUT
 * (`pipe`, default, as the bench; `file`: the access log goes to a file instead of a pipe),
 * BENCH_DATA_DIR (a data directory already built, e.g. full size, instead of the small sample),
 * PROFILE_KEEP=1 keeps the work directory (and the .cpuprofile, which Chrome DevTools opens).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { request } from "undici"
import { freePort } from "../support/ports.ts"
import { benchKey, cpuMs, publishSample, type Round, round, startApi, startProcess } from "./harness.ts"

const root = join(import.meta.dirname, "..", "..")

interface CallFrame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
}
interface ProfileNode {
  readonly id: number
  readonly callFrame: CallFrame
  readonly children?: ReadonlyArray<number>
}
interface CpuProfile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
  readonly startTime: number
  readonly endTime: number
}

/** The source file of a frame, short: `api/…`, `effect/…`, `node:…`, a package, or a V8 pseudo-frame. */
const fileOf = (f: CallFrame): string => {
  if (f.url === "") return f.functionName.startsWith("(") ? f.functionName : "(native)"
  const url = f.url.replace(/^file:\/\//, "")
  const nm = url.lastIndexOf("/node_modules/")
  if (nm >= 0) {
    const rest = url.slice(nm + "/node_modules/".length)
    return rest.startsWith("effect/dist/") ? `effect/${rest.slice("effect/dist/".length)}` : rest
  }
  return url.startsWith(root) ? relative(root, url) : url
}

/** A coarse area: which concern of ours, or whose code. */
const areaOf = (file: string): string => {
  if (file.startsWith("(")) return file
  if (file === "api/main.ts" || file.startsWith("node:internal/modules")) return "start-up (loading modules)"
  if (file.startsWith("api/http/RequestLog")) return "ours: request log / request id"
  if (file.startsWith("api/http/Caching")) return "ours: caching / ETag / compression"
  if (file.startsWith("api/web/Cors") || file.startsWith("api/ratelimit/")) return "ours: edge (CORS, rate limit)"
  if (file.startsWith("api/security/SecurityLive") || file.startsWith("accounts/")) return "ours: key check + quota statement"
  if (file.startsWith("api/") || file.startsWith("snapshots/") || file.startsWith("schemas/")) return "ours: routes, handlers, readers"
  if (file.startsWith("effect/unstable/http") || file.startsWith("effect/http")) return "effect: http / http-api"
  if (file.startsWith("effect/")) return "effect: core (fibers, schema, …)"
  if (file.startsWith("@effect/platform-node")) return "@effect/platform-node"
  if (file.startsWith("better-sqlite3") || file.startsWith("kysely")) return "sqlite (better-sqlite3, kysely)"
  if (file.startsWith("node:") || file.startsWith("internal/")) return "node internals"
  return `other: ${file.split("/")[0]}`
}

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`

/** Self and inclusive times (ms) per node, from the samples' time deltas. */
const analyse = (p: CpuProfile) => {
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const self = new Map<number, number>()
  for (const [i, id] of p.samples.entries()) self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000)
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const selfBy = (key: (f: CallFrame) => string) => {
    const out = new Map<string, number>()
    for (const [id, ms] of self) {
      const k = key(byId.get(id)!.callFrame)
      out.set(k, (out.get(k) ?? 0) + ms)
    }
    return [...out.entries()].sort((a, b) => b[1] - a[1])
  }
  // Inclusive per function of ours: each sample counted once per function on its stack.
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const inclusive = new Map<string, number>()
  for (const [id, ms] of self) {
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame
      const file = fileOf(f)
      if (!(file.startsWith("api/") || file.startsWith("snapshots/"))) continue
      const k = `${f.functionName || "(anonymous)"}  ${file}:${f.lineNumber + 1}`
      if (seen.has(k)) continue
      seen.add(k)
      inclusive.set(k, (inclusive.get(k) ?? 0) + ms)
    }
  }
  // Each sample to the innermost frame of ours on its stack (our code and what it calls
  // synchronously: SQLite, crypto, Intl, stdout), else to the innermost non-native frame's area.
  const attributed = new Map<string, number>()
  for (const [id, ms] of self) {
    let area: string | undefined
    let fallback: string | undefined
    for (let at: number | undefined = id; at !== undefined && area === undefined; at = parent.get(at)) {
      const file = fileOf(byId.get(at)!.callFrame)
      if (file.startsWith("api/") || file.startsWith("snapshots/") || file.startsWith("schemas/")) area = areaOf(file)
      else if (fallback === undefined && file !== "(native)") fallback = areaOf(file)
    }
    const k = area ?? fallback ?? "(native)"
    attributed.set(k, (attributed.get(k) ?? 0) + ms)
  }
  return {
    total,
    attributed: [...attributed.entries()].sort((a, b) => b[1] - a[1]),
    functions: selfBy((f) => `${f.functionName || "(anonymous)"}  ${fileOf(f)}:${f.lineNumber + 1}`),
    files: selfBy(fileOf),
    areas: selfBy((f) => areaOf(fileOf(f))),
    inclusive: [...inclusive.entries()].sort((a, b) => b[1] - a[1]),
  }
}


/**
 * Waits for the server's "Listening on" line (stdout, or the log file it writes to). The port is
 * bound a little before the routes are attached, and a request arriving in between is never
 * answered, so "something accepts connections" is not enough.
 */
const waitForListening = async (child: ChildProcess, logFile: string | undefined) => {
  let seen = ""
  // the server's log lines (JSON, "Listening on" among them) go to stderr, the access log to stdout
  const onData = (chunk: Buffer) => {
    if (seen.length < 1 << 16) seen += chunk.toString()
  }
  child.stdout?.on("data", onData)
  child.stderr?.on("data", onData)
  for (let i = 0; i < 600; i++) {
    const text = logFile === undefined ? seen : readFileSync(logFile, "utf8")
    if (text.includes("Listening on")) return
    if (child.exitCode !== null) throw new Error(`the server exited ${child.exitCode}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error("the server did not say it listens")
}

export const profileServer = async () => {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10)
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
  const path = process.env.PROFILE_PATH ?? "/api/asset_providers"
  const stdoutMode = process.env.PROFILE_STDOUT === "file" ? "file" : "pipe"
  const work = mkdtempSync(join(tmpdir(), "fds-profile-"))
  const profDir = join(work, "prof")
  mkdirSync(profDir)
  const given = process.env.BENCH_DATA_DIR
  const env = { ...process.env, FDS_DATA_DIR: given ?? join(work, "data") }
  if (given === undefined) {
    console.log(`profile: building the small sample in ${work}`)
    publishSample(env, work)
  } else console.log(`profile: serving ${given}`)
  const auth = { "x-api-key": benchKey(env) }
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  // stdout as the bench has it (a pipe the parent drains) or a file (the access log's write is then a plain file write)
  const logFile = stdoutMode === "file" ? join(work, "server.log") : undefined
  const out = logFile === undefined ? "pipe" : openSync(logFile, "w")
  const child = spawn(
    process.execPath,
    ["--cpu-prof", `--cpu-prof-dir=${profDir}`, join(root, "api/main.ts"), "serve"],
    { env: { ...env, PORT: String(port), FDS_RATE_LIMIT_PER_SECOND: "0" }, stdio: ["ignore", out, "pipe"] },
  )
  child.stderr?.resume()
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()))
  const others: Array<Awaited<ReturnType<typeof startProcess>>> = []
  try {
    await waitForListening(child, logFile)
    const body = Buffer.from(await (await request(url + path, { headers: auth })).body.arrayBuffer())
    writeFileSync(join(work, "body.json"), body)
    console.log(`profile: ${path} (${body.length} B), ${seconds} s at ${connections} connections, stdout ${stdoutMode}`)
    await round(url + path, auth, 2, connections) // warm-up (in the profile too)
    const profiled = await round(url + path, auth, seconds, connections)
    console.log(`ours under --cpu-prof: ${profiled.requestsPerSecond.toFixed(0)} req/s, p50 ${profiled.p50} ms, p99 ${profiled.p99} ms`)
    child.kill("SIGINT") // runMain interrupts and exits normally: V8 writes the profile
    await exited
    const file = readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"))
    if (file === undefined) throw new Error("no .cpuprofile was written")
    const a = analyse(JSON.parse(readFileSync(join(profDir, file), "utf8")) as CpuProfile)
    const busy = a.total - (a.areas.find(([k]) => k === "(idle)")?.[1] ?? 0)
    const table = (title: string, rows: ReadonlyArray<[string, number]>, n: number) => {
      console.log(`\n${title}\n| | ms | of busy |\n|---|---|---|`)
      for (const [k, ms] of rows.filter(([k]) => !k.startsWith("(idle)")).slice(0, n)) {
        console.log(`| ${k} | ${ms.toFixed(0)} | ${percent(ms, busy)} |`)
      }
    }
    console.log(`\nprofile: ${a.total.toFixed(0)} ms sampled (start-up, warm-up, load), ${busy.toFixed(0)} ms busy`)
    table("busy time by concern (innermost frame of ours on the stack, else whose code)", a.attributed, 20)
    table("self time by area", a.areas, 20)
    table("self time by file", a.files, 25)
    table("self time by function", a.functions, 30)
    table("inclusive time of our functions (synchronous part of each call)", a.inclusive, 25)

    // The same bytes, unprofiled, with the server's CPU per request: ours, effect's HttpApi and bare
    // router, plain node:http.
    const bodyFile = join(work, "body.json")
    const pathOnly = path.split("?")[0]!
    const servers = {
      ours: await startApi(env),
      httpapi_floor: await startProcess([join(root, "test/bench/httpApiFloorServer.ts"), bodyFile, pathOnly], env),
      effect_floor: await startProcess([join(root, "test/bench/effectFloorServer.ts"), bodyFile], env),
      plain: await startProcess([join(root, "test/bench/plainServer.ts"), bodyFile], env),
    }
    others.push(...Object.values(servers))
    const comparison: Record<string, Round & { cpuMsPerRequest: number }> = {}
    console.log("\n| server (unprofiled) | req/s | p50 ms | p99 ms | server CPU ms / request |\n|---|---|---|---|---|")
    for (const [name, server] of Object.entries(servers)) {
      const target = name === "ours" || name === "httpapi_floor" ? server.url + path : server.url
      const headers = name === "ours" ? auth : {}
      const sample = await request(target, { headers })
      const same = Buffer.from(await sample.body.arrayBuffer()).equals(body)
      if (sample.statusCode !== 200 || (name !== "ours" && !same)) throw new Error(`${name} does not answer the same bytes (${sample.statusCode})`)
      await round(target, headers, 1, connections) // warm-up
      const before = cpuMs(server.child.pid)
      const r = await round(target, headers, seconds, connections)
      const perRequest = (cpuMs(server.child.pid) - before) / (r.requestsPerSecond * seconds)
      comparison[name] = { ...r, cpuMsPerRequest: perRequest }
      console.log(`| ${name} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${perRequest.toFixed(3)} |`)
    }
    return {
      path,
      seconds,
      connections,
      stdout: stdoutMode,
      profiled,
      comparison,
      sampled_ms: a.total,
      busy_ms: busy,
      attributed: Object.fromEntries(a.attributed),
      areas: Object.fromEntries(a.areas),
      top_files: Object.fromEntries(a.files.slice(0, 25)),
      top_functions: Object.fromEntries(a.functions.slice(0, 30)),
      our_inclusive: Object.fromEntries(a.inclusive.slice(0, 25)),
      profile: process.env.PROFILE_KEEP === "1" ? join(profDir, file) : undefined,
    }
  } finally {
    if (child.exitCode === null) child.kill()
    for (const o of others) o.child.kill()
    if (process.env.PROFILE_KEEP !== "1") rmSync(work, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const result = await profileServer()
  console.log(JSON.stringify({ ...result, attributed: undefined, areas: undefined, top_files: undefined, top_functions: undefined, our_inclusive: undefined }, null, 2))
}
