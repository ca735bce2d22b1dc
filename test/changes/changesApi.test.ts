/**
 * GET /api/changes over HTTP, between two batches the real pipeline published from the sample's
 * CMF files (this year's cartolas, the registry, the TAC files and the renames list):
 *   batch A, 2026-11-19: November's cartola through the 18th, and the daily BPR report of the 19th
 *     for two series (one of them 0.5 above its cartola value: a provisional value to be corrected);
 *   then, as the CMF would: one October value restated in its month's file, a series renamed, a
 *     September TAC corrected, a fund's short name changed in the registry, and November's whole
 *     cartola (which replaces the BPR's values of the 19th);
 *   batch B, 2026-11-20.
 * The feed lists each of those changes with the values worked out from the files as written here;
 * paged one item at a time it gives the same items once each; a client that follows links.next
 * gets everything (links.self spells to_batch, prev is null, the Link header says the same). Bad, unknown, reversed and no longer retained batches give 422, 404 and 410.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { identicalParts } from "../../snapshots/changes/Identical.ts"
import { readManifest } from "../../snapshots/Manifest.ts"
import { contractValidator } from "../support/openApiValidator.ts"
import { publishFolder } from "../support/publishFolder.ts"
import { createKey, expectErrorShape, get, header, type RunningServer, startServer } from "../support/server.ts"
import { testCrc32 } from "../support/snapshotFixture.ts"
import { bprDayWorkbook } from "../support/workbooks.ts"

let work = ""
let dataDir = ""
let server: RunningServer
let key = ""
const batch = { a: "", b: "", hashA: "" }

/** RUN check digit (módulo 11), written here independently of schemas/Ids.ts. */
const dv = (run: number): string => {
  const digits = String(run).split("").reverse()
  const sum = digits.reduce((s, d, i) => s + Number(d) * [2, 3, 4, 5, 6, 7][i % 6]!, 0)
  const r = 11 - (sum % 11)
  return r === 11 ? "0" : r === 10 ? "K" : String(r)
}
const assetId = (run: number, serie: string) => String(testCrc32(`fm:${run}:${serie}`))

/** Cartola fields (`;`, latin-1): RUN_FM 2, FECHA_INF 3, SERIE 8, VALOR_CUOTA 12. */
const F = { run: 2, date: 3, serie: 8, price: 12 } as const
const lines = (path: string) => readFileSync(path, "latin1").split("\n")

/** What was changed between the batches, as written into the files. */
const changed = {
  restated: { run: 0, serie: "", old: 0, price: 0 },
  bpr: { run: 0, serie: "", old: 0, price: 0 },
  bprExact: { run: 0, serie: "" },
  renamed: { run: 0, serie: "" },
  tac: { run: 0, serie: "" },
  shortName: { run: 0, old: "", now: "" },
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-changes-api-"))
  const full = join(work, "full")
  const source = join(work, "source")
  dataDir = join(work, "data")
  await writeSample({ out: full, scale: "small", seed: 5, endDate: "2026-11-20" })
  mkdirSync(source)
  const names = readdirSync(full)
  const november = names.find((n) => n.startsWith("ffmm_todos_20261101_"))!
  const october = names.find((n) => n.startsWith("ffmm_todos_20261001_"))!
  for (const n of names) {
    const wanted = n.startsWith("fm_ident2") || n.startsWith("ffmm_todos_2026") || n.startsWith("fm_tac_2026") || n === "series_renames.txt"
    if (wanted && n !== november) copyFileSync(join(full, n), join(source, n))
  }
  // November's file as the CMF gives it on the 19th: its rows through the 18th
  const nov = lines(join(full, november))
  writeFileSync(join(source, november), `${nov.filter((l, i) => i === 0 || (l !== "" && Number(l.split(";")[F.date]) <= 20261118)).join("\n")}\n`, "latin1")
  // the BPR report of the 19th, for two series: the first 0.5 above the cartola's value (rounded to 4 decimals, as the BPR shows it)
  const day19 = nov.slice(1).map((l) => l.split(";")).filter((f) => f[F.date] === "20261119")
  const series = (f: string[]) => ({ run: Number(f[F.run]), serie: f[F.serie]!.trim().toUpperCase(), price: Number(f[F.price]) })
  const [first, second] = [series(day19[0]!), series(day19[1]!)]
  changed.bpr = { run: first.run, serie: first.serie, old: Math.round(first.price * 1e4) / 1e4 + 0.5, price: first.price }
  changed.bprExact = { run: second.run, serie: second.serie }
  const record = (s: { run: number; serie: string }, price: number) => ({
    fundName: "FONDO",
    run: s.run,
    fundType: 5,
    agfName: null,
    serie: s.serie,
    currencyCode: "$$",
    patrimony: 1_000_000,
    holders: 10,
    price,
  })
  writeFileSync(join(source, "bpr_20261119.xls"), bprDayWorkbook("2026-11-19", [record(first, changed.bpr.old), record(second, Math.round(second.price * 1e4) / 1e4)]))
  batch.a = await publish(source, "2026-11-19")
  batch.hashA = readManifest(join(dataDir, "snapshots"), `${batch.a}.sqlite`).content_hash

  // 1. an October value restated (another series than the BPR's)
  const oct = lines(join(source, october))
  const at = oct.findIndex((l) => {
    const f = l.split(";")
    return f[F.date] === "20261015" && Number(f[F.run]) !== first.run && Number(f[F.run]) !== second.run
  })
  const fields = oct[at]!.split(";")
  const old = Number(fields[F.price])
  const price = Math.round(old * 1.01 * 1e4) / 1e4
  fields[F.price] = price.toFixed(4)
  oct[at] = fields.join(";")
  writeFileSync(join(source, october), oct.join("\n"), "latin1")
  changed.restated = { ...series(fields), old, price }
  // 2. a series renamed from the 20th: a fund other than the three above
  const others = new Set([first.run, second.run, changed.restated.run])
  const renamedLine = day19.find((f) => !others.has(Number(f[F.run])))!
  changed.renamed = { run: Number(renamedLine[F.run]), serie: renamedLine[F.serie]!.trim().toUpperCase() }
  const renames = join(source, "series_renames.txt")
  writeFileSync(renames, `${readFileSync(renames, "latin1").trimEnd()}\n${changed.renamed.run};${changed.renamed.serie};${changed.renamed.serie}NEW;2026-11-20\n`, "latin1")
  // 3. a September TAC corrected: TAC Total (field 13, percent) of a series of a fund with an ASCII name, to 1,30
  const registry = lines(join(source, "fm_ident2.txt"))
    .slice(1)
    .map((l) => l.split(";"))
  const tacPath = join(source, "fm_tac_202609.txt")
  const tac = lines(tacPath)
  const tacAt = tac.findIndex((l) => {
    const f = l.split(";")
    if (!/^2026\d{4}$/.test(f[0] ?? "") || !/^[\x20-\x7e]+$/.test(f[2] ?? "")) return false
    const run = Number(registry.find((r) => r[3] === f[2])?.[2])
    return run > 0 && !others.has(run) && run !== changed.renamed.run && f[13] !== "1,30"
  })
  expect(tacAt).toBeGreaterThan(0)
  const tacFields = tac[tacAt]!.split(";")
  changed.tac = { run: Number(registry.find((r) => r[3] === tacFields[2])![2]), serie: tacFields[5]!.trim().toUpperCase() }
  const tacOld = Number(tacFields[13]!.replace(",", ".")) / 100
  tacFields[13] = "1,30"
  tac[tacAt] = tacFields.join(";")
  writeFileSync(tacPath, tac.join("\n"), "latin1")
  Object.assign(changed.tac, { old: tacOld })
  // 4. a fund's short name changed in the registry
  const ident = lines(join(source, "fm_ident2.txt"))
  const identAt = ident.findIndex((l, i) => i > 0 && /^[\x20-\x7e]+$/.test(l) && (l.split(";")[4] ?? "") !== "")
  const identFields = ident[identAt]!.split(";")
  changed.shortName = { run: Number(identFields[2]), old: identFields[4]!, now: `${identFields[4]} II` }
  // every line of the fund (the registry repeats some)
  for (let i = 1; i < ident.length; i++) {
    const f = ident[i]!.split(";")
    if (Number(f[2]) !== changed.shortName.run) continue
    f[4] = changed.shortName.now
    ident[i] = f.join(";")
  }
  writeFileSync(join(source, "fm_ident2.txt"), ident.join("\n"), "latin1")
  // 5. November's whole file: the 19th's cartola values replace the BPR's
  copyFileSync(join(full, november), join(source, november))
  rmSync(join(source, "bpr_20261119.xls"))
  batch.b = await publish(source, "2026-11-20")

  server = await startServer({ dataDir })
  key = (await createKey(dataDir, { email: "changes@example.cl" })).key
}, 300_000)

afterAll(async () => {
  await server?.close()
  rmSync(work, { recursive: true, force: true })
})

/** Publishes the batch of `date` from `source`; its batch id. */
const publish = async (source: string, date: string): Promise<string> => {
  const outcome = await publishFolder(dataDir, source, date, { fetch: { timeoutMillis: 1000, retries: 0, retryBaseMillis: 1 }, retentionDays: 30, coverageMin: 0 })
  return outcome.file.replace(/\.sqlite$/, "")
}

interface Item {
  readonly id: string
  readonly type: string
  readonly attributes: Record<string, unknown>
}
interface Page {
  readonly data: Item[]
  readonly links: { readonly self: string; readonly next: string | null; readonly prev: string | null }
  readonly meta: Record<string, unknown>
}

const call = (query: string) => get(`${server.url}/api/changes?${query}`, { "x-api-key": key })

/** Every page from `query`, following links.next. */
const follow = async (query: string): Promise<Page[]> => {
  const pages: Page[] = []
  let next: string | null = `/api/changes?${query}`
  while (next !== null) {
    const res = await get(`${server.url}${next}`, { "x-api-key": key })
    expect(res.status, res.text).toBe(200)
    const page = res.body as Page
    pages.push(page)
    next = page.links.next
    expect(pages.length).toBeLessThan(500)
  }
  return pages
}

describe("GET /api/changes between two published batches", () => {
  let all: Item[] = []

  it("names to_batch as its batch (Batch-Id, meta.batch_id), not the batch served now", async () => {
    const served = readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim().replace(/\.sqlite$/, "")
    expect(served).toBe(batch.b)
    for (const [query, named] of [
      [`from_batch=${batch.a}`, batch.b],
      [`from_batch=${batch.a}&to_batch=${batch.b}`, batch.b],
      [`from_batch=${batch.a}&to_batch=${batch.a}`, batch.a],
    ] as const) {
      const res = await call(query)
      expect(res.status, res.text).toBe(200)
      expect([header(res, "batch-id"), (res.body as Page).meta.batch_id], query).toEqual([named, named])
    }
  })

  it("lists the restated values with old and new values and sources, the rename, the TAC and the registry change", async () => {
    const res = await call(`from_batch=${batch.a}&to_batch=${batch.b}`)
    expect(res.status, res.text).toBe(200)
    const page = res.body as Page
    all = page.data
    expect(page.links.next).toBeNull()
    expect(page.meta).toEqual({
      batch_id: batch.b,
      from_batch: batch.a,
      to_batch: batch.b,
      from_batch_date: "2026-11-19",
      to_batch_date: "2026-11-20",
      limit: 1000,
      count: all.length,
      next_cursor: null,
    })
    const of = (type: string) => all.filter((i) => i.type === type)
    const { restated, bpr, renamed, shortName } = changed
    // the October value: both from the cartola
    expect(of("value_restated")).toEqual([
      ...[
        {
          id: `value_restated:${assetId(restated.run, restated.serie)}:2026-10-15`,
          type: "value_restated",
          attributes: {
            vehicle: "mutual_fund",
            asset_id: assetId(restated.run, restated.serie),
            date: "2026-10-15",
            old: restated.old,
            new: restated.price,
            old_source: "cartola",
            new_source: "cartola",
          },
        },
        // the BPR's provisional value of the 19th, corrected by the cartola (the other BPR value was the cartola's, rounded: no change)
        {
          id: `value_restated:${assetId(bpr.run, bpr.serie)}:2026-11-19`,
          type: "value_restated",
          attributes: {
            vehicle: "mutual_fund",
            asset_id: assetId(bpr.run, bpr.serie),
            date: "2026-11-19",
            old: expect.closeTo(bpr.old, 9),
            new: bpr.price,
            old_source: "bpr",
            new_source: "cartola",
          },
        },
      ].sort((x, y) => Number(x.attributes.asset_id) - Number(y.attributes.asset_id)),
    ])
    expect(of("series_renamed")).toEqual([
      {
        id: `series_renamed:${assetId(renamed.run, `${renamed.serie}NEW`)}`,
        type: "series_renamed",
        attributes: {
          vehicle: "mutual_fund",
          asset_id: assetId(renamed.run, `${renamed.serie}NEW`),
          previous_asset_id: assetId(renamed.run, renamed.serie),
          run: `${renamed.run}-${dv(renamed.run)}`,
          previous_serie: renamed.serie,
          current_serie: `${renamed.serie}NEW`,
          first_current_date: "2026-11-20",
        },
      },
    ])
    const tac = changed.tac as { run: number; serie: string; old: number }
    expect(of("tac_changed")).toEqual([
      {
        id: `tac_changed:${assetId(tac.run, tac.serie)}:2026-09`,
        type: "tac_changed",
        attributes: { vehicle: "mutual_fund", asset_id: assetId(tac.run, tac.serie), month: "2026-09", old: expect.closeTo(tac.old, 12), new: expect.closeTo(0.013, 12) },
      },
    ])
    expect(of("registry_changed")).toEqual([
      {
        id: `registry_changed:fund:${testCrc32(`fm:${shortName.run}`)}:short_name`,
        type: "registry_changed",
        attributes: { entity: "fund", entity_id: String(testCrc32(`fm:${shortName.run}`)), change: "changed", field: "short_name", old: shortName.old, new: shortName.now },
      },
    ])
    // nothing else: no series appeared, ended or went between the 19th and the 20th of the sample
    expect(all.length).toBe(5)
  })

  it("the pipeline's manifests give the digests the comparison skips by (the rename moved every month's rows: none skipped)", () => {
    const dir = join(dataDir, "snapshots")
    const identical = identicalParts(readManifest(dir, `${batch.a}.sqlite`), readManifest(dir, `${batch.b}.sqlite`))
    expect(identical.tables.has("article107")).toBe(true)
    for (const table of ["quotas", "tac", "funds", "series"]) expect(identical.tables.has(table), table).toBe(false)
    expect(identical.quotaMonths.size).toBe(0)
  })

  it("fits the operation's schema in /openapi.json", async () => {
    const doc = (await get(`${server.url}/openapi.json`)).body
    const validator = contractValidator(doc)
    const res = await call(`from_batch=${batch.a}&to_batch=${batch.b}&limit=2`)
    expect(validator.problems("get", "/api/changes", res)).toEqual([])
    expect(validator.problems("get", "/api/changes", await call("from_batch=2026-11-19"))).toEqual([])
    expect(validator.problems("get", "/api/changes", await call(`from_batch=${batch.b}&to_batch=${batch.a}`))).toEqual([])
  })

  it("paged one item at a time through links.next, gives every item once, in the same order; to_batch defaults to the current batch", async () => {
    const pages = await follow(`from_batch=${batch.a}&limit=1`)
    expect(pages.map((p) => p.data.length)).toEqual(all.map(() => 1).concat(pages.length > all.length ? [0] : []))
    expect(pages.flatMap((p) => p.data)).toEqual(all)
    for (const p of pages) expect(p.meta).toMatchObject({ from_batch: batch.a, to_batch: batch.b, limit: 1 })
    // each next link names to_batch and the cursor; the last page has none
    expect(pages.slice(0, -1).every((p) => p.links.next?.includes(`to_batch=${batch.b}`) && p.meta.next_cursor !== null)).toBe(true)
    expect(pages.at(-1)!.links.next).toBeNull()
    // a cursor given without to_batch keeps its own batch
    const second = await call(`from_batch=${batch.a}&limit=1&cursor=${pages[0]!.meta.next_cursor}`)
    expect((second.body as Page).data).toEqual([all[1]])
  })

  it("links: self spells the request with to_batch, next its cursor, prev null (paged forward); the Link header says the same", async () => {
    const linkHeader = (value: string | undefined) => {
      const found: Record<string, string> = {}
      for (const m of (value ?? "").matchAll(/<([^>]*)>\s*;\s*rel="([^"]+)"/g)) found[m[2]!] = m[1]!
      return { self: found.self ?? null, next: found.next ?? null, prev: found.prev ?? null }
    }
    const params = (url: string) => Object.fromEntries(new URL(url, "http://x").searchParams)
    let target: string | null = `/api/changes?from_batch=${batch.a}&limit=1`
    let cursor: string | undefined
    let pages = 0
    while (target !== null) {
      const res = await get(`${server.url}${target}`, { "x-api-key": key })
      expect(res.status, res.text).toBe(200)
      const page = res.body as Page
      expect(linkHeader(header(res, "link"))).toEqual(page.links)
      expect(page.links.self.startsWith("/api/changes?")).toBe(true)
      expect(params(page.links.self)).toEqual({ from_batch: batch.a, limit: "1", to_batch: batch.b, ...(cursor === undefined ? {} : { cursor }) })
      expect(page.links.prev).toBeNull()
      if (page.links.next !== null) {
        expect(params(page.links.next)).toEqual({ from_batch: batch.a, limit: "1", to_batch: batch.b, cursor: page.meta.next_cursor })
      }
      cursor = page.meta.next_cursor as string | undefined
      target = page.links.next
      pages++
      expect(pages).toBeLessThanOrEqual(all.length + 1)
    }
    expect(pages).toBeGreaterThanOrEqual(all.length)
  })

  it("a batch compared with itself has no changes", async () => {
    const res = await call(`from_batch=${batch.b}&to_batch=${batch.b}`)
    expect(res.status).toBe(200)
    expect((res.body as Page).data).toEqual([])
    expect((res.body as Page).links.next).toBeNull()
  })

  it("422 names the parameter: a malformed id, a date that is none, from_batch newer than to_batch, a bad cursor or limit", async () => {
    const cases: Array<[string, string]> = [
      ["from_batch=2026-11-19", "from_batch"],
      ["from_batch=2026-02-30-0123456789abcdef", "from_batch"],
      [`from_batch=${batch.a}&to_batch=${batch.b.toUpperCase()}`, "to_batch"],
      [`from_batch=${batch.b}&to_batch=${batch.a}`, "from_batch"],
      // the current batch is B: A is older, B is not newer than itself, a later one is
      [`from_batch=2026-11-21-0123456789abcdef`, "from_batch"],
      [`from_batch=${batch.a}&cursor=not-a-cursor`, "cursor"],
      [`from_batch=${batch.a}&limit=0`, "limit"],
      [`from_batch=${batch.a}&limit=5001`, "limit"],
      ["", "from_batch"],
    ]
    for (const [query, parameter] of cases) {
      const res = await call(query)
      expect(res.status, query).toBe(422)
      expectErrorShape(res.body, 422)
      expect((res.body as { parameter: string }).parameter, query).toBe(parameter)
    }
    // a cursor of one comparison is refused by another
    const page = (await call(`from_batch=${batch.a}&limit=1`)).body as Page
    const foreign = await call(`from_batch=${batch.b}&cursor=${page.meta.next_cursor}`)
    expect([foreign.status, (foreign.body as { parameter: string }).parameter]).toEqual([422, "cursor"])
  })

  it("404 for a batch never published, naming the parameter; 401 without a key", async () => {
    const unknown = "2026-11-18-0123456789abcdef"
    for (const [query, parameter] of [
      [`from_batch=${unknown}`, "from_batch"],
      [`from_batch=${batch.a}&to_batch=2026-11-19-fedcba9876543210`, "to_batch"],
    ] as const) {
      const res = await call(query)
      expect(res.status, query).toBe(404)
      expectErrorShape(res.body, 404)
      expect((res.body as { parameter: string }).parameter).toBe(parameter)
    }
    expect((await get(`${server.url}/api/changes?from_batch=${batch.a}`)).status).toBe(401)
  })

  it("410 batch_not_retained once retention removed the older batch's file, with its content hash and how to rebuild it", async () => {
    const file = join(dataDir, "snapshots", `${batch.a}.sqlite`)
    renameSync(file, `${file}.away`)
    try {
      const res = await call(`from_batch=${batch.a}`)
      expect(res.status).toBe(410)
      expectErrorShape(res.body, 410)
      const body = res.body as { error: string; parameter: string; message: string }
      expect(body.error).toBe("batch_not_retained")
      expect(body.parameter).toBe("from_batch")
      expect(body.message).toContain(batch.hashA)
      expect(body.message).toContain(`./fds pipeline reproduce --date 2026-11-19 --file ${batch.a}.sqlite`)
    } finally {
      renameSync(`${file}.away`, file)
    }
  })
})
