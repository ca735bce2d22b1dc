/**
 * Warm on swap, measured (issue #32 item 2): `./fds serve` (a child process) on the small sample
 * built for two days, CURRENT moved from one to the other BENCH_SWAPS (6) times, with
 * FDS_WARM_ANSWERS at 64 and at 0 (one server after the other). Before each move, HOT targets
 * (series returns and risk metrics, ten-id compares, all-funds, market summary) are asked twice
 * on the batch served, so that they are its hottest; after it:
 *   - swap latency: from the move to /metrics naming the new batch (polled every 5 ms), in ms;
 *   - the first clients: every hot target asked at once as soon as the new batch serves: the
 *     burst's wall time and its slowest answer, in ms, and how many were cache hits.
 * Run alone: `node test/bench/answerWarm.ts` (not part of `make bench`).
 */
import { appendFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Agent, request } from "undici"
import { publishCurrent, readCurrent } from "../../snapshots/Pointer.ts"
import { benchKey, median, publishTwoDays, startApi } from "./harness.ts"

const swaps = Number(process.env.BENCH_SWAPS ?? 6)
const work = mkdtempSync(join(tmpdir(), "fds-bench-warm-"))
const dataDir = join(work, "data")
const snapshotsDir = join(dataDir, "snapshots")
const env = { ...process.env, FDS_DATA_DIR: dataDir }
console.log(`bench warm: building the small sample for two days in ${work}`)
publishTwoDays(env, work)
const first = readCurrent(snapshotsDir)!
const files = [first, ...readdirSync(snapshotsDir).filter((f) => f.endsWith(".sqlite") && f !== first)]
const key = benchKey(env)
const agent = new Agent({ connections: 128 })

const get = async (url: string) => {
  const began = performance.now()
  const res = await request(url, { headers: { "x-api-key": key, "accept-encoding": "gzip" }, dispatcher: agent })
  await res.body.arrayBuffer()
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`)
  return performance.now() - began
}

const metric = async (base: string) => {
  const text = await (await request(`${base}/metrics`, { dispatcher: agent })).body.text()
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN)
  return { hits: value("fds_answer_cache_hits_total"), batch: /^fds_batch_info\{batch_id="([^"]+)"/m.exec(text)?.[1] ?? null }
}

const run = async (warmAnswers: string) => {
  const server = await startApi(env, { FDS_WARM_ANSWERS: warmAnswers })
  // the swap's log lines (check_ms, warm_ms, answers warmed), kept when BENCH_LOG names a file
  const logFile = process.env.BENCH_LOG
  if (logFile !== undefined) server.child.stderr!.on("data", (chunk: Buffer) => appendFileSync(logFile, chunk))
  try {
    const base = server.url
    const allFunds = JSON.parse(await (await request(`${base}/api/all-funds`, { headers: { "x-api-key": key }, dispatcher: agent })).body.text())
    const ids: string[] = allFunds.data.filter((r: { vehicle: string }) => r.vehicle === "mutual_fund").map((r: { serieId: string }) => r.serieId)
    const hot = [
      "/api/all-funds",
      "/api/market-summary",
      ...ids.slice(0, 30).map((id) => `/api/real_assets/${id}/returns`),
      ...ids.slice(30, 50).map((id) => `/api/real_assets/${id}/risk_metrics`),
      ...Array.from({ length: 12 }, (_, i) => ids.slice(50 + i * 10, 60 + i * 10))
        .filter((group) => group.length === 10)
        .map((group) => `/api/compare?series=${group.join(",")}`),
    ]
    const rows: Array<{ swapMs: number; burstMs: number; slowestMs: number; hits: number }> = []
    for (let i = 0; i < swaps; i++) {
      for (const target of hot) for (let n = 0; n < 2; n++) await get(base + target)
      const next = files[(i + 1) % files.length]!
      const moved = performance.now()
      publishCurrent(snapshotsDir, next)
      while ((await metric(base)).batch !== next.replace(/\.sqlite$/, "")) await new Promise((r) => setTimeout(r, 5))
      const swapMs = performance.now() - moved
      const before = (await metric(base)).hits
      const began = performance.now()
      const times = await Promise.all(hot.map((target) => get(base + target)))
      const burstMs = performance.now() - began
      rows.push({ swapMs, burstMs, slowestMs: Math.max(...times), hits: (await metric(base)).hits - before })
    }
    const m = (f: (r: (typeof rows)[number]) => number) => Math.round(median(rows.map(f)))
    console.log(
      `FDS_WARM_ANSWERS=${warmAnswers}: ${hot.length} hot targets, ${swaps} swaps: swap latency median ${m((r) => r.swapMs)} ms; ` +
        `first burst after the swap median ${m((r) => r.burstMs)} ms (slowest answer ${m((r) => r.slowestMs)} ms), hits ${m((r) => r.hits)}/${hot.length}`,
    )
    return rows
  } finally {
    server.child.kill()
  }
}

try {
  const warmed = await run("64")
  const cold = await run("0")
  console.log(JSON.stringify({ warmed, cold }))
} finally {
  await agent.close()
  rmSync(work, { recursive: true, force: true })
}
