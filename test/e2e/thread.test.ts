/**
 * The whole thread, every part real: the sample generator writes CMF files → `./fds pipeline run`
 * (a child process) builds and publishes a snapshot → `./fds serve` (a child process) on an
 * ephemeral port → HTTP requests with undici. Expected values come from reading the sample files
 * in this test with a plain split, not through the pipeline's parser.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process"
import { crc32 } from "node:zlib"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { logChildOutput } from "../support/testLog.ts"

const run = promisify(execFile)
const root = join(import.meta.dirname, "..", "..")
const node = process.execPath

interface Row {
  agfRut: string
  run: string
  date: string
  serie: string
  price: number
}

let work: string
let dataDir: string
let sampleDir: string
let server: ChildProcess
let base: string
let key: string
const rows: Row[] = []

// biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON came back and asserts on it
type Json = any
const get = async (path: string, headers: Record<string, string> = { "x-api-key": key }) => {
  const res = await request(base + path, { headers })
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Json }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-e2e-"))
  dataDir = join(work, "data")
  sampleDir = join(work, "sample")
  await writeSample({ out: sampleDir, scale: "small", seed: 7, endDate: "2026-11-20" })
  for (const name of readdirSync(sampleDir).filter((n) => n.startsWith("ffmm_todos_"))) {
    const lines = readFileSync(join(sampleDir, name)).toString("latin1").split("\n").slice(1)
    for (const line of lines) {
      const c = line.split(";")
      if (c.length !== 25) continue
      rows.push({ agfRut: c[0]!, run: c[2]!, date: c[3]!, serie: c[8]!, price: Number(c[12]!.replace(",", ".")) })
    }
  }
  const env = { ...process.env, FDS_DATA_DIR: dataDir }
  const built = await run(node, [join(root, "pipeline/main.ts"), "pipeline", "run", "--source", sampleDir], { env })
  expect(built.stdout).toMatch(/^published 2026-11-20: 2026-11-20-[0-9a-f]{16}\.sqlite/)
  key = (await run(node, [join(root, "api/main.ts"), "keys", "create", "--email", "e2e@example.com"], { env })).stdout.trim()
  // The sample's batch date is fixed (2026-11-20): staleness is judged far later in this test.
  server = spawn(node, [join(root, "api/main.ts"), "serve"], {
    env: { ...env, PORT: "0", FDS_STALE_AFTER_HOURS: "1000000" },
    stdio: ["ignore", "pipe", "pipe"],
  })
  logChildOutput(server, `serve (pid ${server.pid})`)
  base = await new Promise<string>((resolve, reject) => {
    let out = ""
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      const m = /Listening on (http:\/\/[0-9.]+:\d+)/.exec(out)
      if (m) resolve(m[1]!)
    }
    server.stdout!.on("data", onData)
    server.stderr!.on("data", onData)
    server.on("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)))
  })
}, 120_000)

afterAll(() => {
  server?.kill()
  rmSync(work, { recursive: true, force: true })
})

describe("sample → pipeline → API", () => {
  it("serves health without a key, and refuses data without one", async () => {
    const health = await get("/health", {})
    expect(health.status).toBe(200)
    expect(health.body.status).toBe("ok")
    expect(health.body.last_scraped_date).toBe("2026-11-20")
    const noKey = await get("/api/asset_providers", {})
    expect(noKey.status).toBe(401)
    expect(noKey.headers["www-authenticate"]).toMatch(/^Bearer/)
    expect(noKey.body).toMatchObject({ error: "unauthorized", status: 401 })
  })

  it("lists every administrator of the sample with its CRC32 id", async () => {
    const res = await get("/api/asset_providers")
    expect(res.status).toBe(200)
    const ruts = [...new Set(rows.map((r) => r.agfRut))]
    const ids = res.body.data.map((p: { id: string }) => p.id).sort()
    for (const rut of ruts) expect(ids).toContain(String(crc32(`agf:${rut}`)))
  })

  it("answers /days for a series with exactly the sample's values, ascending, from_date inclusive", async () => {
    // The series with the most rows in the sample files.
    const counts = new Map<string, number>()
    for (const r of rows) counts.set(`${r.run}:${r.serie}`, (counts.get(`${r.run}:${r.serie}`) ?? 0) + 1)
    const [seriesKey] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!
    const [runText, serie] = seriesKey.split(":") as [string, string]
    const expected = new Map<string, number>()
    for (const r of rows) if (r.run === runText && r.serie === serie) expected.set(r.date, r.price)
    const dates = [...expected.keys()].sort()
    const id = crc32(`fm:${runText}:${serie.toUpperCase()}`)

    const all = await get(`/api/real_assets/${id}/days`)
    expect(all.status).toBe(200)
    expect(all.body.data.length).toBe(dates.length)
    expect(all.body.data[0].attributes.date).toBe(`${dates[0]!.slice(0, 4)}-${dates[0]!.slice(4, 6)}-${dates[0]!.slice(6)}`)
    for (const day of all.body.data) {
      const compact = day.attributes.date.replaceAll("-", "")
      expect(day.attributes.price).toBe(expected.get(compact))
      expect(day.id).toBe(`${id}_${day.attributes.date}`)
    }

    const from = dates[dates.length - 10]!
    const fromIso = `${from.slice(0, 4)}-${from.slice(4, 6)}-${from.slice(6)}`
    const tail = await get(`/api/real_assets/${id}/days?from_date=${fromIso}`)
    expect(tail.body.data.length).toBe(10)
    expect(tail.body.data[0].attributes.date).toBe(fromIso)
  })

  it("validates dates and ids at the edge", async () => {
    const bad = await get(`/api/real_assets/1/days?from_date=2026-02-29`)
    expect(bad.status).toBe(422)
    expect(bad.body).toMatchObject({ error: "invalid_parameter", parameter: "from_date" })
    const unknown = await get(`/api/real_assets/1/days`)
    expect(unknown.status).toBe(404)
  })

  it("a bad file rejects the batch (exit 1, named); the API keeps serving the previous snapshot", async () => {
    const env = { ...process.env, FDS_DATA_DIR: dataDir }
    const bad = join(work, "bad")
    mkdirSync(bad)
    writeFileSync(join(bad, "garbage.txt"), "not;a;cmf;file\n")
    const before = await get("/health", {})
    const result = await run(node, [join(root, "pipeline/main.ts"), "pipeline", "run", "--source", bad], { env }).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    )
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/garbage\.txt matches no CMF data set/)
    const after = await get("/health", {})
    // Same batch served; /health may now say the last run failed ("degraded"), never "unavailable".
    expect(after.body.last_scraped_date).toBe(before.body.last_scraped_date)
    expect(after.body.total_records).toBe(before.body.total_records)
    expect(["ok", "degraded"]).toContain(after.body.status)
  })

  it("re-running the same files appends nothing and publishes nothing new", async () => {
    const env = { ...process.env, FDS_DATA_DIR: dataDir }
    const again = await run(node, [join(root, "pipeline/main.ts"), "pipeline", "run", "--source", sampleDir], { env })
    expect(again.stdout).toMatch(/^unchanged: 2026-11-20/)
  })
})
