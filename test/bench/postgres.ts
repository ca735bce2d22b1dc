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

/** One side of a comparison: its name in the table, the URL it is measured on and the headers sent. */
interface Side {
  readonly name: string
  readonly url: string
  readonly headers: Record<string, string>
}

/**
 * Two sides measured in alternating rounds (a 2 s warm-up each first), then the table of their
 * medians, headed by `what` (the first column) and `rate` (the req/s column). Returns each side's
 * summary with its rounds.
 */
const sideBySide = async (
  what: string,
  rate: string,
  [a, b]: readonly [Side, Side],
  { seconds, rounds, connections }: { readonly seconds: number; readonly rounds: number; readonly connections: number },
) => {
  await round(a.url, a.headers, 2, connections) // warm-up
  await round(b.url, b.headers, 2, connections)
  const results: [Round[], Round[]] = [[], []]
  for (let i = 0; i < rounds; i++) {
    results[0].push(await round(a.url, a.headers, seconds, connections))
    results[1].push(await round(b.url, b.headers, seconds, connections))
  }
  const summary = (rs: Round[]) => ({ ...summarizeRounds(rs), rounds: rs })
  const sa = summary(results[0])
  const sb = summary(results[1])
  console.log("")
  console.log(`| ${what} | ${rate} | p50 ms | p99 ms | non-2xx | errors |`)
  console.log("|---|---|---|---|---|---|")
  for (const [name, r] of [[a.name, sa], [b.name, sb]] as const) {
    console.log(`| ${name} | ${r.requests_per_second.toFixed(0)} | ${r.p50_ms} | ${r.p99_ms} | ${r.non_2xx} | ${r.errors} |`)
  }
  return [sa, sb] as const
}

export const benchPostgres = async (): Promise<Record<string, unknown>> => {
  const settings = loadSettings()
  const { seconds, rounds, connections } = settings
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
    const [s, p] = await sideBySide(
      "accounts store",
      "quota-counted req/s (median)",
      [
        { name: "SQLite", url: sqlite.url + path, headers: { "x-api-key": keys.sqlite } },
        { name: "PostgreSQL", url: postgres.url + path, headers: { "x-api-key": keys.postgres } },
      ],
      settings,
    )
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
    const [ls, lp] = await sideBySide(
      "per-IP limit",
      "req/s (median)",
      [
        { name: "shared (PostgreSQL)", url: `${shared.url}/health`, headers: {} },
        { name: "per process", url: `${local.url}/health`, headers: {} },
      ],
      settings,
    )
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
