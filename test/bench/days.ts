/**
 * The /days part of `make bench`: authenticated /api/real_assets/{id}/days through our server vs
 * plain node:http returning the same bytes (the ceiling), side by side, alternating rounds,
 * bounded load (autocannon) on loopback.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { benchKey, loadSettings, median, publishSample, type Round, round, startApi, startProcess } from "./harness.ts"

const root = join(import.meta.dirname, "..", "..")
const { seconds, rounds, connections } = loadSettings()

export const benchDays = async (): Promise<Record<string, unknown>> => {
const work = mkdtempSync(join(tmpdir(), "fds-bench-"))
const env = { ...process.env, FDS_DATA_DIR: join(work, "data") }

console.log(`bench: preparing the small sample in ${work}`)
console.log(publishSample(env, work))
const key = benchKey(env)

const ours = await startApi(env)
// The series with the longest history: ask the API, like a client would.
const providers = (await (await fetch(`${ours.url}/api/asset_providers`, { headers: { "x-api-key": key } })).json()) as {
  data: Array<{ id: string }>
}
let assetId = ""
let longest = -1
for (const p of providers.data) {
  const funds = (await (
    await fetch(`${ours.url}/api/asset_providers/${p.id}/conceptual_assets`, { headers: { "x-api-key": key } })
  ).json()) as { data: Array<{ id: string }> }
  for (const f of funds.data) {
    const series = (await (
      await fetch(`${ours.url}/api/conceptual_assets/${f.id}/real_assets`, { headers: { "x-api-key": key } })
    ).json()) as { data: Array<{ id: string; attributes: { start_date: string } }> }
    for (const s of series.data) {
      const age = Date.parse("2100-01-01") - Date.parse(s.attributes.start_date)
      if (age > longest) {
        longest = age
        assetId = s.id
      }
    }
  }
}
const path = `/api/real_assets/${assetId}/days`
const body = Buffer.from(await (await fetch(ours.url + path, { headers: { "x-api-key": key } })).arrayBuffer())
const bodyFile = join(work, "days.json")
writeFileSync(bodyFile, body)
const plain = await startProcess([join(root, "test/bench/plainServer.ts"), bodyFile], env)

console.log(`bench: ${path} (${body.length} bytes), ${rounds} rounds × ${seconds} s, ${connections} connections`)
const results: Record<string, Round[]> = { fds: [], plain: [] }
await round(ours.url + path, { "x-api-key": key }, 2, connections) // warm-up
await round(plain.url, {}, 2, connections)
for (let i = 0; i < rounds; i++) {
  results.fds!.push(await round(ours.url + path, { "x-api-key": key }, seconds, connections))
  results.plain!.push(await round(plain.url, {}, seconds, connections))
}
ours.child.kill()
plain.child.kill()

const summary = Object.fromEntries(
  Object.entries(results).map(([name, rs]) => [
    name,
    {
      requests_per_second: median(rs.map((r) => r.requestsPerSecond)),
      p50_ms: median(rs.map((r) => r.p50)),
      p99_ms: median(rs.map((r) => r.p99)),
      non_2xx: rs.reduce((n, r) => n + r.non2xx, 0),
      errors: rs.reduce((n, r) => n + r.errors, 0),
      rounds: rs,
    },
  ]),
) as Record<string, { requests_per_second: number; p50_ms: number; p99_ms: number; non_2xx: number; errors: number }>

const ratio = summary.fds!.requests_per_second / summary.plain!.requests_per_second
console.log("")
console.log("| server | req/s (median) | p50 ms | p99 ms | non-2xx | errors |")
console.log("|---|---|---|---|---|---|")
for (const [name, s] of Object.entries(summary)) {
  console.log(`| ${name} | ${s.requests_per_second.toFixed(0)} | ${s.p50_ms} | ${s.p99_ms} | ${s.non_2xx} | ${s.errors} |`)
}
console.log(`throughput ratio fds / plain node:http = ${ratio.toFixed(2)}`)

rmSync(work, { recursive: true, force: true })
return {
  path: path.replace(assetId, "{id}"),
  body_bytes: body.length,
  seconds,
  rounds,
  connections,
  ratio_fds_over_plain: ratio,
  summary,
}
}
