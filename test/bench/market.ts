/**
 * `make bench`, the market step: GET /api/all-funds?vehicle=all (every vehicle's rows, a stored
 * answer) through our server, authenticated, against plain node:http answering the same bytes (the
 * ceiling), side by side in alternating rounds at BENCH_CONNECTIONS (50) on loopback; also the
 * gzip copy, the default mutual-fund answer and a filtered request (rows selected in memory, text
 * cached per snapshot); a screener page sorted by the 1y return and a compare of ten series, each
 * beside plain node:http answering its bytes (both answers are kept per snapshot after the first
 * request: these rounds measure the kept answer); and the compare again while one client asks for
 * /api/all-funds?vehicle=all at earlier dates, one new date after another (each rendered off the
 * event loop). BENCH_SCALE=full builds the full-size sample
 * (slow: ~10M quota rows). BENCH_DATA_DIR=<data dir> serves a data directory already built (e.g.
 * a full-size one kept from an earlier run) instead of building one. Run alone:
 * `node test/bench/market.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { request } from "undici"
import { benchKey, loadSettings, publishSample, type Round, round, startApi, startProcess, summarizeRounds } from "./harness.ts"

const root = join(import.meta.dirname, "..", "..")

export const benchMarket = async (): Promise<Record<string, unknown>> => {
  const { seconds, rounds, connections } = loadSettings()
  const scale = process.env.BENCH_SCALE === "full" ? "full" : "small"
  const work = mkdtempSync(join(tmpdir(), "fds-bench-market-"))
  const given = process.env.BENCH_DATA_DIR
  const env = { ...process.env, FDS_DATA_DIR: given ?? join(work, "data") }
  if (given === undefined) {
    console.log(`bench market: building the ${scale} sample in ${work}`)
    publishSample(env, work, scale)
  } else console.log(`bench market: serving ${given}`)
  const key = benchKey(env)
  const ours = await startApi(env)
  const auth = { "x-api-key": key }
  // the figure: every vehicle in one answer; the default (mutual funds only) alongside
  const path = "/api/all-funds?vehicle=all"
  const mutualFunds = "/api/all-funds"
  // undici's request leaves the body as sent (fetch would decompress it)
  const bytes = async (encoding: string) =>
    Buffer.from(await (await request(ours.url + path, { headers: { ...auth, "accept-encoding": encoding } })).body.arrayBuffer())
  const identity = await bytes("identity")
  const gzipped = await bytes("gzip")
  writeFileSync(join(work, "all-funds.json"), identity)
  writeFileSync(join(work, "all-funds.json.gz"), gzipped)
  const plain = await startProcess([join(root, "test/bench/plainServer.ts"), join(work, "all-funds.json")], env)
  const plainGzip = await startProcess([join(root, "test/bench/plainServer.ts"), join(work, "all-funds.json.gz")], env)
  const filtered = `${mutualFunds}?category=equity`
  // sorting by a return needs a currency (spec: screener parameters)
  const screener = "/api/screener?currency=PESOS&sort=1y&order=desc&limit=50"
  // ten real ids of the batch: the first ten all-funds rows (the market universe, as compare's)
  const tenIds = (JSON.parse(identity.toString("utf8")) as { data: Array<{ serieId: string }> }).data.slice(0, 10).map((r) => r.serieId)
  if (tenIds.length < 10) throw new Error(`the sample has ${tenIds.length} all-funds rows, compare needs 10`)
  const compare = `/api/compare?series=${tenIds.join(",")}`
  // their bodies, for plain node:http's ceiling at each size
  const bodyFiles: string[] = []
  for (const [name, p] of [["screener", screener], ["compare", compare]] as const) {
    const res = await request(ours.url + p, { headers: auth })
    const answer = Buffer.from(await res.body.arrayBuffer())
    if (res.statusCode !== 200) throw new Error(`${p}: ${res.statusCode} ${answer.toString("utf8").slice(0, 300)}`)
    bodyFiles.push(join(work, `${name}.json`))
    writeFileSync(bodyFiles.at(-1)!, answer)
  }
  const plainScreener = await startProcess([join(root, "test/bench/plainServer.ts"), bodyFiles[0]!], env)
  const plainCompare = await startProcess([join(root, "test/bench/plainServer.ts"), bodyFiles[1]!], env)
  const results: Record<string, Round[]> = {
    fds: [],
    plain: [],
    fds_gzip: [],
    plain_gzip: [],
    fds_mutual_fund: [],
    fds_filtered: [],
    fds_screener_1y: [],
    plain_screener_1y: [],
    fds_compare_10: [],
    plain_compare_10: [],
    fds_compare_10_while_history: [],
  }
  // /api/all-funds at earlier dates, one after another, each date new (rendered, ~1 s at full size)
  const batchDate = (JSON.parse(identity.toString("utf8")) as { meta: { date: string } }).meta.date
  let historyDay = 0
  const history = async (stop: { done: boolean }) => {
    let answered = 0
    while (!stop.done) {
      historyDay += 7
      const date = new Date(Date.parse(batchDate) - historyDay * 86_400_000).toISOString().slice(0, 10)
      const res = await request(`${ours.url}/api/all-funds?vehicle=all&date=${date}`, { headers: auth })
      await res.body.dump()
      if (res.statusCode === 200) answered++
    }
    return answered
  }
  let historyAnswered = 0
  try {
    console.log(`bench market: ${path} (${identity.length} B, gzip ${gzipped.length} B), ${rounds} rounds × ${seconds} s, ${connections} connections`)
    const gz = { ...auth, "accept-encoding": "gzip" }
    await round(ours.url + path, auth, 2, connections) // warm-up
    await round(plain.url, {}, 2, connections)
    await round(ours.url + mutualFunds, auth, 1, connections)
    await round(ours.url + filtered, auth, 1, connections)
    await round(ours.url + screener, auth, 1, connections)
    await round(ours.url + compare, auth, 1, connections)
    for (let i = 0; i < rounds; i++) {
      results.fds!.push(await round(ours.url + path, auth, seconds, connections))
      results.plain!.push(await round(plain.url, {}, seconds, connections))
      results.fds_gzip!.push(await round(ours.url + path, gz, seconds, connections))
      results.plain_gzip!.push(await round(plainGzip.url, {}, seconds, connections))
      results.fds_mutual_fund!.push(await round(ours.url + mutualFunds, auth, seconds, connections))
      results.fds_filtered!.push(await round(ours.url + filtered, auth, seconds, connections))
      results.fds_screener_1y!.push(await round(ours.url + screener, auth, seconds, connections))
      results.plain_screener_1y!.push(await round(plainScreener.url, {}, seconds, connections))
      results.fds_compare_10!.push(await round(ours.url + compare, auth, seconds, connections))
      results.plain_compare_10!.push(await round(plainCompare.url, {}, seconds, connections))
      const stop = { done: false }
      const background = history(stop)
      results.fds_compare_10_while_history!.push(await round(ours.url + compare, auth, seconds, connections))
      stop.done = true
      historyAnswered += await background
    }
  } finally {
    ours.child.kill()
    plain.child.kill()
    plainGzip.child.kill()
    plainScreener.child.kill()
    plainCompare.child.kill()
    rmSync(work, { recursive: true, force: true })
  }
  const summary = Object.fromEntries(Object.entries(results).map(([k, rs]) => [k, { ...summarizeRounds(rs), rounds: rs }]))
  const s = (k: string) => summary[k] as ReturnType<typeof summarizeRounds>
  console.log("")
  console.log("| server | req/s (median) | p50 ms | p99 ms | non-2xx | errors |")
  console.log("|---|---|---|---|---|---|")
  for (const k of Object.keys(results)) {
    console.log(`| ${k} | ${s(k).requests_per_second.toFixed(0)} | ${s(k).p50_ms} | ${s(k).p99_ms} | ${s(k).non_2xx} | ${s(k).errors} |`)
  }
  const ratio = s("plain").requests_per_second / s("fds").requests_per_second
  const ratioGzip = s("plain_gzip").requests_per_second / s("fds_gzip").requests_per_second
  console.log(`plain node:http / fds throughput: ${ratio.toFixed(2)}× (identity), ${ratioGzip.toFixed(2)}× (gzip); goal ≤ 1.5×, p99 ≤ 10 ms`)
  const figures = (k: string) => ({
    requests_per_second: s(k).requests_per_second,
    p50_ms: s(k).p50_ms,
    p99_ms: s(k).p99_ms,
  })
  return {
    path,
    screener: { path: screener, ...figures("fds_screener_1y"), plain: figures("plain_screener_1y") },
    compare: { path: compare, ...figures("fds_compare_10"), plain: figures("plain_compare_10") },
    compare_while_history: { ...figures("fds_compare_10_while_history"), history_answers: historyAnswered },
    scale: given === undefined ? scale : `data directory ${given}`,
    body_bytes: identity.length,
    gzip_bytes: gzipped.length,
    seconds,
    rounds,
    connections,
    plain_over_fds: ratio,
    plain_over_fds_gzip: ratioGzip,
    summary,
  }
}

if (import.meta.main) {
  const result = await benchMarket()
  console.log(JSON.stringify({ ...result, summary: undefined }, null, 2))
}
