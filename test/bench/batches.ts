/**
 * The batches part of `make bench`, on `api/main.ts serve` (a child process, no per-IP limit) over
 * the small sample published for three days (2026-11-18, -19, -20), the last one current:
 *   1. throughput of a data route read from the current batch, from the current batch named
 *      (`?batch=<current>`) and from a past batch already open (`?batch=<past>`), side by side in
 *      alternating rounds (autocannon, BENCH_CONNECTIONS on loopback), with the server's CPU per
 *      request; on /api/real_assets/{id}/days (bytes kept per snapshot) and /api/real_assets/{id}/returns;
 *   2. the first read of a past batch not yet open: checked first (a fresh server: manifest,
 *      row counts, quick_check and content hash in a worker thread, then opened), and opened again
 *      without the checks after it left the cache (unchanged on disk: FDS_PAST_BATCHES_OPEN=1 and
 *      two past batches asked for in turn); next to a read of it already open.
 * Run alone: `node test/bench/batches.ts`.
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Agent, request } from "undici"
import { benchKey, cpuMs, loadSettings, median, type Round, round, runCli, startApi } from "./harness.ts"

const DATES = ["2026-11-18", "2026-11-19", "2026-11-20"] as const

interface Served {
  readonly url: string
  readonly child: ChildProcess
}

/** One request's wall time in ms (the body read to its end); throws on another status than 200. */
const timed = async (agent: Agent, url: string, headers: Record<string, string>): Promise<number> => {
  const began = performance.now()
  const res = await request(url, { headers, dispatcher: agent })
  await res.body.arrayBuffer()
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`)
  return performance.now() - began
}

export const benchBatches = async (): Promise<Record<string, unknown>> => {
  const { seconds, rounds, connections } = loadSettings()
  const firstReads = Number(process.env.BENCH_FIRST_READS ?? 3)
  const work = mkdtempSync(join(tmpdir(), "fds-bench-batches-"))
  const dataDir = join(work, "data")
  const env = { ...process.env, FDS_DATA_DIR: dataDir }
  console.log(`bench batches: building the small sample for ${DATES.join(", ")} in ${work}`)
  runCli(env, "pipeline/main.ts", "sample", "--out", join(work, "sample"))
  const ids: string[] = []
  for (const date of DATES) {
    runCli(env, "pipeline/main.ts", "pipeline", "run", "--source", join(work, "sample"), "--date", date)
    ids.push(readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim().replace(/\.sqlite$/, ""))
  }
  const [older, past, current] = ids as [string, string, string]
  const headers = { "x-api-key": benchKey(env) }
  const agent = new Agent()
  const servers: Served[] = []
  const serve = async (extra: NodeJS.ProcessEnv = {}) => {
    const s = await startApi(env, extra)
    servers.push(s)
    return s
  }
  const stop = (s: Served) => {
    s.child.kill()
    servers.splice(servers.indexOf(s), 1)
  }

  const throughput: Record<string, Record<string, Round[]>> = {}
  const cpuPerRequest: Record<string, Record<string, number[]>> = {}
  const firstRead = { checked_ms: [] as number[], reopened_ms: [] as number[], open_ms: [] as number[] }
  let paths: Record<string, string> = {}
  try {
    const ours = await serve()
    const allFunds = JSON.parse(await (await request(`${ours.url}/api/all-funds`, { headers, dispatcher: agent })).body.text())
    const serie = (allFunds.data as Array<{ serieId: string }>)[0]!.serieId
    paths = { days: `/api/real_assets/${serie}/days`, returns: `/api/real_assets/${serie}/returns` }
    const variants = { current: "", current_named: `?batch=${current}`, past_open: `?batch=${past}` }
    console.log(`bench batches: ${rounds} rounds × ${seconds} s, ${connections} connections; current, current named, past open`)
    for (const [name, path] of Object.entries(paths)) {
      throughput[name] = {}
      cpuPerRequest[name] = {}
      for (const [variant, query] of Object.entries(variants)) {
        await timed(agent, ours.url + path + query, headers) // opens the past batch, warms its caches
        await round(ours.url + path + query, headers, 1, connections) // warm-up
        throughput[name]![variant] = []
        cpuPerRequest[name]![variant] = []
      }
      for (let i = 0; i < rounds; i++) {
        for (const [variant, query] of Object.entries(variants)) {
          const cpuBefore = cpuMs(ours.child.pid)
          const r = await round(ours.url + path + query, headers, seconds, connections)
          throughput[name]![variant]!.push(r)
          cpuPerRequest[name]![variant]!.push((cpuMs(ours.child.pid) - cpuBefore) / (r.requestsPerSecond * seconds))
        }
      }
    }
    stop(ours)

    // the first read of a past batch not yet open: on a fresh server (checked, then opened)
    console.log(`bench batches: first reads of a past batch, ${firstReads} fresh servers`)
    for (let i = 0; i < firstReads; i++) {
      const fresh = await serve()
      await timed(agent, fresh.url + paths.days!, headers) // the route's own first-use costs, on the current batch
      firstRead.checked_ms.push(await timed(agent, `${fresh.url}${paths.days}?batch=${past}`, headers))
      for (let j = 0; j < 5; j++) firstRead.open_ms.push(await timed(agent, `${fresh.url}${paths.days}?batch=${past}`, headers))
      stop(fresh)
    }
    // opened again after leaving the cache (one place, two past batches in turn: each read reopens)
    const onePlace = await serve({ FDS_PAST_BATCHES_OPEN: "1" })
    for (const id of [past, older]) await timed(agent, `${onePlace.url}${paths.days}?batch=${id}`, headers) // checked once each
    for (let i = 0; i < 10; i++) {
      firstRead.reopened_ms.push(await timed(agent, `${onePlace.url}${paths.days}?batch=${i % 2 === 0 ? past : older}`, headers))
    }
    stop(onePlace)
  } finally {
    for (const s of [...servers]) s.child.kill()
    await agent.close()
    rmSync(work, { recursive: true, force: true })
  }

  const summary = Object.fromEntries(
    Object.entries(throughput).map(([name, byVariant]) => [
      name,
      Object.fromEntries(
        Object.entries(byVariant).map(([variant, rs]) => [
          variant,
          {
            requests_per_second: Math.round(median(rs.map((r) => r.requestsPerSecond))),
            p50_ms: median(rs.map((r) => r.p50)),
            p99_ms: median(rs.map((r) => r.p99)),
            cpu_ms_per_request: Number(median(cpuPerRequest[name]![variant]!).toFixed(3)),
            non_2xx: rs.reduce((n, r) => n + r.non2xx, 0),
            errors: rs.reduce((n, r) => n + r.errors, 0),
          },
        ]),
      ),
    ]),
  ) as Record<string, Record<string, { requests_per_second: number; p50_ms: number; p99_ms: number; cpu_ms_per_request: number; non_2xx: number; errors: number }>>
  const first = {
    checked_then_opened_ms: Number(median(firstRead.checked_ms).toFixed(1)),
    reopened_without_checks_ms: Number(median(firstRead.reopened_ms).toFixed(1)),
    already_open_ms: Number(median(firstRead.open_ms).toFixed(1)),
    samples: firstRead,
  }
  console.log("")
  console.log("| route | read from | req/s (median) | p50 ms | p99 ms | CPU ms/request | non-2xx | errors |")
  console.log("|---|---|---|---|---|---|---|---|")
  for (const [name, byVariant] of Object.entries(summary)) {
    for (const [variant, s] of Object.entries(byVariant)) {
      console.log(
        `| ${name} | ${variant.replace("_", " ")} | ${s.requests_per_second} | ${s.p50_ms} | ${s.p99_ms} | ${s.cpu_ms_per_request} | ${s.non_2xx} | ${s.errors} |`,
      )
    }
    console.log(`${name}: past open / current = ${(byVariant.past_open!.requests_per_second / byVariant.current!.requests_per_second).toFixed(2)}`)
  }
  console.log(
    `first read of a past batch (days): checked then opened ${first.checked_then_opened_ms} ms; opened again without the checks ${first.reopened_without_checks_ms} ms; already open ${first.already_open_ms} ms (medians)`,
  )
  return { batches: ids, paths, seconds, rounds, connections, summary, first_read: first }
}

if (import.meta.main) {
  const result = await benchBatches()
  console.log(JSON.stringify(result, null, 2))
}
