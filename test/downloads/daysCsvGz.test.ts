/**
 * GET /api/batches/{batch_id}/days.csv.gz: decompressed and read back, it holds every series' daily
 * values of the batch, FM then FI/ETF, as the fixtures chose them and as the JSON /days gives
 * them; a past batch's export reads that batch; 404 for an unknown batch. On a batch of 450,000
 * rows, an export the client stops after its first bytes closes its connection to the file.
 */

import { connect, type Socket } from "node:net"
import { gunzipSync } from "node:zlib"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { intToDate } from "../../schemas/Dates.ts"
import { readManifest, writeManifest } from "../../snapshots/Manifest.ts"
import { SnapshotWriter } from "../../snapshots/Writer.ts"
import { PRICES, SERIES } from "../fi/fiData.ts"
import { BATCH_DATE, makeFiFixture } from "../fi/fiFixture.ts"
import { openHandlesOf } from "../support/descriptors.ts"
import { type ContractValidator, contractValidator } from "../support/openApiValidator.ts"
import { createKey, expectErrorShape, get, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { fixtureA, fixtureB, fixtureRows, manifestFor, publishSnapshot } from "../support/snapshotFixture.ts"
import { csvHeader, parseCsv } from "./csv.ts"
import { recordPublished } from "./ledger.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any

const PATH = "/api/batches/{batch_id}/days.csv.gz"

/** A GET over a raw socket that stops reading once the status line has come. */
const stalledGet = (port: number, path: string, key: string): Promise<{ socket: Socket; head: string }> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${key}\r\n\r\n`))
    socket.once("data", (chunk: Buffer) => {
      socket.pause()
      resolve({ socket, head: chunk.toString("latin1", 0, 64) })
    })
    socket.once("error", reject)
  })

/** A decimal with its decimal point always (`5000000000.0`), as the export writes price and total_net_assets. */
const decimal = (n: number): string => (Number.isInteger(n) ? `${n}.0` : String(n))

/** The expected line of a value, written from the fixture's numbers: the id behind its domain's prefix. */
const expected = (id: string | number, iso: string, price: number, patrimony: number | null, holders: number | null) => ({
  id: typeof id === "number" ? `fm-${id}` : `fi-${id}`,
  date: iso,
  price: decimal(price),
  total_net_assets: patrimony === null ? "" : decimal(patrimony),
  shareholders: holders === null ? "" : String(holders),
})

const largePrice = (s: number, d: number): number => 1000 + 100 * Math.sin(s * 7919 + d)

/** A batch of `series` × `days` quota rows (no registry: the export reads the values alone). */
const writeLargeBatch = (snapshotsDir: string, series: number, days: number): { file: string; path: string; contentHash: string } => {
  const writer = new SnapshotWriter(snapshotsDir)
  try {
    const rows = []
    for (let s = 1; s <= series; s++) {
      for (let d = 0; d < days; d++) {
        const date = Number(new Date(Date.UTC(2019, 0, 1) + d * 86_400_000).toISOString().slice(0, 10).replaceAll("-", ""))
        // full-precision prices: the gzip stays large (an export outlasts the sockets' buffers)
        rows.push({ asset_id: s, date, price: largePrice(s, d), patrimony: 1e9 + d, holders: 100 + s, factor_ajuste: null, factor_reparto: null })
      }
    }
    writer.insertQuotas(rows)
    const finished = writer.finish("2023-02-10")
    writeManifest(snapshotsDir, manifestFor(finished, "2023-02-10"))
    return { file: finished.file, path: finished.path, contentHash: finished.contentHash }
  } catch (e) {
    writer.abort()
    throw e
  }
}

describe("GET /api/batches/{batch_id}/days.csv.gz", () => {
  const fx = makeFiFixture("available")
  let large: { file: string; path: string; contentHash: string }
  let server: RunningServer
  let key: string
  let validator: ContractValidator

  const fetchGz = async (batchId: string) => {
    const res = await request(`${server.url}/api/batches/${batchId}/days.csv.gz`, { headers: { "x-api-key": key } })
    const bytes = Buffer.from(await res.body.arrayBuffer())
    const text = ["application/json", "application/problem+json"].includes(String(res.headers["content-type"])) ? bytes.toString("utf8") : ""
    expect(validator.problems("get", PATH, { status: res.statusCode, headers: res.headers, text })).toEqual([])
    return { status: res.statusCode, headers: res.headers, bytes }
  }

  beforeAll(async () => {
    large = writeLargeBatch(fx.snapshotsDir, 300, 1500)
    const fiHash = readManifest(fx.snapshotsDir, fx.file).content_hash
    recordPublished(
      fx.dataDir,
      { batchDate: "2023-02-10", file: large.file, contentHash: large.contentHash },
      { batchDate: BATCH_DATE, file: fx.file, contentHash: fiHash },
    )
    // the FI batch stays served; B is published after it as another batch
    server = await startServer({ dataDir: fx.dataDir })
    key = (await createKey(fx.dataDir, { email: "gz@example.cl", tier: "internal" })).key
    validator = contractValidator((await get(`${server.url}/openapi.json`)).body)
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("holds every series' daily values, FM then FI/ETF, by id and date, as the fixture chose them", async () => {
    const res = await fetchGz(fx.file.replace(/\.sqlite$/, ""))
    expect(res.status).toBe(200)
    expect(res.headers["content-type"]).toBe("application/gzip")
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="${fx.file.replace(/\.sqlite$/, "")}-days.csv.gz"`)
    expect(res.headers["batch-id"]).toBe(fx.file.replace(/\.sqlite$/, ""))
    const text = gunzipSync(res.bytes).toString("utf8")
    expect(csvHeader(text)).toEqual(["id", "date", "price", "total_net_assets", "shareholders"])
    const fm = fixtureRows(fixtureA()).quotas.map((q) => expected(q.asset_id, intToDate(q.date), q.price, q.patrimony, q.holders))
    const fi = [...PRICES]
      .sort((x, y) => (x.serie_id < y.serie_id ? -1 : x.serie_id > y.serie_id ? 1 : x.date - y.date))
      .map((p) => expected(p.serie_id, intToDate(p.date), p.book_value, p.patrimony, p.holders))
    expect(parseCsv(text)).toEqual([...fm, ...fi])
  })

  it("its prices are the JSON /days' of every series", async () => {
    const rows = parseCsv(gunzipSync((await fetchGz(fx.file.replace(/\.sqlite$/, ""))).bytes).toString("utf8"))
    const ids = [...fixtureA().funds.flatMap((f) => f.series.map((s) => String(s.assetId))), ...SERIES.map((s) => s.serie_id)]
    for (const id of ids) {
      const json = (await get(`${server.url}/api/real_assets/${id}/days`, { "x-api-key": key })).body as Json
      const mine = rows.filter((r) => r.id === (/^[0-9]+$/.test(id) ? `fm-${id}` : `fi-${id}`))
      expect(mine.length, id).toBeGreaterThan(0)
      expect(mine.map((r) => [r.date, Number(r.price)]), id).toEqual(json.data.map((d: Json) => [d.attributes.date, d.attributes.price]))
    }
  })

  it("a past batch's export reads that batch; an unknown batch is a 404", async () => {
    const b = publishSnapshot(fx.snapshotsDir, fixtureB())
    recordPublished(fx.dataDir, { batchDate: "2026-02-09", file: b.finished.file, contentHash: b.finished.contentHash })
    const pastGz = await fetchGz(fx.file.replace(/\.sqlite$/, ""))
    const currentGz = await fetchGz(b.finished.file.replace(/\.sqlite$/, ""))
    // each names its own batch, the past one too
    expect([pastGz.headers["batch-id"], currentGz.headers["batch-id"]]).toEqual([fx.file.replace(/\.sqlite$/, ""), b.finished.file.replace(/\.sqlite$/, "")])
    const past = gunzipSync(pastGz.bytes).toString("utf8")
    const current = gunzipSync(currentGz.bytes).toString("utf8")
    expect(parseCsv(past).some((r) => r.date === "2026-02-09")).toBe(false)
    // B's new day: 1004.125, 2503.25, 1.2399 and 1.1134, in the order of their series' ids
    const newDay = fixtureRows(fixtureB()).quotas.filter((q) => q.date === 20260209)
    expect(newDay.map((q) => q.price).sort()).toEqual([1.1134, 1.2399, 1004.125, 2503.25])
    expect(parseCsv(current).filter((r) => r.date === "2026-02-09")).toEqual(
      newDay.map((q) => expected(q.asset_id, "2026-02-09", q.price, q.patrimony, q.holders)),
    )
    const unknown = await fetchGz(`${BATCH_DATE}-0123456789abcdef`)
    expect(unknown.status).toBe(404)
    expectErrorShape(JSON.parse(unknown.bytes.toString("utf8")), 404)
  })

  it("streams a batch of 450,000 values; an export the client stops closes its connection to the file", async () => {
    const batchId = large.file.replace(/\.sqlite$/, "")
    const whole = await fetchGz(batchId)
    const text = gunzipSync(whole.bytes).toString("utf8")
    expect(text.split("\n").length - 2).toBe(450_000)
    expect(text.slice(0, text.indexOf("\n", text.indexOf("\n", 60) + 1) + 1)).toBe(
      `id,date,price,total_net_assets,shareholders\nfm-1,2019-01-01,${largePrice(1, 0)},1000000000.0,101\nfm-1,2019-01-02,${largePrice(1, 1)},1000000001.0,101\n`,
    )
    expect(whole.bytes.length).toBeGreaterThan(5_000_000)
    expect(openHandlesOf(large.path)).toBe(0)
    const res = await request(`${server.url}/api/batches/${batchId}/days.csv.gz`, { headers: { "x-api-key": key } })
    expect(res.statusCode).toBe(200)
    for await (const _ of res.body) break
    // the export is under way: its connection holds the file open
    expect(openHandlesOf(large.path)).toBeGreaterThan(0)
    res.body.destroy()
    expect(await waitFor(async () => openHandlesOf(large.path) === 0, 5000)).toBe(true)
  })

  it("runs two exports at once: a third gets 503 exports_busy with Retry-After; a HEAD starts none", async () => {
    const url = `${server.url}/api/batches/${large.file.replace(/\.sqlite$/, "")}/days.csv.gz`
    // two clients that read the answer's first bytes and then nothing: their exports wait on them
    const running = await Promise.all([0, 1].map(() => stalledGet(server.port, new URL(url).pathname, key)))
    for (const r of running) expect(r.head).toMatch(/^HTTP\/1\.1 200 /)
    const third = await fetchGz(large.file.replace(/\.sqlite$/, ""))
    expect(third.status).toBe(503)
    expect(third.headers["retry-after"]).toBe("60")
    expect(JSON.parse(third.bytes.toString("utf8")).error).toBe("exports_busy")
    const head = await request(url, { method: "HEAD", headers: { "x-api-key": key } })
    expect(head.statusCode).toBe(200)
    expect(head.headers["content-type"]).toBe("application/gzip")
    expect((await head.body.arrayBuffer()).byteLength).toBe(0)
    for (const r of running) r.socket.destroy()
    expect(await waitFor(async () => openHandlesOf(large.path) === 0, 5000)).toBe(true)
    const after = await request(url, { headers: { "x-api-key": key } })
    expect(after.statusCode).toBe(200)
    after.body.destroy()
  })
})
