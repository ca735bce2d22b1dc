/**
 * `make bench`, the returns area:
 * 1. /api/real_assets/{id}/returns through `./fds serve` (a child process, every basis enabled, no
 *    per-IP limit) at 50 connections on loopback: the default answer (precomputed in the batch),
 *    a past cutoff (computed on request) and total in real UF (precomputed), next to a cheap
 *    route of the same server as the baseline;
 * 2. the time the returns computation adds to a build, measured on a copy of the built small
 *    sample snapshot (and of another build's snapshots when BENCH_RETURNS_SNAPSHOTS names its
 *    snapshots folder, e.g. a `--scale full` build).
 * Run alone with `node test/bench/returns.ts`.
 */
import Database from "better-sqlite3"
import { createHash } from "node:crypto"
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ReturnsComputation } from "../../pipeline/compute/ReturnsComputation.ts"
import { RETURNS_COMPUTED_TABLES } from "../../snapshots/tables/ReturnsComputed.ts"
import { benchKey, loadSettings, median, publishSample, type Round, round, startApi } from "./harness.ts"

/** Runs the computation again on a copy of a published snapshot: build milliseconds and size. */
export const measureComputation = (snapshotsDir: string): Record<string, number> => {
  const file = readdirSync(snapshotsDir).find((f) => f.endsWith(".sqlite"))
  if (file === undefined) throw new Error(`no snapshot in ${snapshotsDir}`)
  const copy = join(mkdtempSync(join(tmpdir(), "fds-bench-returns-")), file)
  copyFileSync(join(snapshotsDir, file), copy)
  const db = new Database(copy)
  try {
    db.pragma("journal_mode = OFF")
    db.pragma("synchronous = OFF")
    const batchDate = db.prepare("SELECT value FROM meta WHERE key = 'batch_date'").pluck().get() as string
    for (const t of RETURNS_COMPUTED_TABLES) db.exec(`DELETE FROM ${t.name}`)
    db.exec("BEGIN")
    let t = performance.now()
    const counters = ReturnsComputation.run(db, batchDate)
    const computeMs = performance.now() - t
    db.exec("COMMIT")
    // What the added tables cost the content hash (a canonical dump in key order).
    t = performance.now()
    const hash = createHash("sha256")
    for (const table of RETURNS_COMPUTED_TABLES) {
      for (const row of db.prepare(`SELECT * FROM ${table.name} ORDER BY ${table.orderBy}`).raw(true).iterate()) {
        hash.update(`${JSON.stringify(row)}\n`)
      }
    }
    const hashMs = performance.now() - t
    const bytes = db
      .prepare(`SELECT sum(pgsize) FROM dbstat WHERE name IN (${RETURNS_COMPUTED_TABLES.map((x) => `'${x.name}'`).join(", ")})`)
      .pluck()
      .get() as number
    return { compute_ms: Math.round(computeMs), content_hash_ms: Math.round(hashMs), table_bytes: bytes, ...counters }
  } finally {
    db.close()
    rmSync(copy, { force: true })
  }
}

export const benchReturns = async (): Promise<Record<string, unknown>> => {
  const { seconds, rounds, connections } = loadSettings()
  const work = mkdtempSync(join(tmpdir(), "fds-bench-returns-"))
  const dataDir = join(work, "data")
  const env = {
    ...process.env,
    FDS_DATA_DIR: dataDir,
    FDS_ENABLE_CLP: "true",
    FDS_ENABLE_REAL_UF: "true",
    FDS_ENABLE_TOTAL: "true",
  }
  publishSample(env, work)
  const key = benchKey(env)
  const snapshotsDir = join(dataDir, "snapshots")
  const build: Record<string, unknown> = { small: measureComputation(snapshotsDir) }
  if (process.env.BENCH_RETURNS_SNAPSHOTS !== undefined) build.other = measureComputation(process.env.BENCH_RETURNS_SNAPSHOTS)

  // The series with the longest history: every window is available, the biggest answer.
  const file = readdirSync(snapshotsDir).find((f) => f.endsWith(".sqlite"))!
  const db = new Database(join(snapshotsDir, file), { readonly: true })
  const assetId = db.prepare("SELECT asset_id FROM series ORDER BY first_date, asset_id LIMIT 1").pluck().get() as number
  db.close()
  const paths = {
    // A cheap route on the same server: what authentication, counting and routing cost alone.
    baseline_asset_providers: "/api/asset_providers",
    default: `/api/real_assets/${assetId}/returns`,
    past_cutoff: `/api/real_assets/${assetId}/returns?as_of_date=2025-06-30`,
    total_real_uf: `/api/real_assets/${assetId}/returns?valuation=real_uf&return_basis=total`,
  }
  const server = await startApi(env)
  const results: Record<string, unknown> = {}
  try {
    const headers = { "x-api-key": key }
    console.log(`bench returns: ${rounds} rounds × ${seconds} s, ${connections} connections`)
    for (const [name, path] of Object.entries(paths)) {
      await round(server.url + path, headers, 2, connections) // warm-up
      const rs: Round[] = []
      for (let i = 0; i < rounds; i++) rs.push(await round(server.url + path, headers, seconds, connections))
      results[name] = {
        path: path.replace(String(assetId), "{id}"),
        requests_per_second: median(rs.map((r) => r.requestsPerSecond)),
        p50_ms: median(rs.map((r) => r.p50)),
        p99_ms: median(rs.map((r) => r.p99)),
        non_2xx: rs.reduce((n, r) => n + r.non2xx, 0),
        errors: rs.reduce((n, r) => n + r.errors, 0),
      }
    }
  } finally {
    server.child.kill()
    rmSync(work, { recursive: true, force: true })
  }
  console.log("")
  console.log("| /returns | req/s (median) | p50 ms | p99 ms | non-2xx | errors |")
  console.log("|---|---|---|---|---|---|")
  for (const [name, r] of Object.entries(results) as Array<[string, Record<string, number>]>) {
    console.log(`| ${name} | ${r.requests_per_second!.toFixed(0)} | ${r.p50_ms} | ${r.p99_ms} | ${r.non_2xx} | ${r.errors} |`)
  }
  console.log(`returns computation added to the build: ${JSON.stringify(build)}`)
  return { seconds, rounds, connections, requests: results, build }
}

if (import.meta.main) await benchReturns()
