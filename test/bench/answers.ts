/**
 * The answers part of `make bench` (issue #32 item 4): for each answer below, identity and gzip,
 * our server with the answer cache (a hit: the same request again), our server with the cache off
 * (FDS_ANSWER_CACHE_MB=0: every request runs its route, as before the cache) and the ceiling
 * (test/bench/ceilingServer.ts: plain node:http sending the same bytes, gzip copy included, with
 * no work), side by side in alternating rounds on loopback, with a counted key (the quota
 * statement runs on every request, as for a client). Then a miss with the cache on (a 1 MB budget
 * and /days of every series in rotation, so that each answer is dropped before it is asked again)
 * beside the cache off (a server of its own, as idle before as the miss's), and the cache's memory: its byte count (/metrics) and the resident sets of
 * the servers with and without it.
 *
 * The hit is measured twice: sent at the Node level (the hit path, api/http/HitPath.ts) and
 * through the router (FDS_HIT_PATH=0, as before it), in the same rounds. Beside the ceiling, the
 * ceiling paying the duties the issue keeps per request (the key check and one count, the quota
 * headers) and the access log, with the service's own code (ceilingServer.ts, second argument):
 * where the ceiling's figure is out of reach with them, "with duties/ceiling" says how far. And
 * the ceiling doing all of a hit's per-request work with the service's code (third argument,
 * `all`): those duties, the request metrics, and the answer's own headers (Vary, ETag, Batch-Id,
 * Cache-Control); "hit/hit's work" is then what the hit path itself costs on top.
 *
 * Answers: /days of the sample's longest series (~215 KB) and of one near 10 KB, all-funds
 * (vehicle=all), compare of 10 series, the screener by 1y, returns, and two MCP tools over POST
 * /mcp (get_fund, get_returns; /mcp answers identity only), each tool's kept result also beside
 * its route's kept answer on the same server in the same rounds. Goals (the issue): on a hit ≥ 0.8×
 * the ceiling's throughput and p99 ≤ 1.5× its p99; a tool at most 1.2× its route; a miss no
 * slower than with the cache off.
 *
 *   BENCH_ONLY=answers BENCH_SECONDS=3 node test/bench/main.ts
 *   BENCH_ONLY=answers BENCH_ANSWERS=none node test/bench/main.ts      # the miss and the memory only
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type autocannon from "autocannon"
import { request } from "undici"
import {
  benchKey,
  COUNTED_KEY,
  cpuMs,
  loadSettings,
  median,
  publishSample,
  type Round,
  round,
  startApi,
  startProcess,
  summarizeRounds,
} from "./harness.ts"

const root = join(import.meta.dirname, "..", "..")
/** BENCH_ANSWERS: the answers to measure, by name, comma separated ("none": only the miss and the memory); default all. */
const only = process.env.BENCH_ANSWERS?.split(",")

interface Case {
  readonly name: string
  readonly path: string
  /** A JSON-RPC body: a POST to /mcp. */
  readonly mcp?: string
  /**
   * A tool's: the route it answers as, whose kept answer is measured beside the tool's kept result
   * in the same rounds on the same server (item 3: a tool at most 1.2× its route).
   */
  readonly route?: string
}

type Server = Awaited<ReturnType<typeof startProcess>>

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" }

const toolCall = (name: string, args: Record<string, string>) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } })

const rssMb = (pid: number | undefined): number => {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return m ? Math.round((Number(m[1]) * 1024) / 1e5) / 10 : Number.NaN
  } catch {
    return Number.NaN
  }
}

const metric = async (server: Server, name: string): Promise<number> => {
  const text = await (await fetch(`${server.url}/metrics`)).text()
  const m = new RegExp(`^${name} (\\S+)$`, "m").exec(text)
  return m ? Number(m[1]) : Number.NaN
}

/** One answer as a server sends it: status, body bytes, Content-Encoding. */
const fetchAnswer = async (url: string, c: Case, headers: Record<string, string>) => {
  const res = await request(url, {
    method: c.mcp === undefined ? "GET" : "POST",
    headers: c.mcp === undefined ? headers : { ...headers, ...MCP_HEADERS },
    ...(c.mcp === undefined ? {} : { body: c.mcp }),
  })
  const body = Buffer.from(await res.body.arrayBuffer())
  // the answer's own headers, as the hit sends them (the ceiling doing a hit's whole work sends them too)
  const own: Record<string, string> = {}
  for (const name of ["vary", "etag", "batch-id"]) {
    const value = res.headers[name]
    if (typeof value === "string") own[name] = value
  }
  return { status: res.statusCode, body, encoding: res.headers["content-encoding"] as string | undefined, own }
}

export const benchAnswers = async (): Promise<Record<string, unknown>> => {
  const { seconds, rounds, connections } = loadSettings()
  const work = mkdtempSync(join(tmpdir(), "fds-bench-answers-"))
  const env = { ...process.env, FDS_DATA_DIR: join(work, "data") }
  const servers: Server[] = []
  try {
    console.log(`bench: preparing the small sample in ${work}`)
    console.log(publishSample(env, work))
    const key = benchKey(env, COUNTED_KEY)
    const auth = { "x-api-key": key }
    const on = await startApi(env)
    const off = await startApi(env, { FDS_ANSWER_CACHE_MB: "0" })
    const small = await startApi(env, { FDS_ANSWER_CACHE_MB: "1" })
    // the miss's cache-off side: a server of its own, idle until then as `small` is (the cache-off
    // server of the rows above has run every route for minutes by then, and was measured faster
    // for it: 0.72–0.76× in full runs against 1.00–1.10× with the miss alone, 2026-12-03)
    const missOff = await startApi(env, { FDS_ANSWER_CACHE_MB: "0" })
    // the cache on, its hits answered through the router (before the hit path, api/http/HitPath.ts)
    const routed = await startApi(env, { FDS_HIT_PATH: "0" })
    servers.push(on, off, small, missOff, routed)
    const rssAtStart = { on: rssMb(on.child.pid), off: rssMb(off.child.pid) }

    // every series, with the size of its /days
    const screener = (await (await fetch(`${off.url}/api/screener?limit=200`, { headers: auth })).json()) as { data: Array<{ id: string }> }
    const sizes: Array<{ id: string; bytes: number }> = []
    for (const s of screener.data) {
      const res = await fetch(`${off.url}/api/real_assets/${s.id}/days`, { headers: auth })
      sizes.push({ id: s.id, bytes: (await res.arrayBuffer()).byteLength })
    }
    sizes.sort((a, b) => b.bytes - a.bytes)
    const longest = sizes[0]!
    const near10k = [...sizes].sort((a, b) => Math.abs(a.bytes - 10_000) - Math.abs(b.bytes - 10_000))[0]!
    const ten = sizes.slice(0, 10).map((s) => s.id)
    const fundId = (
      (await (await fetch(`${off.url}/api/screener?limit=1&sort=1y&currency=CLP&order=desc`, { headers: auth })).json()) as {
        data: Array<{ attributes: { fundId: string } }>
      }
    ).data[0]!.attributes.fundId
    const cases: Case[] = [
      { name: "/days ~215 KB", path: `/api/real_assets/${longest.id}/days` },
      { name: "/days ~10 KB", path: `/api/real_assets/${near10k.id}/days` },
      { name: "all-funds", path: "/api/all-funds?vehicle=all" },
      { name: "compare 10", path: `/api/compare?series=${ten.join(",")}` },
      { name: "screener 1y", path: "/api/screener?sort=1y&currency=CLP" },
      { name: "returns", path: `/api/real_assets/${longest.id}/returns` },
      // get_fund's first route (it reads a few); get_returns answers as the returns route of the same series
      { name: "mcp get_fund", path: "/mcp", mcp: toolCall("get_fund", { concept_id: fundId }), route: `/api/conceptual_assets/${fundId}/real_assets` },
      { name: "mcp get_returns", path: "/mcp", mcp: toolCall("get_returns", { asset_id: longest.id }), route: `/api/real_assets/${longest.id}/returns` },
    ]

    // the ceiling sends what our server sends, identity and gzip
    const manifest: Array<Record<string, unknown>> = []
    const sent: Array<{ identity: number; gzip: number | null }> = []
    for (const [i, c] of cases.entries()) {
      const identity = await fetchAnswer(on.url + c.path, c, auth)
      const uncached = await fetchAnswer(off.url + c.path, c, auth)
      if (identity.status !== 200 || identity.encoding !== undefined) throw new Error(`${c.name}: ${identity.status} ${identity.body}`)
      if (c.mcp === undefined && !identity.body.equals(uncached.body)) throw new Error(`${c.name}: the cache on and off answer different bytes`)
      writeFileSync(join(work, `${i}.identity`), identity.body)
      const entry: Record<string, unknown> = {
        path: `/${i}`,
        identity: join(work, `${i}.identity`),
        contentType: "application/json",
        route: c.mcp === undefined ? c.path : "/mcp",
        headers: identity.own,
      }
      let gzipBytes: number | null = null
      if (c.mcp === undefined) {
        const gz = await fetchAnswer(on.url + c.path, c, { ...auth, "accept-encoding": "gzip" })
        if (gz.encoding !== "gzip") throw new Error(`${c.name}: not gzip`)
        writeFileSync(join(work, `${i}.gzip`), gz.body)
        entry.gzip = join(work, `${i}.gzip`)
        entry.gzipHeaders = gz.own
        gzipBytes = gz.body.length
      }
      manifest.push(entry)
      sent.push({ identity: identity.body.length, gzip: gzipBytes })
    }
    writeFileSync(join(work, "answers.json"), JSON.stringify(manifest))
    const ceiling = await startProcess([join(root, "test/bench/ceilingServer.ts"), join(work, "answers.json")], env)
    servers.push(ceiling)
    // the ceiling paying the per-request duties (the key check and count, the quota headers, the access log)
    const duties = await startProcess([join(root, "test/bench/ceilingServer.ts"), join(work, "answers.json"), join(work, "data", "accounts.sqlite")], env)
    servers.push(duties)
    // …and doing the rest of a hit's per-request work: the request metrics and the answer's own headers
    const hitWork = await startProcess(
      [join(root, "test/bench/ceilingServer.ts"), join(work, "answers.json"), join(work, "data", "accounts.sqlite"), "all"],
      env,
    )
    servers.push(hitWork)

    console.log(`bench answers: ${rounds} rounds × ${seconds} s, ${connections} connections; hit / routed / cache off / ceiling / ceiling with duties / ceiling doing a hit's work alternating`)
    const SIDES = ["hit", "routed", "off", "ceiling", "duties", "work"] as const
    type Side = (typeof SIDES)[number]
    type Summary = ReturnType<typeof summarizeRounds> & { cpu_ms_per_request: number }
    /** Rounds' medians, with the server's CPU per request. */
    const summaryOf = (rs: ReadonlyArray<Round & { cpuMsPerRequest: number }>): Summary => ({
      ...summarizeRounds(rs),
      cpu_ms_per_request: median(rs.map((x) => x.cpuMsPerRequest)),
    })
    const toolRows: Array<{ tool: string; route: string; tool_hit: Summary; route_hit: Summary; cost_over_route: number; route_over_tool_throughput: number }> = []
    const rows: Array<Record<Side, Summary> & { answer: string; coding: string; bytes: number | null; hit_over_ceiling_throughput: number; hit_over_ceiling_p99: number; hit_over_off_throughput: number; hit_over_routed_throughput: number; hit_over_duties_throughput: number; duties_over_ceiling_throughput: number; hit_over_work_throughput: number; work_over_ceiling_throughput: number; work_over_ceiling_p99: number }> = []
    const measure = async (server: Server, url: string, headers: Record<string, string>, extra: Partial<autocannon.Options>) => {
      const before = cpuMs(server.child.pid)
      const r = await round(url, headers, seconds, connections, extra)
      return { ...r, cpuMsPerRequest: (cpuMs(server.child.pid) - before) / (r.requestsPerSecond * seconds) }
    }
    for (const [i, c] of cases.entries()) {
      if (only !== undefined && !only.includes(c.name)) continue
      for (const coding of ["identity", "gzip"] as const) {
        if (coding === "gzip" && c.mcp !== undefined) continue
        const headers = { ...auth, ...(coding === "gzip" ? { "accept-encoding": "gzip" } : {}), ...(c.mcp === undefined ? {} : MCP_HEADERS) }
        const extra = c.mcp === undefined ? {} : { method: "POST" as const, body: c.mcp }
        const targets: Record<Side, [Server, string, Record<string, string>]> = {
          hit: [on, on.url + c.path, headers],
          routed: [routed, routed.url + c.path, headers],
          off: [off, off.url + c.path, headers],
          ceiling: [ceiling, `${ceiling.url}/${i}`, coding === "gzip" ? { "accept-encoding": "gzip" } : {}],
          duties: [duties, `${duties.url}/${i}`, headers],
          work: [hitWork, `${hitWork.url}/${i}`, headers],
        }
        // a tool's route (its kept answer, a GET on the same server) in the same rounds
        const route: [Server, string, Record<string, string>] | null = c.route === undefined ? null : [on, on.url + c.route, auth]
        for (const [, url, h] of Object.values(targets)) await round(url, h, 1, connections, extra) // warm-up
        if (route !== null) await round(route[1], route[2], 1, connections)
        const results = Object.fromEntries(SIDES.map((side) => [side, []])) as unknown as Record<Side, Array<Round & { cpuMsPerRequest: number }>>
        const routeResults: Array<Round & { cpuMsPerRequest: number }> = []
        for (let r = 0; r < rounds; r++) {
          for (const side of SIDES) results[side].push(await measure(...targets[side], extra))
          if (route !== null) routeResults.push(await measure(...route, {}))
        }
        const s = Object.fromEntries(Object.entries(results).map(([side, rs]) => [side, summaryOf(rs)])) as Record<Side, Summary>
        if (route !== null) {
          const routeS = summaryOf(routeResults)
          toolRows.push({
            tool: c.name,
            route: c.route!,
            tool_hit: s.hit,
            route_hit: routeS,
            cost_over_route: s.hit.cpu_ms_per_request / routeS.cpu_ms_per_request,
            route_over_tool_throughput: routeS.requests_per_second / s.hit.requests_per_second,
          })
        }
        const row = {
          answer: c.name,
          coding,
          bytes: coding === "gzip" ? sent[i]!.gzip : sent[i]!.identity,
          ...s,
          hit_over_ceiling_throughput: s.hit.requests_per_second / s.ceiling.requests_per_second,
          hit_over_ceiling_p99: s.hit.p99_ms / s.ceiling.p99_ms,
          hit_over_off_throughput: s.hit.requests_per_second / s.off.requests_per_second,
          hit_over_routed_throughput: s.hit.requests_per_second / s.routed.requests_per_second,
          hit_over_duties_throughput: s.hit.requests_per_second / s.duties.requests_per_second,
          duties_over_ceiling_throughput: s.duties.requests_per_second / s.ceiling.requests_per_second,
          hit_over_work_throughput: s.hit.requests_per_second / s.work.requests_per_second,
          work_over_ceiling_throughput: s.work.requests_per_second / s.ceiling.requests_per_second,
          work_over_ceiling_p99: s.work.p99_ms / s.ceiling.p99_ms,
        }
        rows.push(row)
        console.log(
          `${c.name} ${coding}: hit ${s.hit.requests_per_second.toFixed(0)} req/s p99 ${s.hit.p99_ms}, routed ${s.routed.requests_per_second.toFixed(0)} p99 ${s.routed.p99_ms}, off ${s.off.requests_per_second.toFixed(0)} p99 ${s.off.p99_ms}, ceiling ${s.ceiling.requests_per_second.toFixed(0)} p99 ${s.ceiling.p99_ms}, with duties ${s.duties.requests_per_second.toFixed(0)} p99 ${s.duties.p99_ms}, doing a hit's work ${s.work.requests_per_second.toFixed(0)} p99 ${s.work.p99_ms}`,
        )
      }
    }

    // a miss with the cache on: every series' /days in turn, more than the 1 MB budget holds
    const rotation = sizes.map((s) => `/api/real_assets/${s.id}/days`)
    const rotating = (): Partial<autocannon.Options> => {
      let n = 0
      return { requests: [{ setupRequest: (req) => ({ ...req, path: rotation[n++ % rotation.length]! }) }] }
    }
    const misses: Array<{ coding: string; miss: Summary; off: Summary; hit_rate: number; miss_over_off_throughput: number }> = []
    for (const coding of ["identity", "gzip"] as const) {
      const headers = { ...auth, ...(coding === "gzip" ? { "accept-encoding": "gzip" } : {}) }
      // both warmed as long as a round
      await round(small.url, headers, seconds, connections, rotating())
      await round(missOff.url, headers, seconds, connections, rotating())
      const hitsBefore = await metric(small, "fds_answer_cache_hits_total")
      const missesBefore = await metric(small, "fds_answer_cache_misses_total")
      const results: Record<"miss" | "off", Array<Round & { cpuMsPerRequest: number }>> = { miss: [], off: [] }
      for (let r = 0; r < rounds; r++) {
        results.miss.push(await measure(small, small.url, headers, rotating()))
        results.off.push(await measure(missOff, missOff.url, headers, rotating()))
      }
      const hits = (await metric(small, "fds_answer_cache_hits_total")) - hitsBefore
      const missed = (await metric(small, "fds_answer_cache_misses_total")) - missesBefore
      const miss = summaryOf(results.miss)
      const offS = summaryOf(results.off)
      misses.push({ coding, miss, off: offS, hit_rate: hits / (hits + missed), miss_over_off_throughput: miss.requests_per_second / offS.requests_per_second })
      console.log(`miss /days rotating ${rotation.length} series ${coding}: miss ${miss.requests_per_second.toFixed(0)} req/s p99 ${miss.p99_ms}, off ${offS.requests_per_second.toFixed(0)} p99 ${offS.p99_ms}, hit rate ${(hits / (hits + missed)).toFixed(3)}`)
    }

    const memory = {
      cache_bytes: await metric(on, "fds_answer_cache_bytes"),
      cache_entries: await metric(on, "fds_answer_cache_entries"),
      rss_mb_at_start: rssAtStart,
      rss_mb_at_end: { on: rssMb(on.child.pid), off: rssMb(off.child.pid) },
    }

    console.log(
      "\n| answer | coding | bytes | hit req/s | hit p99 ms | routed hit req/s | routed p99 ms | off req/s | off p99 ms | ceiling req/s | ceiling p99 ms | ceiling with duties req/s | with duties p99 ms | ceiling doing a hit's work req/s | its p99 ms | hit/ceiling req/s | hit/ceiling p99 | with duties/ceiling req/s | hit's work/ceiling req/s | hit's work/ceiling p99 | hit/with duties req/s | hit/hit's work req/s | hit/routed req/s | hit/off req/s | CPU ms/req hit · routed · off · ceiling · with duties · hit's work |",
    )
    console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (const r of rows) {
      const [h, d, o, c, u, w] = [r.hit, r.routed, r.off, r.ceiling, r.duties, r.work]
      console.log(
        `| ${r.answer} | ${r.coding} | ${r.bytes} | ${h.requests_per_second.toFixed(0)} | ${h.p99_ms} | ${d.requests_per_second.toFixed(0)} | ${d.p99_ms} | ${o.requests_per_second.toFixed(0)} | ${o.p99_ms} | ${c.requests_per_second.toFixed(0)} | ${c.p99_ms} | ${u.requests_per_second.toFixed(0)} | ${u.p99_ms} | ${w.requests_per_second.toFixed(0)} | ${w.p99_ms} | ${r.hit_over_ceiling_throughput.toFixed(2)} | ${r.hit_over_ceiling_p99.toFixed(2)} | ${r.duties_over_ceiling_throughput.toFixed(2)} | ${r.work_over_ceiling_throughput.toFixed(2)} | ${r.work_over_ceiling_p99.toFixed(2)} | ${r.hit_over_duties_throughput.toFixed(2)} | ${r.hit_over_work_throughput.toFixed(2)} | ${r.hit_over_routed_throughput.toFixed(2)} | ${r.hit_over_off_throughput.toFixed(2)} | ${h.cpu_ms_per_request.toFixed(3)} · ${d.cpu_ms_per_request.toFixed(3)} · ${o.cpu_ms_per_request.toFixed(3)} · ${c.cpu_ms_per_request.toFixed(3)} · ${u.cpu_ms_per_request.toFixed(3)} · ${w.cpu_ms_per_request.toFixed(3)} |`,
      )
    }
    console.log(
      "\n| tool (kept result) | its route (kept answer, same rounds) | tool req/s | route req/s | tool p99 ms | route p99 ms | tool CPU ms/call | route CPU ms/req | tool/route CPU | route/tool req/s |\n|---|---|---|---|---|---|---|---|---|---|",
    )
    for (const t of toolRows) {
      console.log(
        `| ${t.tool} | ${t.route} | ${t.tool_hit.requests_per_second.toFixed(0)} | ${t.route_hit.requests_per_second.toFixed(0)} | ${t.tool_hit.p99_ms} | ${t.route_hit.p99_ms} | ${t.tool_hit.cpu_ms_per_request.toFixed(3)} | ${t.route_hit.cpu_ms_per_request.toFixed(3)} | ${t.cost_over_route.toFixed(2)} | ${t.route_over_tool_throughput.toFixed(2)} |`,
      )
    }
    console.log("\n| miss (/days, every series in turn) | coding | miss req/s | miss p99 ms | off req/s | off p99 ms | miss/off req/s | hit rate |\n|---|---|---|---|---|---|---|---|")
    for (const m of misses) {
      console.log(
        `| ${rotation.length} series, 1 MB budget | ${m.coding} | ${m.miss.requests_per_second.toFixed(0)} | ${m.miss.p99_ms} | ${m.off.requests_per_second.toFixed(0)} | ${m.off.p99_ms} | ${m.miss_over_off_throughput.toFixed(2)} | ${m.hit_rate.toFixed(3)} |`,
      )
    }
    console.log(
      `\nmemory: cache ${memory.cache_bytes} bytes counted in ${memory.cache_entries} entries; RSS at start on ${rssAtStart.on} MB / off ${rssAtStart.off} MB, at end on ${memory.rss_mb_at_end.on} MB / off ${memory.rss_mb_at_end.off} MB`,
    )
    return { seconds, rounds, connections, rows, tools: toolRows, misses, memory }
  } finally {
    for (const s of servers) s.child.kill()
    rmSync(work, { recursive: true, force: true })
  }
}
