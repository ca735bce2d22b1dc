/**
 * Real CMF publications (fixtures/realdata: the whole FM registry, part of a cartola month, part of
 * a national portfolio; provenance in its README) through the whole product: the pipeline builds
 * and publishes a batch from them as a dropped folder, the real API server serves it over HTTP,
 * and every value served is checked against the file. The expected values come from the short
 * parse below (lines, `;` cells named by the header, numbers and dates by hand rules) and the ids
 * from CRC32 of the key strings the README documents: nothing from the pipeline's parsers or
 * output, nor from schemas/Ids.ts.
 */
import Database from "better-sqlite3"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { crc32 } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runPipelineLive as runPipeline } from "../../pipeline/Pipeline.ts"
import type { RunOutcome } from "../../pipeline/run/Outcome.ts"
import { readCurrent } from "../../snapshots/Pointer.ts"
import { createKey, get, type JsonResponse, type RunningServer, startServer } from "../support/server.ts"

const FIXTURES = join(import.meta.dirname, "fixtures", "realdata")
const REGISTRY = "fm_ident_20250721210547.txt"
const CARTOLA = "ffmm_todos_20250701_20250731.txt"
const PORTFOLIO = "ffm_NACI_202505.txt"
/** The bytes as found (fixtures/realdata/README.md): an editor that rewrote them would change what is tested. */
const SHA256: Record<string, string> = {
  [REGISTRY]: "43012f35d608e2161117e314110e9d47ec612361b0a8daf4233fff2f4698ea9b",
  [CARTOLA]: "976524d2f65a47e00c698e446436110196f7669bd622f537cdbaf52942ef549d",
  [PORTFOLIO]: "a1d01e44d1e5265922df16b2ddb08c87c3aae8819566be9566fb035208cfd4d8",
}
const BATCH_DATE = "2025-07-08"

// ---- the files, read here by hand ----

type Row = ReadonlyMap<string, string>

/** Lines of `;` cells, each row's cells named by the header line's. The files are UTF-8 and LF. */
const readTable = (name: string): { readonly header: ReadonlyArray<string>; readonly rows: ReadonlyArray<Row> } => {
  const text = new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(join(FIXTURES, name)))
  const [head, ...lines] = text.split("\n").filter((l) => l !== "")
  const header = head!.split(";")
  const rows = lines.map((line) => {
    const cells = line.split(";")
    if (cells.length !== header.length) throw new Error(`${name}: ${cells.length} cells in ${JSON.stringify(line)}`)
    return new Map(header.map((h, i) => [h, cells[i]!]))
  })
  return { header, rows }
}
const cell = (row: Row, column: string): string => {
  const v = row.get(column)
  if (v === undefined) throw new Error(`no column ${column}`)
  return v
}
/** A decimal as CMF writes it: digits, then "." and digits, either part possibly empty (".015"). */
const decimal = (text: string): number => {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text)
  if (m === null || (m[1] === "" && (m[2] ?? "") === "")) throw new Error(`not a decimal: ${JSON.stringify(text)}`)
  return Number(`${m[1] === "" ? "0" : m[1]}.${m[2] === undefined || m[2] === "" ? "0" : m[2]}`)
}
const whole = (text: string): number => {
  if (!/^\d+$/.test(text)) throw new Error(`not a whole number: ${JSON.stringify(text)}`)
  return Number(text)
}
/** DD/MM/YYYY → YYYY-MM-DD; blank → null. */
const dmy = (text: string): string | null => {
  if (text === "") return null
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text)
  if (m === null) throw new Error(`not DD/MM/YYYY: ${text}`)
  return `${m[3]}-${m[2]}-${m[1]}`
}
/** YYYYMMDD → YYYY-MM-DD. */
const ymd = (text: string): string => `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`
/** RUN with its módulo-11 check digit: digits from the right times 2, 3, …, 7, 2, …; 11 − sum mod 11, 11 → 0, 10 → K. */
const withCheckDigit = (run: number): string => {
  let sum = 0
  String(run)
    .split("")
    .reverse()
    .forEach((d, i) => {
      sum += Number(d) * (2 + (i % 6))
    })
  const dv = 11 - (sum % 11)
  return `${run}-${dv === 11 ? "0" : dv === 10 ? "K" : String(dv)}`
}
// Ids as the README's identifier section defines them.
const providerId = (rut: number) => String(crc32(`agf:${rut}`))
const conceptId = (run: number) => String(crc32(`fm:${run}`))
const assetId = (run: number, serie: string) => String(crc32(`fm:${run}:${serie.toUpperCase()}`))
/** README: `category` is the CMF fund type as a word; `currency` maps `$$`, `PROM`, `EUR`. */
const CATEGORY = ["money_market_90d", "debt_365d", "debt_medium_long", "balanced", "equity", "free_investment", "structured", "qualified_investors"]
const CURRENCY: Record<string, string> = { $$: "CLP", PROM: "USD", EUR: "EUR" }

interface Fund {
  readonly agfRut: number
  /** Cells with their stray leading and trailing spaces removed, inner spaces kept. */
  readonly agfName: string
  readonly run: number
  readonly name: string
  readonly shortName: string
  readonly type: number | null
  readonly start: string | null
  readonly end: string | null
  readonly currency: string
}

const registry = (() => {
  const { rows } = readTable(REGISTRY)
  const funds = new Map<number, Fund>()
  const raw = new Map<number, string>()
  for (const r of rows) {
    const run = whole(cell(r, "RUN Fondo"))
    const type = cell(r, "Tipo de Fondo Mutuo")
    const fund: Fund = {
      agfRut: whole(cell(r, "RUT Administradora")),
      agfName: cell(r, "Raz. Social Administradora").trim(),
      run,
      name: cell(r, "Nombre Fondo").trim(),
      shortName: cell(r, "Nombre Corto").trim(),
      type: type === "" ? null : whole(type),
      start: dmy(cell(r, "Fecha Inicio Operaciones")),
      end: dmy(cell(r, "Fecha Término Operaciones")),
      currency: cell(r, "Moneda"),
    }
    const line = [...r.values()].join(";")
    // CMF repeats a fund's row 2–3 times, never with other values.
    if (raw.has(run) && raw.get(run) !== line) throw new Error(`RUN ${run} repeated with other values`)
    raw.set(run, line)
    funds.set(run, fund)
  }
  return { rows: rows.length, funds: [...funds.values()] }
})()
const administrators = new Map(registry.funds.map((f) => [f.agfRut, f.agfName]))
const fundOf = (run: number): Fund => registry.funds.find((f) => f.run === run)!
/** Current at the batch date: no end date, or one after it. */
const isCurrent = (f: Fund) => f.end === null || f.end > BATCH_DATE

interface Quota {
  readonly run: number
  readonly serie: string
  readonly date: string
  readonly price: number
  readonly patrimony: number
  readonly holders: number
  readonly currency: string
}
const quotas: ReadonlyArray<Quota> = readTable(CARTOLA).rows.map((r) => ({
  run: whole(cell(r, "RUN_FM")),
  serie: cell(r, "SERIE"),
  date: ymd(cell(r, "FECHA_INF")),
  price: decimal(cell(r, "VALOR_CUOTA")),
  patrimony: decimal(cell(r, "PATRIMONIO_NETO")),
  holders: whole(cell(r, "NUM_PARTICIPES")),
  currency: cell(r, "MONEDA"),
}))
const seriesLabels = [...new Set(quotas.map((q) => q.serie))].sort()
/** A series' rows, ascending by date. */
const rowsOf = (serie: string) => quotas.filter((q) => q.serie === serie).sort((a, b) => (a.date < b.date ? -1 : 1))
const quotaDates = [...new Set(quotas.map((q) => q.date))].sort()

interface Holding {
  readonly run: number
  readonly code: string
  readonly issuerRut: number | null
  readonly country: string | null
  readonly type: string
  readonly maturity: string | null
  readonly valuationThousands: number
  readonly pctFundAssets: number
}
const portfolioRows = readTable(PORTFOLIO).rows
const holdingsFile: ReadonlyArray<Holding> = portfolioRows.map((r) => {
  const rut = cell(r, "FFM_6010211")
  const maturity = cell(r, "FFM_6010500")
  return {
    run: whole(cell(r, "Run Fondo")),
    code: cell(r, "FFM_6010100"), // nemotécnico
    issuerRut: rut === "" ? null : whole(rut),
    country: cell(r, "FFM_6010300") === "" ? null : cell(r, "FFM_6010300"),
    type: cell(r, "FFM_6010400"),
    // 99999999, or a year 9999, is "no date"
    maturity: maturity === "99999999" || maturity.endsWith("/9999") ? null : dmy(maturity),
    valuationThousands: decimal(cell(r, "FFM_6011200")), // valorización al cierre, thousands
    pctFundAssets: decimal(cell(r, "FFM_6011513")), // % del activo del fondo
  }
})

// ---- the product ----

let work: string
let dataDir: string
let outcome: RunOutcome
let server: RunningServer
let apiKey: string

const call = async (path: string): Promise<JsonResponse> => {
  const res = await get(server.url + path, { "x-api-key": apiKey })
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`)
  return res
}
/** `f` over `items`, a few requests at a time, results in order. */
const eachOf = async <A, B>(items: ReadonlyArray<A>, f: (a: A) => Promise<B>, width = 16): Promise<B[]> => {
  const out: B[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await f(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: width }, worker))
  return out
}

interface Resource<A> {
  readonly id: string
  readonly type: string
  readonly attributes: A
}
const byId = <A>(list: ReadonlyArray<Resource<A>>) => [...list].sort((a, b) => Number(a.id) - Number(b.id))

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-realdata-"))
  const source = join(work, "source")
  dataDir = join(work, "data")
  mkdirSync(source)
  for (const name of [REGISTRY, CARTOLA, PORTFOLIO]) {
    expect(createHash("sha256").update(readFileSync(join(FIXTURES, name))).digest("hex"), name).toBe(SHA256[name])
    copyFileSync(join(FIXTURES, name), join(source, name))
  }
  outcome = await Effect.runPromise(
    runPipeline({
      dataDir,
      sources: [{ kind: "folder", path: source }],
      today: "2025-07-22", // the day after the registry was downloaded
      historyStart: "2025-01-01",
      fetch: { timeoutMillis: 2000, retries: 0, retryBaseMillis: 10 },
    }),
  )
  apiKey = (await createKey(dataDir, { email: "realdata@example.cl", tier: "internal" })).key
  server = await startServer({ dataDir })
})
afterAll(async () => {
  await server?.close()
  rmSync(work, { recursive: true, force: true })
})

describe("the real files as read here", () => {
  it("hold what their provenance says (so that the checks below read them right)", () => {
    expect(registry.rows).toBe(3373)
    expect(registry.funds).toHaveLength(1331)
    expect(administrators.size).toBe(36)
    expect(quotas).toHaveLength(83)
    expect(new Set(quotas.map((q) => q.run))).toEqual(new Set([8011]))
    expect(seriesLabels).toHaveLength(11)
    expect(new Set(quotas.map((q) => `${q.serie}|${q.date}`)).size).toBe(83)
    expect(quotas.filter((q) => q.date === BATCH_DATE).map((q) => q.serie).sort()).toEqual(["B", "G", "GLB", "H", "I", "I2"])
    expect(holdingsFile).toHaveLength(35)
  })
})

describe("a batch built from the real files", () => {
  it("is published, dated by the cartola's latest day", async () => {
    expect(outcome.outcome).toBe("published")
    if (outcome.outcome !== "published") return
    expect(outcome.batchDate).toBe(BATCH_DATE)
    expect(readCurrent(join(dataDir, "snapshots"))).toBe(outcome.file)
    const health = await get(`${server.url}/health`)
    expect((health.body as { last_scraped_date: string }).last_scraped_date).toBe(BATCH_DATE)
  })
})

describe("the registry, served", () => {
  it("/api/asset_providers: every administrator, id crc32('agf:' + RUT), the name without its stray end spaces (inner double spaces kept)", async () => {
    const body = (await call("/api/asset_providers")).body as { data: ReadonlyArray<Resource<{ name: string }>> }
    const expected = [...administrators].map(([rut, name]) => ({ id: providerId(rut), type: "asset_provider", attributes: { name } }))
    expect(byId(body.data)).toEqual(byId(expected))
    expect(body.data.map((p) => p.attributes.name)).toContain("ADMINISTRADORA GENERAL DE FONDOS  SECURITY S.A.")
  })

  it("/api/asset_providers/{id}/conceptual_assets: each administrator's current funds (no end date, or one after the batch date) with name, RUN, type, currency", async () => {
    const served = await eachOf([...administrators.keys()], async (rut) => ({
      rut,
      data: byId(((await call(`/api/asset_providers/${providerId(rut)}/conceptual_assets`)).body as { data: ReadonlyArray<Resource<unknown>> }).data),
    }))
    const expected = [...administrators.keys()].map((rut) => ({
      rut,
      data: byId(
        registry.funds
          .filter((f) => f.agfRut === rut && isCurrent(f))
          .map((f) => ({
            id: conceptId(f.run),
            type: "conceptual_asset",
            attributes: {
              name: f.name,
              symbol: withCheckDigit(f.run),
              run: withCheckDigit(f.run),
              category: f.type === null ? null : CATEGORY[f.type - 1],
              currency: CURRENCY[f.currency],
              cmf_fund_type: f.type,
            },
          })),
      ),
    }))
    expect(served).toEqual(expected)
    // funds ending after the batch date (RUN 8490 on 2025-07-10, 8577 on 2025-07-11) are still current
    const listed = new Set(served.flatMap((s) => s.data.map((f) => f.id)))
    for (const run of [8490, 8577]) expect(listed.has(conceptId(run)), `RUN ${run}`).toBe(true)
    expect(listed.size).toBe(registry.funds.filter(isCurrent).length)
  })

  it("every fund, current or ended, by its RUN (/api/funds/{run}/article107) and by its id (/api/conceptual_assets/{id}/real_assets)", async () => {
    const served = await eachOf(registry.funds, async (f) => {
      const detail = (await call(`/api/funds/${f.run}/article107`)).body as Record<string, unknown>
      const series = (await call(`/api/conceptual_assets/${conceptId(f.run)}/real_assets`)).body as { data: ReadonlyArray<Resource<{ run: string }>> }
      return {
        run: detail.run,
        fundId: detail.fundId,
        fundName: detail.fundName,
        status: detail.article107RegulationStatus,
        series: series.data.map((s) => s.id).sort(),
      }
    })
    const expected = registry.funds.map((f) => ({
      run: withCheckDigit(f.run),
      fundId: conceptId(f.run),
      fundName: f.name,
      status: "unknown",
      series: f.run === 8011 ? seriesLabels.map((s) => assetId(8011, s)).sort() : [],
    }))
    expect(served).toEqual(expected)
  })

  it("RUN 9049's name is served as the registry writes it: the CMF lost the letter of DEPÓSITO (its second byte became '¿'), no re-decoding brings it back", async () => {
    const detail = (await call(`/api/funds/${withCheckDigit(9049)}/article107`)).body as { fundName: string }
    expect(fundOf(9049).name).toBe("FONDO MUTUO DEPÃ¿SITO PLUS GARANTIZADO")
    expect(detail.fundName).toBe(fundOf(9049).name)
  })

  it("what no route serves (short name, start and end dates, administrator, type, currency of ended funds) is stored in the published snapshot as the file says", () => {
    if (outcome.outcome !== "published") throw new Error("not published")
    const db = new Database(join(dataDir, "snapshots", outcome.file), { readonly: true })
    try {
      const stored = db
        .prepare("SELECT run, provider_id, name, short_name, fund_type, currency, start_date, end_date FROM funds ORDER BY run")
        .all()
      const expected = [...registry.funds]
        .sort((a, b) => a.run - b.run)
        .map((f) => ({
          run: f.run,
          provider_id: Number(providerId(f.agfRut)),
          name: f.name,
          short_name: f.shortName === "" ? null : f.shortName,
          fund_type: f.type,
          currency: f.currency,
          start_date: f.start,
          end_date: f.end,
        }))
      expect(stored).toEqual(expected)
    } finally {
      db.close()
    }
  })
})

/** Every answer's meta names the batch served: the real data's batch, its date and 16 hex digits of its content hash. */
const servedBatch = expect.stringMatching(new RegExp(`^${BATCH_DATE}-[0-9a-f]{16}$`))

describe("the cartola, served", () => {
  it("/api/real_assets/{id}/days: every row of each series of RUN 8011, date and price, ascending", async () => {
    const served = await eachOf(seriesLabels, async (serie) => (await call(`/api/real_assets/${assetId(8011, serie)}/days`)).body)
    const expected = seriesLabels.map((serie) => {
      const id = assetId(8011, serie)
      const rows = rowsOf(serie)
      return {
        data: rows.map((q) => ({ id: `${id}_${q.date}`, type: "real_asset_day", attributes: { date: q.date, price: q.price } })),
        meta: { batch_id: servedBatch, asset_id: id, batch_date: BATCH_DATE, count: rows.length },
      }
    })
    expect(served).toEqual(expected)
  })

  it("/api/conceptual_assets/{id}/real_assets: each series' first day and last row; the five without a value on 2025-07-08 end on 2025-07-07 and are still active", async () => {
    const body = (await call(`/api/conceptual_assets/${conceptId(8011)}/real_assets`)).body as { data: ReadonlyArray<Resource<unknown>> }
    const expected = seriesLabels.map((serie) => {
      const rows = rowsOf(serie)
      const last = rows.at(-1)!
      return {
        id: assetId(8011, serie),
        type: "real_asset",
        attributes: expect.objectContaining({
          serie,
          run: "8011-K",
          currency: CURRENCY[last.currency],
          start_date: rows[0]!.date,
          end_date: null,
          last_day: { net_asset_value: last.price, total_net_assets: last.patrimony, shareholders: last.holders, date: last.date, quota_source: "cartola" },
        }),
      }
    })
    expect(byId(body.data)).toEqual(byId(expected))
    const late = seriesLabels.filter((s) => rowsOf(s).at(-1)!.date === "2025-07-07")
    expect(late).toEqual(["INV", "K", "O", "P", "PAT"])
  })

  it("/api/all-funds on each day of the file: every row's price, patrimony and holders (a series without that day: its previous row)", async () => {
    const fund = fundOf(8011)
    const served = await eachOf(quotaDates, async (date) => {
      const body = (await call(`/api/all-funds?date=${date}`)).body as { data: ReadonlyArray<Record<string, unknown>>; meta: { date: string } }
      return { date: body.meta.date, rows: [...body.data].sort((a, b) => Number(a.serieId) - Number(b.serieId)) }
    })
    const expected = quotaDates.map((date) => ({
      date,
      rows: seriesLabels
        .map((serie) => {
          const q = rowsOf(serie).filter((r) => r.date <= date).at(-1)!
          return {
            agf: fund.agfName,
            fundName: fund.name,
            fundId: conceptId(8011),
            run: "8011-K",
            category: CATEGORY[fund.type! - 1],
            serie,
            serieId: assetId(8011, serie),
            currency: CURRENCY[q.currency],
            price: q.price,
            price_as_of_date: q.date,
            patrimony: q.patrimony,
            shareholders: q.holders,
          }
        })
        .sort((a, b) => Number(a.serieId) - Number(b.serieId))
        .map((row) => expect.objectContaining(row)),
    }))
    expect(served).toEqual(expected)
  })
})

describe("the portfolio, served", () => {
  it("/api/funds/{run}/cartera/holdings: every line of each fund a holding with the file's values (a line repeated identically: two holdings), largest weight first", async () => {
    for (const run of [8011, 8023, 8346]) {
      const lines = holdingsFile.filter((h) => h.run === run)
      const body = (await call(`/api/funds/${run}/cartera/holdings`)).body as {
        data: ReadonlyArray<Resource<Record<string, unknown> & { pct_activo_fondo: number; weight: number }>>
        meta: Record<string, unknown>
      }
      expect(body.meta, `RUN ${run}`).toEqual({
        batch_id: servedBatch,
        run: withCheckDigit(run),
        fundId: conceptId(run),
        fundName: fundOf(run).name,
        month: "2025-05", // from the file's name
        market: "all",
        availability: { N: "available", E: "unavailable" },
        valuation_unit: "thousands_of_fund_currency_cmf_reported",
        percentage_unit: "percent_of_fund_assets",
        count: lines.length,
      })
      // each holding's id ends in its line's place among the fund's lines: every line exactly once
      const positions = body.data.map((h) => Number(h.id.split("_").at(-1)))
      expect(positions.slice().sort((a, b) => a - b), `RUN ${run}`).toEqual(lines.map((_, i) => i + 1))
      for (const h of body.data) {
        const line = lines[Number(h.id.split("_").at(-1)) - 1]!
        expect(h.id).toBe(`${run}_2025-05_N_${lines.indexOf(line) + 1}`)
        const { weight, ...attributes } = h.attributes
        expect(attributes, h.id).toEqual({
          market: "nacional",
          market_code: "N",
          nemotecnico: line.code,
          emisor: null,
          emisor_rut: line.issuerRut,
          pais: line.country,
          tipo_instrumento: line.type,
          fecha_vencimiento: line.maturity,
          valorizacion: line.valuationThousands,
          pct_activo_fondo: line.pctFundAssets,
        })
        expect(weight).toBeCloseTo(line.pctFundAssets / 100, 12)
      }
      const pcts = body.data.map((h) => h.attributes.pct_activo_fondo)
      expect(pcts, `RUN ${run}: largest weight first`).toEqual(pcts.slice().sort((a, b) => b - a))
    }
    // the two lines the file repeats identically are two holdings of RUN 8011
    type Lot = Resource<{ nemotecnico: string; valorizacion: number }>
    const body = (await call("/api/funds/8011/cartera/holdings?month=2025-05")).body as { data: ReadonlyArray<Lot> }
    const lots = (code: string, valuation: number) =>
      body.data.filter((h) => h.attributes.nemotecnico === code && h.attributes.valorizacion === valuation)
    expect(lots("FNBCI-240625", 438588)).toHaveLength(2)
    expect(lots("FNBIC-070825", 297212)).toHaveLength(2)
  })

  it("/api/funds/{run}/cartera/resumen: the file's lines grouped by instrument type", async () => {
    for (const run of [8011, 8023, 8346]) {
      const groups = new Map<string, { n: number; valuation: number; pct: number }>()
      for (const h of holdingsFile.filter((x) => x.run === run)) {
        const g = groups.get(h.type) ?? { n: 0, valuation: 0, pct: 0 }
        groups.set(h.type, { n: g.n + 1, valuation: g.valuation + h.valuationThousands, pct: g.pct + h.pctFundAssets })
      }
      const body = (await call(`/api/funds/${run}/cartera/resumen?month=2025-05`)).body as {
        data: ReadonlyArray<
          Resource<{
            tipo_instrumento: string
            num_holdings: number
            valorizacion_nacional: number
            valorizacion_extranjera: number
            pct_activo_fondo: number
          }>
        >
      }
      expect(body.data.map((g) => g.attributes.tipo_instrumento).sort(), `RUN ${run}`).toEqual([...groups.keys()].sort())
      for (const g of body.data) {
        const want = groups.get(g.attributes.tipo_instrumento)!
        expect(g.attributes.num_holdings).toBe(want.n)
        expect(g.attributes.valorizacion_nacional).toBeCloseTo(want.valuation, 6)
        expect(g.attributes.valorizacion_extranjera).toBe(0)
        expect(g.attributes.pct_activo_fondo).toBeCloseTo(want.pct, 9)
      }
    }
  })
})
