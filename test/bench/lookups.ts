/**
 * The lookups part of `make bench` (issue #31): the latency of "who holds this" (GET /api/holders)
 * and of the fund flows (GET /api/market/flows), one request at a time, each target asked
 * BENCH_LOOKUPS times (default 30) with the answer cache off (FDS_ANSWER_CACHE_MB=0), so that
 * every request runs its route; medians and p95 in ms, with the answer's size. On the small sample
 * built here, or on BENCH_DATA_DIR (a data directory already built, e.g. the full-size sample:
 * `./fds sample --scale full` then `./fds pipeline run`).
 *
 *   BENCH_ONLY=lookups BENCH_DATA_DIR=/path/to/full/data node test/bench/main.ts
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { request } from "undici"
import { benchKey, median, publishSample, startApi } from "./harness.ts"

const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

export const benchLookups = async (): Promise<Record<string, unknown>> => {
  const given = process.env.BENCH_DATA_DIR
  const work = mkdtempSync(join(tmpdir(), "fds-bench-lookups-"))
  const dataDir = given ?? join(work, "data")
  const env = { ...process.env, FDS_DATA_DIR: dataDir }
  const times = Number(process.env.BENCH_LOOKUPS ?? 30)
  try {
    if (given === undefined) console.log(publishSample(env, work))
    const key = benchKey(env)
    const server = await startApi(env, { FDS_ANSWER_CACHE_MB: "0" })
    try {
      // what to ask for, from the served snapshot: the most held code and issuer of the latest month, an ISIN, the largest series, fund and administrator
      const current = (await (await fetch(`${server.url}/health`)).json()) as { batch_id?: string; batch?: { id?: string } }
      const batchId = current.batch_id ?? current.batch?.id
      const file = batchId === undefined ? null : join(dataDir, "snapshots", `${batchId}.sqlite`)
      const db = new Database(file ?? join(dataDir, "snapshots", "missing.sqlite"), { readonly: true, fileMustExist: true })
      const month = db.prepare("SELECT max(month) FROM fm_holdings").pluck().get() as string
      const code = db.prepare("SELECT instrument_code FROM fm_holdings WHERE month = ? GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").pluck().get(month) as string
      const issuer = db.prepare("SELECT issuer_rut FROM fm_holdings WHERE month = ? AND issuer_rut IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").pluck().get(month) as number
      const isin = db.prepare("SELECT json_extract(body, '$.isin') FROM fi_holdings WHERE json_extract(body, '$.isin') IS NOT NULL LIMIT 1").pluck().get() as string | undefined
      const series = db.prepare("SELECT asset_id FROM quotas GROUP BY asset_id ORDER BY count(*) DESC LIMIT 1").pluck().get() as number
      const fund = db.prepare("SELECT concept_id FROM series WHERE asset_id = ?").pluck().get(series) as number
      const provider = db.prepare("SELECT provider_id FROM funds f JOIN series s ON s.concept_id = f.concept_id GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").pluck().get() as number
      const counts = { fm_holdings: db.prepare("SELECT count(*) FROM fm_holdings").pluck().get(), fi_holdings: db.prepare("SELECT count(*) FROM fi_holdings").pluck().get() }
      db.close()
      const targets: Array<[string, string]> = [
        ["holders: the most held instrument", `/api/holders?instrument=${encodeURIComponent(code)}&month=${month}`],
        ["holders: the most held issuer", `/api/holders?issuer_rut=${issuer}&month=${month}`],
        ...(isin === undefined ? [] : ([["holders: an ISIN", `/api/holders?isin=${isin}`]] as Array<[string, string]>)),
        ["flows: series, daily", `/api/market/flows?level=series&id=${series}&period=day`],
        ["flows: fund, monthly, CLP", `/api/market/flows?level=fund&id=${fund}&period=month&currency=CLP`],
        ["flows: administrator, daily", `/api/market/flows?level=administrator&id=${provider}&period=day`],
      ]
      const rows: Array<Record<string, unknown>> = []
      for (const [name, path] of targets) {
        const ms: number[] = []
        let bytes = 0
        let status = 0
        for (let i = 0; i < times + 2; i++) {
          const started = performance.now()
          const res = await request(server.url + path, { headers: { "x-api-key": key } })
          const body = Buffer.from(await res.body.arrayBuffer())
          const took = performance.now() - started
          status = res.statusCode
          bytes = body.length
          if (i >= 2) ms.push(took) // the first two warm the statements
        }
        const row = { name, path, status, bytes, median_ms: Math.round(median(ms) * 100) / 100, p95_ms: Math.round(percentile(ms, 95) * 100) / 100 }
        rows.push(row)
        console.log(`${name}: ${row.status}, ${bytes} B, median ${row.median_ms} ms, p95 ${row.p95_ms} ms`)
      }
      console.log("\n| lookup | status | bytes | median ms | p95 ms |\n|---|---|---|---|---|")
      for (const r of rows) console.log(`| ${r.name} | ${r.status} | ${r.bytes} | ${r.median_ms} | ${r.p95_ms} |`)
      return { dataDir: given ?? "small sample", counts, times, rows }
    } finally {
      server.child.kill()
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
