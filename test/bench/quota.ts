/**
 * `make bench`, the quota step: authenticated requests to one cheap route, counted (the atomic
 * decide-and-count statement on accounts.sqlite, a turn's requests in one transaction) against the
 * same server with that statement replaced by a constant answer given after the same wait for the
 * end of the turn (test/bench/quotaServer.ts), in alternating rounds on loopback. Figures before
 * 2026-11-22 had no wait on either side, so their shares are not comparable with later ones. The issue
 * asks the quota step to cost ≤ 20 % of the request: `quota_step_share_cpu` is the share of the
 * server's CPU time per request that the step adds, `quota_step_share_throughput` is
 * 1 − counted/uncounted requests per second. On a cheap route this is the upper bound; heavier
 * routes dilute it.
 */
import { join } from "node:path"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { benchKey, COUNTED_KEY, cpuMs, loadSettings, median, type Round, round, startProcess, summarizeRounds } from "./harness.ts"

const root = join(import.meta.dirname, "..", "..")

export const benchQuota = async (): Promise<Record<string, unknown>> => {
  const { seconds, rounds, connections } = loadSettings()
  const fx = makeFixtureA()
  const env = { ...process.env, FDS_DATA_DIR: fx.dataDir }
  const key = benchKey(env, COUNTED_KEY)
  const script = join(root, "test/bench/quotaServer.ts")
  const counted = await startProcess([script, fx.dataDir, "counted"], env)
  const uncounted = await startProcess([script, fx.dataDir, "uncounted"], env)
  const path = "/api/asset_providers"
  const headers = { "x-api-key": key }
  try {
    console.log(`bench quota: ${path}, ${rounds} rounds × ${seconds} s, ${connections} connections`)
    await round(counted.url + path, headers, 2, connections) // warm-up
    await round(uncounted.url + path, headers, 2, connections)
    const results: Record<"counted" | "uncounted", Round[]> = { counted: [], uncounted: [] }
    const cpuPerRequest: Record<"counted" | "uncounted", number[]> = { counted: [], uncounted: [] }
    const measure = async (name: "counted" | "uncounted", server: typeof counted) => {
      const before = cpuMs(server.child.pid)
      const r = await round(server.url + path, headers, seconds, connections)
      cpuPerRequest[name].push(((cpuMs(server.child.pid) - before) * 1000) / (r.requestsPerSecond * seconds))
      results[name].push(r)
    }
    for (let i = 0; i < rounds; i++) {
      await measure("counted", counted)
      await measure("uncounted", uncounted)
    }
    const summary = (rs: Round[]) => ({ ...summarizeRounds(rs), rounds: rs })
    const c = summary(results.counted)
    const u = summary(results.uncounted)
    const share = 1 - c.requests_per_second / u.requests_per_second
    const cpuCounted = median(cpuPerRequest.counted)
    const cpuUncounted = median(cpuPerRequest.uncounted)
    const cpuShare = 1 - cpuUncounted / cpuCounted
    console.log("")
    console.log("| quota step | req/s (median) | p50 ms | p99 ms | non-2xx | errors |")
    console.log("|---|---|---|---|---|---|")
    for (const [name, s] of [["counted", c], ["uncounted", u]] as const) {
      console.log(`| ${name} | ${s.requests_per_second.toFixed(0)} | ${s.p50_ms} | ${s.p99_ms} | ${s.non_2xx} | ${s.errors} |`)
    }
    console.log(`CPU per request: counted ${cpuCounted.toFixed(0)} µs, uncounted ${cpuUncounted.toFixed(0)} µs`)
    console.log(
      `quota step share of a request: ${(cpuShare * 100).toFixed(1)} % of its CPU, ${(share * 100).toFixed(1)} % of throughput (target ≤ 20 %)`,
    )
    return {
      path,
      seconds,
      rounds,
      connections,
      counted: c,
      uncounted: u,
      cpu_us_per_request: { counted: cpuCounted, uncounted: cpuUncounted },
      quota_step_share_cpu: cpuShare,
      quota_step_share_throughput: share,
      p99_added_ms: c.p99_ms - u.p99_ms,
      within_target: cpuShare <= 0.2,
    }
  } finally {
    counted.child.kill()
    uncounted.child.kill()
    fx.cleanup()
  }
}
