/**
 * `make bench`, the accounts-store step: quota-counted requests (the atomic decide-and-count
 * statement on every request) to one cheap route, with the accounts store on PostgreSQL (a
 * throwaway cluster on loopback, test/support/postgres.ts) against the embedded SQLite file, in
 * alternating rounds. The same server program (test/bench/quotaServer.ts, `counted`) serves both;
 * only FDS_ACCOUNTS_URL differs. Then the per-IP limit's cost, the fleet's buckets in PostgreSQL
 * (FDS_RATE_LIMIT_STORE=shared) against each process's own, two API processes on GET /health.
 */
import { join } from "node:path"
import { startPostgres } from "../support/postgres.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { benchKey, COUNTED_KEY, loadSettings, type Round, round, startProcess, summarizeRounds } from "./harness.ts"

const root = join(import.meta.dirname, "..", "..")

export const benchPostgres = async (): Promise<Record<string, unknown>> => {
  const { seconds, rounds, connections } = loadSettings()
  const fx = makeFixtureA()
  const cluster = await startPostgres()
  const servers: Array<Awaited<ReturnType<typeof startProcess>>> = []
  try {
    const { FDS_ACCOUNTS_URL: _ignored, ...base } = process.env
    const envs = {
      sqlite: { ...base, FDS_DATA_DIR: fx.dataDir },
      postgres: { ...base, FDS_DATA_DIR: fx.dataDir, FDS_ACCOUNTS_URL: await cluster.createDatabase("bench") },
    }
    const keys = { sqlite: benchKey(envs.sqlite, COUNTED_KEY), postgres: benchKey(envs.postgres, COUNTED_KEY) }
    const script = join(root, "test/bench/quotaServer.ts")
    const sqlite = await startProcess([script, fx.dataDir, "counted"], envs.sqlite)
    servers.push(sqlite)
    const postgres = await startProcess([script, fx.dataDir, "counted"], envs.postgres)
    servers.push(postgres)
    const path = "/api/asset_providers"
    console.log(`bench postgres: ${path}, ${rounds} rounds × ${seconds} s, ${connections} connections`)
    await round(sqlite.url + path, { "x-api-key": keys.sqlite }, 2, connections) // warm-up
    await round(postgres.url + path, { "x-api-key": keys.postgres }, 2, connections)
    const results: Record<"sqlite" | "postgres", Round[]> = { sqlite: [], postgres: [] }
    for (let i = 0; i < rounds; i++) {
      results.sqlite.push(await round(sqlite.url + path, { "x-api-key": keys.sqlite }, seconds, connections))
      results.postgres.push(await round(postgres.url + path, { "x-api-key": keys.postgres }, seconds, connections))
    }
    const summary = (rs: Round[]) => ({ ...summarizeRounds(rs), rounds: rs })
    const s = summary(results.sqlite)
    const p = summary(results.postgres)
    console.log("")
    console.log("| accounts store | quota-counted req/s (median) | p50 ms | p99 ms | non-2xx | errors |")
    console.log("|---|---|---|---|---|---|")
    for (const [name, r] of [["SQLite", s], ["PostgreSQL", p]] as const) {
      console.log(`| ${name} | ${r.requests_per_second.toFixed(0)} | ${r.p50_ms} | ${r.p99_ms} | ${r.non_2xx} | ${r.errors} |`)
    }
    // The per-IP limit's cost: the fleet's shared buckets (PostgreSQL) against each process's own,
    // on GET /health (no key, no quota: the token is the only work), a limit no round reaches.
    const limitEnv = (store: string) => ({
      ...envs.postgres,
      FDS_RATE_LIMIT_STORE: store,
      FDS_RATE_LIMIT_PER_SECOND: "1000000",
      FDS_RATE_LIMIT_BURST: "1000000",
      PORT: "0",
      HOST: "127.0.0.1",
    })
    const api = join(root, "api", "main.ts")
    const shared = await startProcess([api, "serve"], limitEnv("shared"))
    servers.push(shared)
    const local = await startProcess([api, "serve"], limitEnv("process"))
    servers.push(local)
    console.log(`bench postgres: the per-IP limit on /health, shared (PostgreSQL) and per process, ${rounds} rounds × ${seconds} s`)
    await round(`${shared.url}/health`, {}, 2, connections)
    await round(`${local.url}/health`, {}, 2, connections)
    const limit: Record<"shared" | "process", Round[]> = { shared: [], process: [] }
    for (let i = 0; i < rounds; i++) {
      limit.shared.push(await round(`${shared.url}/health`, {}, seconds, connections))
      limit.process.push(await round(`${local.url}/health`, {}, seconds, connections))
    }
    const ls = summary(limit.shared)
    const lp = summary(limit.process)
    console.log("")
    console.log("| per-IP limit | req/s (median) | p50 ms | p99 ms | non-2xx | errors |")
    console.log("|---|---|---|---|---|---|")
    for (const [name, r] of [["shared (PostgreSQL)", ls], ["per process", lp]] as const) {
      console.log(`| ${name} | ${r.requests_per_second.toFixed(0)} | ${r.p50_ms} | ${r.p99_ms} | ${r.non_2xx} | ${r.errors} |`)
    }
    return {
      path,
      seconds,
      rounds,
      connections,
      sqlite: s,
      postgres: p,
      postgres_vs_sqlite_throughput: p.requests_per_second / s.requests_per_second,
      rate_limit: { path: "/health", shared: ls, process: lp, shared_vs_process_throughput: ls.requests_per_second / lp.requests_per_second },
    }
  } finally {
    for (const server of servers) server.child.kill()
    cluster.stop()
    fx.cleanup()
  }
}

if (import.meta.main) await benchPostgres()
