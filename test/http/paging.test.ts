/**
 * One paging shape (#29 item 3) over real HTTP, on each offset-paged list: /api/screener,
 * /api/fi/instruments, /api/fi/instruments/{id}/prices and /api/batches. Every page answers `data`,
 * `total`, `limit`, `offset` and `links` {self, next, prev}, root-relative, carrying the request's
 * parameters and the batch the page was read from, and the same links in an RFC 8288 Link header.
 * Following next from the first page visits every item (worked out from the fixtures) exactly once
 * and ends with next null; prev goes back a page. A publish between two pages does not move a
 * client that follows next: it still reads the first page's batch (Batch-Id, values). The
 * corrections feed (/api/changes, cursor-paged) is checked in test/changes/changesApi.test.ts.
 */
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SqliteLedger } from "../../pipeline/ledger/Ledger.ts"
import { readManifest } from "../../snapshots/Manifest.ts"
import { recordPublished } from "../downloads/ledger.ts"
import { PRICES } from "../fi/fiData.ts"
import { makeFiFixture, publishFiSnapshot } from "../fi/fiFixture.ts"
import { testInstrumentId, testSerieId } from "../fi/fiIds.ts"
import { byAscendingId, ids, SPHERES, UNIVERSE } from "../market/compareFixture.ts"
import { publishMarketSnapshot } from "../market/marketSnapshot.ts"
import { createKey, get, header, type JsonResponse, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { type FixtureDir, makeDataDir, makeFixtureA } from "../support/snapshotFixture.ts"

// biome-ignore lint/suspicious/noExplicitAny: answers are plain JSON
type Json = any

interface Links {
  readonly self: string
  readonly next: string | null
  readonly prev: string | null
}

interface Served {
  readonly server: RunningServer
  readonly key: string
  readonly dir: FixtureDir
}

const started: Served[] = []
afterAll(async () => {
  for (const s of started) {
    await s.server.close()
    s.dir.cleanup()
  }
})

const serve = async (dir: FixtureDir): Promise<Served> => {
  const key = (await createKey(dir.dataDir, { email: "paging@example.cl", tier: "internal" })).key
  const served = { server: await startServer({ dataDir: dir.dataDir, pollMillis: 50 }), key, dir }
  started.push(served)
  return served
}

/** Records the publish of `file` (written and made CURRENT by a fixture) in the ledger, as the pipeline does: `?batch=` reads batches the ledger lists. */
const recorded = (dir: FixtureDir, file: string): string => {
  recordPublished(dir.dataDir, { batchDate: file.slice(0, 10), file, contentHash: readManifest(dir.snapshotsDir, file).content_hash })
  return file.replace(/\.sqlite$/, "")
}

const call = (s: Served, target: string): Promise<JsonResponse> => get(s.server.url + target, { "x-api-key": s.key })

/** The Link header as links: each `<url>; rel="…"` (RFC 8288), the missing ones null. */
const linkHeader = (value: string | undefined): Links => {
  const found: Record<string, string> = {}
  for (const m of (value ?? "").matchAll(/<([^>]*)>\s*;\s*rel="([^"]+)"/g)) found[m[2]!] = m[1]!
  return { self: found.self ?? "", next: found.next ?? null, prev: found.prev ?? null }
}

/** A page that answered 200 with the shape: links in the body equal to the Link header. */
const page = async (s: Served, target: string): Promise<{ res: JsonResponse; body: Json }> => {
  const res = await call(s, target)
  expect(res.status, `${target}: ${res.text.slice(0, 300)}`).toBe(200)
  const body = res.body as Json
  expect(Object.keys(body.links).sort()).toEqual(["next", "prev", "self"])
  expect(linkHeader(header(res, "link"))).toEqual(body.links)
  return { res, body }
}

const params = (url: string): URLSearchParams => new URL(url, "http://x").searchParams

/** Checks one link: root-relative, on `path`, with every parameter of `first` but offset as it was, `offset` and `batch`. */
const expectLink = (url: string, path: string, first: string, offset: number, batch: string) => {
  expect(url.startsWith(`${path}?`), url).toBe(true)
  const got = params(url)
  for (const [name, value] of params(first)) if (name !== "offset") expect(got.get(name), `${name} in ${url}`).toBe(value)
  expect([got.get("offset"), got.get("batch")], url).toEqual([String(offset), batch])
}

/**
 * Follows next from `first` to the end: checks each page's members and links against `expected`
 * (the item keys of the whole list, in order) and `batch`; returns the pages' item keys.
 */
const followAll = async (
  s: Served,
  path: string,
  first: string,
  limit: number,
  expected: ReadonlyArray<string>,
  keyOf: (item: Json) => string,
  batch: string,
  /** Whether the answers name `batch` in Batch-Id (not /api/batches, read from the ledger). */
  batchHeader = true,
) => {
  const pages: string[][] = []
  const targets: string[] = []
  let next: string | null = first
  while (next !== null) {
    const offset = pages.length * limit
    const { res, body } = await page(s, next)
    expect(header(res, "batch-id")).toBe(batchHeader ? batch : undefined)
    expect([body.total, body.limit, body.offset, body.data.length]).toEqual([
      expected.length,
      limit,
      offset,
      Math.min(limit, expected.length - offset),
    ])
    expectLink(body.links.self, path, first, offset, batch)
    if (body.links.next !== null) expectLink(body.links.next, path, first, offset + limit, batch)
    if (offset === 0) expect(body.links.prev).toBeNull()
    else expectLink(body.links.prev, path, first, offset - limit, batch)
    pages.push(body.data.map(keyOf))
    targets.push(next)
    next = body.links.next
    expect(pages.length).toBeLessThanOrEqual(expected.length + 1)
  }
  expect(pages.length).toBe(Math.ceil(expected.length / limit))
  // every item exactly once, in the list's order
  expect(pages.flat()).toEqual([...expected])
  // prev of each page answers the page before it
  for (let k = 1; k < pages.length; k++) {
    const { body } = await page(s, targets[k]!)
    expect((await page(s, body.links.prev)).body.data.map(keyOf)).toEqual(pages[k - 1])
  }
  return pages
}

/** Waits until the answer to `target` (naming no batch) shows the swap (`check`). */
const awaitSwap = async (s: Served, target: string, check: (res: JsonResponse) => boolean) => {
  expect(await waitFor(async () => check(await call(s, target)), 10_000)).toBe(true)
}

describe("GET /api/screener", () => {
  let s: Served
  let batch = ""
  beforeAll(async () => {
    const dir = makeDataDir()
    batch = recorded(dir, publishMarketSnapshot(dir.snapshotsDir, { returns: true, extra: (w) => w.insertRows("cmf_spheres", SPHERES) }))
    s = await serve(dir)
  })
  const expected = ids(...byAscendingId(UNIVERSE))

  it("pages of 3 through links.next: every series once (ascending id), prev back, the Link header equal to links, meta as before", async () => {
    expect(expected.length).toBe(10)
    await followAll(s, "/api/screener", "/api/screener?order=asc&limit=3", 3, expected, (item) => item.id, batch)
    const { body } = await page(s, "/api/screener?limit=3&offset=3")
    // the spec's meta keeps its paging members, the same values
    expect([body.meta.total, body.meta.limit, body.meta.offset]).toEqual([10, 3, 3])
  })

  it("a path with repeated slashes (a base URL ending in /) gets links on the route's own path, never //", async () => {
    for (const target of ["//api/screener?limit=3", "//api//screener?limit=3", "///api///screener?limit=3"]) {
      const { body } = await page(s, target)
      expect([body.links.self, body.links.next], target).toEqual([
        `/api/screener?limit=3&offset=0&batch=${batch}`,
        `/api/screener?limit=3&offset=3&batch=${batch}`,
      ])
    }
  })

  it("past the end: no items, next null, prev back to the last page's start", async () => {
    const { body } = await page(s, "/api/screener?limit=3&offset=20")
    expect([body.data.length, body.total, body.links.next]).toEqual([0, 10, null])
    expect(params(body.links.prev).get("offset")).toBe("7")
  })

  it("following next after a swap still reads the first page's batch", async () => {
    const first = await page(s, "/api/screener?limit=4")
    expect(header(first.res, "batch-id")).toBe(batch)
    // the new batch has no returns: read from it, the screener answers 503
    recorded(s.dir, publishMarketSnapshot(s.dir.snapshotsDir, { returns: false }))
    await awaitSwap(s, "/api/screener?limit=4", (res) => res.status === 503)
    const second = await page(s, first.body.links.next)
    expect(header(second.res, "batch-id")).toBe(batch)
    expect(second.body.data.map((i: Json) => i.id)).toEqual(expected.slice(4, 8))
    const third = await page(s, second.body.links.next)
    expect(third.body.data.map((i: Json) => i.id)).toEqual(expected.slice(8))
    expect(third.body.links.next).toBeNull()
  })
})

describe("GET /api/fi/instruments and /api/fi/instruments/{id}/prices", () => {
  let s: Served
  let batch = ""
  beforeAll(async () => {
    const dir = makeFiFixture()
    batch = recorded(dir, dir.file)
    s = await serve(dir)
  })
  const alfa = testInstrumentId(9251)
  const alfaSeries = new Set([testSerieId(9251, "A"), testSerieId(9251, "I")])
  // the fixture's book values of 9251's two series, by date then series label (A before I)
  const alfaPrices = PRICES.filter((p) => alfaSeries.has(p.serie_id))
    .map((p) => ({ date: p.date, serie: p.serie_id === testSerieId(9251, "A") ? "A" : "I" }))
    .sort((a, b) => a.date - b.date || a.serie.localeCompare(b.serie))
    .map((p) => `${String(p.date).replace(/^(\d{4})(\d{2})(\d{2})$/, "$1-$2-$3")}:${p.serie}`)
  // the six instruments by name (accents folded: "ETF …" first, then "FONDO DE INVERSIÓN …" by the rest)
  const byName = [7003, 9251, 7020, 7040, 7030, 7010].map(testInstrumentId)

  it("instruments in pages of 2: every instrument once, prev back, Link header equal to links", async () => {
    await followAll(s, "/api/fi/instruments", "/api/fi/instruments?status=all&limit=2", 2, byName, (i) => i.instrument_id, batch)
  })

  it("prices in pages of 3: every book value of the instrument once, ascending by date", async () => {
    expect(alfaPrices.length).toBeGreaterThan(6)
    const path = `/api/fi/instruments/${alfa}/prices`
    await followAll(s, path, `${path}?from_date=2026-01-01&limit=3`, 3, alfaPrices, (p) => `${p.date}:${p.serie}`, batch)
  })

  it("following next after a swap still reads the first page's batch", async () => {
    const path = `/api/fi/instruments/${alfa}/prices`
    const instruments = await page(s, "/api/fi/instruments?status=all&limit=2")
    const prices = await page(s, `${path}?limit=3`)
    // the new batch has no FI data: read from it, every FI route answers 503
    recorded(s.dir, publishFiSnapshot(s.dir.snapshotsDir, { unavailable: "the CMF list could not be read" }))
    await awaitSwap(s, "/api/fi/instruments", (res) => res.status === 503)
    const nextInstruments = await page(s, instruments.body.links.next)
    expect(header(nextInstruments.res, "batch-id")).toBe(batch)
    expect(nextInstruments.body.data.map((i: Json) => i.instrument_id)).toEqual(byName.slice(2, 4))
    const nextPrices = await page(s, prices.body.links.next)
    expect(header(nextPrices.res, "batch-id")).toBe(batch)
    expect(nextPrices.body.data.map((p: Json) => `${p.date}:${p.serie}`)).toEqual(alfaPrices.slice(3, 6))
  })
})

describe("GET /api/batches", () => {
  let s: Served
  let ledger: SqliteLedger
  const hex = (c: string) => c.repeat(16)
  const published = (date: string, c: string) => ({
    type: "BatchPublished" as const,
    payload: { batch_date: date, file: `${date}-${hex(c)}.sqlite`, content_hash: c.repeat(64) },
  })
  // published oldest first; the list is newest first
  const events = [published("2026-11-16", "a"), published("2026-11-17", "b"), published("2026-11-18", "c"), published("2026-11-19", "d"), published("2026-11-20", "e")]
  const newestFirst = events.map((e) => e.payload.file.replace(/\.sqlite$/, "")).reverse()
  beforeAll(async () => {
    const dir = makeFixtureA()
    ledger = new SqliteLedger(join(dir.dataDir, "ledger.sqlite"))
    for (const e of events) ledger.append(e)
    s = await serve(dir)
  })
  afterAll(() => ledger.close())

  it("pages of 2 through links.next: every batch once, newest first; the links name the newest batch of the first page's list", async () => {
    await followAll(s, "/api/batches", "/api/batches?limit=2", 2, newestFirst, (b) => b.id, newestFirst[0]!, false)
  })

  it("`batch` cuts the list at that batch (it and the ones before it); an unknown one is a 404", async () => {
    const { body } = await page(s, `/api/batches?batch=${newestFirst[2]}`)
    expect([body.total, body.data.map((b: Json) => b.id)]).toEqual([3, newestFirst.slice(2)])
    expect((await call(s, "/api/batches?batch=2026-11-21-ffffffffffffffff")).status).toBe(404)
  })

  it("following next after a publish neither repeats nor adds a batch", async () => {
    const first = await page(s, "/api/batches?limit=2")
    expect(first.body.data.map((b: Json) => b.id)).toEqual(newestFirst.slice(0, 2))
    ledger.append(published("2026-11-21", "f"))
    await awaitSwap(s, "/api/batches?limit=2", (res) => res.status === 200 && (res.body as Json).total === 6)
    const second = await page(s, first.body.links.next)
    const third = await page(s, second.body.links.next)
    expect([second.body.total, second.body.data.map((b: Json) => b.id), third.body.data.map((b: Json) => b.id)]).toEqual([
      5,
      newestFirst.slice(2, 4),
      newestFirst.slice(4),
    ])
    expect(third.body.links.next).toBeNull()
  })
})

describe("/openapi.json", () => {
  const PAGED = [
    "/api/screener",
    "/api/fi/instruments",
    "/api/fi/instruments/{instrument_id}/prices",
    "/api/batches",
    "/api/changes",
  ]
  let doc: Json
  beforeAll(async () => {
    const s = await serve(makeFixtureA())
    doc = (await get(`${s.server.url}/openapi.json`)).body
  })
  const resolve = (node: Json): Json => (node?.$ref === undefined ? node : resolve(doc.components.schemas[String(node.$ref).split("/").at(-1)!]))

  it("declares links (self, next, prev: string, nullable but self) on each paged list, and the Link header on its 200 only", async () => {
    const links = resolve(doc.components.schemas.PageLinks)
    expect(typeof links.description).toBe("string")
    expect(links.required).toEqual(["self", "next", "prev"])
    expect(links.properties.self.type).toBe("string")
    for (const rel of ["next", "prev"]) {
      expect(links.properties[rel].anyOf.map((s: Json) => s.type).sort()).toEqual(["null", "string"])
    }
    expect(typeof doc.components.headers.Link.description).toBe("string")
    const withLink: string[] = []
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(item as Record<string, Json>)) {
        if (op?.responses?.["200"]?.headers?.Link !== undefined) withLink.push(`${method} ${path}`)
      }
    }
    expect(withLink.sort()).toEqual(PAGED.map((p) => `get ${p}`).sort())
    for (const path of PAGED) {
      const body = resolve(doc.paths[path].get.responses["200"].content["application/json"].schema)
      expect(resolve(body.properties.links).properties, path).toEqual(links.properties)
      expect(body.required, path).toContain("links")
      if (path !== "/api/changes") expect(body.required, path).toEqual(expect.arrayContaining(["data", "total", "limit", "offset"]))
    }
    // the batches list takes its own `batch` (the list as of a batch)
    expect(doc.paths["/api/batches"].get.parameters.map((p: Json) => p.name)).toContain("batch")
  })
})
