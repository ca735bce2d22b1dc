/**
 * The real cartola fragment (/work/shared/realdata, RUN 8011, 11 series) ends partway through
 * 2025-07-08: six series have a value that day, five stop at 2025-07-07. Built by the real
 * pipeline with the real registry, then read over HTTP: all eleven series are active (one business
 * day late is not an end), each late one answers its 2025-07-07 value dated 2025-07-07, exactly as
 * the file says.
 */
import { Effect } from "effect"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runPipelineLive as runPipeline } from "../../pipeline/Pipeline.ts"
import { type CreatedKey, createKey, get, type RunningServer, startServer } from "../support/server.ts"
import { testCrc32 } from "../support/snapshotFixture.ts"

const REAL = "/work/shared/realdata"
const REGISTRY = "fm_ident_20250721210547.txt"
const CARTOLA = "ffmm_todos_20250701_20250731.txt"

interface FileRow {
  readonly date: string
  readonly serie: string
  readonly price: number
  readonly patrimony: number
  readonly holders: number
}

/** The cartola's rows of RUN 8011, read here with a plain split (columns by the file's header). */
const fileRows = (): FileRow[] => {
  const [header, ...lines] = readFileSync(join(REAL, CARTOLA), "latin1").trimEnd().split("\n")
  const col = (name: string) => header!.split(";").indexOf(name)
  const [run, date, serie, price, patrimony, holders] = ["RUN_FM", "FECHA_INF", "SERIE", "VALOR_CUOTA", "PATRIMONIO_NETO", "NUM_PARTICIPES"].map(col)
  return lines
    .map((l) => l.split(";"))
    .filter((c) => c[run!] === "8011")
    .map((c) => ({
      date: `${c[date!]!.slice(0, 4)}-${c[date!]!.slice(4, 6)}-${c[date!]!.slice(6, 8)}`,
      serie: c[serie!]!,
      price: Number(c[price!]),
      patrimony: Number(c[patrimony!]),
      holders: Number(c[holders!]),
    }))
}

/** Each series' last row in the file. */
const lastRows = (): Map<string, FileRow> => {
  const out = new Map<string, FileRow>()
  for (const r of fileRows()) if ((out.get(r.serie)?.date ?? "") <= r.date) out.set(r.serie, r)
  return out
}

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back and assert on it
type Json = any

let work: string
let server: RunningServer
let key: CreatedKey
const call = async (path: string): Promise<{ status: number; body: Json }> => get(server.url + path, { "x-api-key": key.key })

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-real-cartola-"))
  const source = join(work, "in")
  mkdirSync(source)
  for (const f of [REGISTRY, CARTOLA]) copyFileSync(join(REAL, f), join(source, f))
  const dataDir = join(work, "data")
  const outcome = await Effect.runPromise(
    runPipeline({
      dataDir,
      sources: [{ kind: "folder", path: source }],
      today: "2025-07-22",
      historyStart: "2025-07-01",
      fetch: { timeoutMillis: 1000, retries: 0, retryBaseMillis: 1 },
    }),
  )
  if (outcome.outcome !== "published") throw new Error(`not published: ${JSON.stringify(outcome).slice(0, 300)}`)
  key = await createKey(dataDir, { email: "real@example.cl", tier: "internal" })
  server = await startServer({ dataDir })
}, 60_000)
afterAll(async () => {
  await server?.close()
  if (work !== undefined) rmSync(work, { recursive: true, force: true })
})

describe("the real cartola, ending partway through 2025-07-08", () => {
  it("the file is as described: 6 series end on 2025-07-08, 5 on 2025-07-07", () => {
    const byDate = Map.groupBy(lastRows().values(), (r) => r.date)
    expect(byDate.get("2025-07-08")?.map((r) => r.serie).sort()).toEqual(["B", "G", "GLB", "H", "I", "I2"])
    expect(byDate.get("2025-07-07")?.map((r) => r.serie).sort()).toEqual(["INV", "K", "O", "P", "PAT"])
  })

  it("real_assets: all eleven series active (end_date null), each with its own last value and date", async () => {
    const res = await call(`/api/conceptual_assets/${testCrc32("fm:8011")}/real_assets`)
    expect(res.status).toBe(200)
    const expected = lastRows()
    expect(res.body.data).toHaveLength(11)
    for (const s of res.body.data) {
      const last = expected.get(s.attributes.serie)!
      expect(s.attributes.end_date, s.attributes.serie).toBeNull()
      expect(s.attributes.last_day, s.attributes.serie).toEqual({
        net_asset_value: last.price,
        total_net_assets: last.patrimony,
        shareholders: last.holders,
        date: last.date,
        quota_source: "cartola",
      })
    }
  })

  it("the fund is among its administrator's current funds", async () => {
    const res = await call(`/api/asset_providers/${testCrc32("agf:91999000")}/conceptual_assets`)
    expect(res.status).toBe(200)
    expect(res.body.data.map((f: Json) => f.id)).toContain(String(testCrc32("fm:8011")))
  })

  it("all-funds lists the eleven series, the late ones at their 2025-07-07 value with price_as_of_date", async () => {
    const res = await call("/api/all-funds")
    expect(res.status).toBe(200)
    // RUN check digit: 1·2 + 1·3 + 0·4 + 8·5 = 45; 11 − 45 mod 11 = 10 → K
    const rows = res.body.data.filter((r: Json) => r.run === "8011-K")
    expect(rows).toHaveLength(11)
    for (const [serie, last] of lastRows()) {
      const row = rows.find((r: Json) => r.serie === serie)
      expect(row, serie).toMatchObject({ serieId: String(testCrc32(`fm:8011:${serie}`)), price: last.price, price_as_of_date: last.date })
    }
  })
})
