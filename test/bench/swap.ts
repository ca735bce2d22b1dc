/**
 * The swap part of `make bench`, on `api/main.ts serve` (a child process with the production poll
 * and drain windows) over the small sample built for two days plus one variant of each
 * (test/support/snapshotVariants.ts), so that four published files take turns:
 *   1. swap latency: CURRENT moved to another file, then GET /api/all-funds repeated until its ETag
 *      names the new snapshot; median and p95 over BENCH_SWAPS (20) publishes, in ms;
 *   2. /api/all-funds throughput (autocannon, BENCH_CONNECTIONS on loopback) without swaps and
 *      while CURRENT moves every BENCH_SWAP_MILLIS (200), side by side in alternating rounds:
 *      medians, and the share of 503s while swapping.
 * Run alone: `node test/bench/swap.ts`.
 */
import autocannon from "autocannon"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Agent, request } from "undici"
import { entityTag } from "../../api/http/Caching.ts"
import { publishCurrent, readCurrent } from "../../snapshots/Pointer.ts"
import { deriveVariant } from "../support/snapshotVariants.ts"
import { benchKey, loadSettings, median, publishTwoDays, startApi } from "./harness.ts"

const PATH = "/api/all-funds"

interface SwapRound {
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly responses: number
  readonly status503: number
  readonly otherNon2xx: number
  readonly errors: number
  readonly swaps: number
}

/** One bounded autocannon round; `during` runs beside it (the swaps) and is stopped with it. */
const loadRound = (url: string, headers: Record<string, string>, seconds: number, connections: number, during?: () => () => number) =>
  new Promise<SwapRound>((resolve, reject) => {
    const stop = during?.()
    autocannon({ url, headers, duration: seconds, connections, pipelining: 1 }, (err, result) => {
      const swaps = stop?.() ?? 0
      if (err) return reject(err)
      const statuses = result.statusCodeStats ?? {}
      const status503 = statuses["503"]?.count ?? 0
      resolve({
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        responses: result.requests.total,
        status503,
        otherNon2xx: result.non2xx - status503,
        errors: result.errors,
        swaps,
      })
    })
  })

const percentile = (xs: ReadonlyArray<number>, p: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!
}

export const benchSwap = async (): Promise<Record<string, unknown>> => {
  const { seconds, rounds, connections } = loadSettings()
  const publishes = Number(process.env.BENCH_SWAPS ?? 20)
  const swapMillis = Number(process.env.BENCH_SWAP_MILLIS ?? 200)
  const work = mkdtempSync(join(tmpdir(), "fds-bench-swap-"))
  const dataDir = join(work, "data")
  const snapshotsDir = join(dataDir, "snapshots")
  const env = { ...process.env, FDS_DATA_DIR: dataDir }
  console.log(`bench swap: building the small sample for two days in ${work}`)
  publishTwoDays(env, work)
  const current = readCurrent(snapshotsDir)!
  const sources = readdirSync(snapshotsDir).filter((f) => f.endsWith(".sqlite"))
  const derived = sources.map((s, i) => deriveVariant(snapshotsDir, s, `bench-${i}`).file)
  // the published file first; then the others in turn, every publish naming another file
  const pool = [current, ...sources.filter((f) => f !== current), ...derived].map((file) => ({
    file,
    etag: entityTag(JSON.parse(readFileSync(join(snapshotsDir, file.replace(/\.sqlite$/, ".manifest.json")), "utf8")).content_hash, PATH, "identity"),
  }))
  let turn = 0
  const publishNext = () => {
    turn = (turn + 1) % pool.length
    publishCurrent(snapshotsDir, pool[turn]!.file)
    return pool[turn]!
  }
  const key = benchKey(env)
  const headers = { "x-api-key": key }
  const ours = await startApi(env)
  const agent = new Agent()
  const etagNow = async (): Promise<string | undefined> => {
    const res = await request(ours.url + PATH, { headers, dispatcher: agent })
    await res.body.arrayBuffer()
    return res.headers.etag as string | undefined
  }

  const latencies: number[] = []
  const results: Record<string, SwapRound[]> = { steady: [], swapping: [] }
  try {
    if ((await etagNow()) !== pool[0]!.etag) throw new Error("the server does not serve the published snapshot")
    console.log(`bench swap: latency over ${publishes} publishes (${pool.length} files in turn)`)
    for (let i = 0; i < publishes; i++) {
      const next = publishNext()
      const published = performance.now()
      while ((await etagNow()) !== next.etag) {
        if (performance.now() - published > 10_000) throw new Error(`${next.file} not served 10 s after its publish`)
      }
      latencies.push(performance.now() - published)
      await new Promise((r) => setTimeout(r, 100))
    }

    const swapping = () => {
      let swaps = 0
      const timer = setInterval(() => {
        publishNext()
        swaps++
      }, swapMillis)
      return () => {
        clearInterval(timer)
        return swaps
      }
    }
    console.log(`bench swap: ${PATH}, ${rounds} rounds × ${seconds} s, ${connections} connections, steady vs a swap every ${swapMillis} ms`)
    await loadRound(ours.url + PATH, headers, 2, connections) // warm-up
    for (let i = 0; i < rounds; i++) {
      results.steady!.push(await loadRound(ours.url + PATH, headers, seconds, connections))
      results.swapping!.push(await loadRound(ours.url + PATH, headers, seconds, connections, swapping))
    }
  } finally {
    await agent.close()
    ours.child.kill()
    rmSync(work, { recursive: true, force: true })
  }

  const latency = {
    median_ms: Number(median(latencies).toFixed(1)),
    p95_ms: Number(percentile(latencies, 0.95).toFixed(1)),
    max_ms: Number(Math.max(...latencies).toFixed(1)),
    samples_ms: latencies.map((l) => Number(l.toFixed(1))),
  }
  const summary = Object.fromEntries(
    Object.entries(results).map(([name, rs]) => {
      const responses = rs.reduce((n, r) => n + r.responses, 0)
      const unavailable = rs.reduce((n, r) => n + r.status503, 0)
      return [
        name,
        {
          requests_per_second: median(rs.map((r) => r.requestsPerSecond)),
          p50_ms: median(rs.map((r) => r.p50)),
          p99_ms: median(rs.map((r) => r.p99)),
          swaps: rs.reduce((n, r) => n + r.swaps, 0),
          responses,
          status_503: unavailable,
          share_503: responses === 0 ? 0 : unavailable / responses,
          other_non_2xx: rs.reduce((n, r) => n + r.otherNon2xx, 0),
          errors: rs.reduce((n, r) => n + r.errors, 0),
          rounds: rs,
        },
      ]
    }),
  ) as Record<string, { requests_per_second: number; p50_ms: number; p99_ms: number; swaps: number; share_503: number; other_non_2xx: number; errors: number }>
  const ratio = summary.swapping!.requests_per_second / summary.steady!.requests_per_second
  console.log("")
  console.log(`swap latency (publish → first answer from the new snapshot): median ${latency.median_ms} ms, p95 ${latency.p95_ms} ms, max ${latency.max_ms} ms`)
  console.log("| load | req/s (median) | p50 ms | p99 ms | swaps | 503 share | other non-2xx | errors |")
  console.log("|---|---|---|---|---|---|---|---|")
  for (const [name, s] of Object.entries(summary)) {
    console.log(
      `| ${name} | ${s.requests_per_second.toFixed(0)} | ${s.p50_ms} | ${s.p99_ms} | ${s.swaps} | ${(s.share_503 * 100).toFixed(3)} % | ${s.other_non_2xx} | ${s.errors} |`,
    )
  }
  console.log(`throughput while swapping / steady = ${ratio.toFixed(2)}`)
  return { path: PATH, files: pool.length, publishes, swap_every_ms: swapMillis, seconds, rounds, connections, latency, ratio_swapping_over_steady: ratio, summary }
}

if (import.meta.main) {
  const result = await benchSwap()
  console.log(JSON.stringify({ ...result, summary: undefined }, null, 2))
}
