/**
 * The calls of the contract sweep (contractSweep.test.ts) on one batch: every data operation with
 * valid and invalid values, the ids read from the batch's own listings. Shared with the answer
 * cache's byte-identity sweep (answerCacheSweep.test.ts).
 */
import { request } from "undici"
import { INSTRUMENTS, SERIES } from "../fi/fiData.ts"

// biome-ignore lint/suspicious/noExplicitAny: the answers and the document are plain JSON
export type Json = any

export type Method = "get" | "post" | "delete" | "patch"

/** One request of the sweep: an operation of the document and the values it is called with. */
export interface Call {
  readonly method: Method
  /** The document's path template, e.g. /api/real_assets/{asset_id}/days. */
  readonly path: string
  readonly params?: Readonly<Record<string, string>>
  readonly query?: ReadonlyArray<readonly [string, string]>
  readonly headers?: Readonly<Record<string, string>>
  readonly json?: unknown
  /** A body sent as it is (not JSON-encoded), with its content type in `headers`. */
  readonly raw?: string
}

export interface Reply {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly text: string
}

export const operationOf = (c: Pick<Call, "method" | "path">): string => `${c.method.toUpperCase()} ${c.path}`

export const urlOf = (base: string, c: Call): string => {
  const path = c.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = c.params?.[name]
    if (value === undefined) throw new Error(`${operationOf(c)}: no value for {${name}}`)
    return encodeURIComponent(value)
  })
  const query = new URLSearchParams(c.query?.map(([k, v]): [string, string] => [k, v]) ?? []).toString()
  return `${base}${path}${query === "" ? "" : `?${query}`}`
}

export const send = async (url: string, c: Call): Promise<Reply> => {
  const headers: Record<string, string> = { ...c.headers }
  let body: string | undefined = c.raw
  if (c.json !== undefined) {
    headers["content-type"] = "application/json"
    body = JSON.stringify(c.json)
  }
  const res = await request(url, { method: c.method.toUpperCase() as "GET", headers, ...(body === undefined ? {} : { body }) })
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() }
}

export const headerOf = (r: Reply, name: string): string | undefined => {
  const v = r.headers[name.toLowerCase()]
  return Array.isArray(v) ? v.join(", ") : v
}

// ---------------------------------------------------------------------------------------------
// The values the sweep calls with.

/** Ids and words of one batch, read from its own listings (FI/ETF ones from the fixture when the batch has none). */
export interface Batch {
  readonly date: string
  /** The served batch's id (meta.batch_id, the snapshot file's name without .sqlite). */
  readonly batchId: string
  readonly fmProvider: string
  readonly fiProvider: string
  readonly concept: string
  readonly run: string
  readonly fmSerie: string
  /** A previous id of a renamed series (the current one when the batch has no rename). */
  readonly renamedSerie: string
  readonly category: string
  readonly family: string
  readonly administrators: readonly [string, string]
  readonly fiInstrument: string
  readonly etfInstrument: string
  readonly instrumentWithoutSeries: string
  readonly inactiveInstrument: string
  readonly fiSerie: string
  readonly etfSerie: string
  readonly fiRun: string
  /** Every FI/ETF series and one mutual fund series per currency: the sample's edge cases (COP, USD, no price, TAC states). */
  readonly moreSeries: ReadonlyArray<string>
  /** Every FI/ETF instrument of the batch, whatever its status. */
  readonly moreInstruments: ReadonlyArray<string>
  /** The published batches' ids (/api/batches), the current one first; none without a ledger. */
  readonly batchIds: ReadonlyArray<string>
}

export const UNKNOWN_UUID = "0badc0de-0000-4000-8000-000000000000"

export const isoShift = (iso: string, days: number): string => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** YYYY-MM-DD dates around the batch: valid ones first, then invalid ones. */
export const dates = (b: Batch) => ({
  valid: [b.date, isoShift(b.date, -35), "2019-01-02"],
  invalid: [isoShift(b.date, 400), "2026-02-30", "2026-13-01", "20261120", "garbage", ""],
})

/** The month before the batch's, YYYY-MM. */
export const lastMonth = (b: Batch): string => isoShift(`${b.date.slice(0, 8)}01`, -1).slice(0, 7)

/** Query variations: the base request, then each parameter set alone to each of its values. */
export const varied = (
  base: ReadonlyArray<readonly [string, string]>,
  values: Readonly<Record<string, ReadonlyArray<string>>>,
): Array<ReadonlyArray<readonly [string, string]>> => [
  base,
  ...Object.entries(values).flatMap(([name, vs]) => vs.map((v) => [...base.filter(([k]) => k !== name), [name, v] as const])),
]

/** Values of one path parameter: `valid` ones get every query variation, `also` and `invalid` ones the base query. */
export interface PathValues {
  readonly valid: ReadonlyArray<string>
  readonly also?: ReadonlyArray<string>
  readonly invalid?: ReadonlyArray<string>
}

/**
 * One operation's calls: every combination of the valid path values, each with every query
 * variation; then each further value (the other path parameters at their first valid value) with
 * the base query.
 */
export const calls = (
  method: Method,
  path: string,
  spec: {
    readonly params?: Readonly<Record<string, PathValues>>
    readonly base?: ReadonlyArray<readonly [string, string]>
    readonly query?: Readonly<Record<string, ReadonlyArray<string>>>
  },
  headers: Readonly<Record<string, string>>,
): Call[] => {
  const entries = Object.entries(spec.params ?? {})
  const validParams = entries.reduce<Array<Record<string, string>>>(
    (acc, [name, v]) => acc.flatMap((partial) => v.valid.map((value) => ({ ...partial, [name]: value }))),
    [{}],
  )
  const firstValid = validParams[0]!
  const further = entries.flatMap(([name, v]) => [...(v.also ?? []), ...(v.invalid ?? [])].map((value) => ({ ...firstValid, [name]: value })))
  const base = spec.base ?? []
  return [
    ...validParams.flatMap((params) => varied(base, spec.query ?? {}).map((query) => ({ method, path, params, query, headers }))),
    ...further.map((params) => ({ method, path, params, query: base, headers })),
  ]
}

/** The data routes' calls on one batch, each with the valid key. */
export const dataCalls = (b: Batch, key: string): Call[] => {
  const h = { "x-api-key": key }
  const d = dates(b)
  const when = [...d.valid, ...d.invalid]
  const assetIds = {
    valid: [b.fmSerie, b.fiSerie],
    also: [b.renamedSerie, b.etfSerie],
    invalid: [UNKNOWN_UUID, b.fiInstrument, "4294967295", "0", "abc", "-1", "12345678901234567890", UNKNOWN_UUID.toUpperCase().replace("-4", "-X")],
  }
  const runs = { valid: [b.run], also: [b.run.split("-")[0]!], invalid: [b.fiRun, "99999999", "8043-1", "abc", "8043-X", "1234567890"] }
  const instruments = {
    valid: [b.fiInstrument],
    also: [b.etfInstrument, b.instrumentWithoutSeries, b.inactiveInstrument],
    invalid: [UNKNOWN_UUID, b.fiSerie, "not-a-uuid", b.concept],
  }
  const months = [lastMonth(b), "2019-01", "2099-12", "2026-13", "2026-1", "garbage", ""]
  const families = { valid: [b.family], also: [b.family.toLowerCase().replaceAll(" ", "-")], invalid: ["no such family", "%"] }
  return [
    ...calls("get", "/health", {}, {}),
    ...calls("get", "/livez", {}, {}),
    ...calls("get", "/readyz", {}, {}),
    ...calls("get", "/api/key/info", {}, h),
    ...calls("get", "/api/asset_providers", { query: { scope: ["all", "none", "ALL", ""] } }, h),
    ...calls(
      "get",
      "/api/asset_providers/{provider_id}/conceptual_assets",
      { params: { provider_id: { valid: [b.fmProvider, b.fiProvider], invalid: ["4294967295", "abc", "-1", "1e3", "99999999999999999999"] } } },
      h,
    ),
    ...calls(
      "get",
      "/api/conceptual_assets/{concept_id}/real_assets",
      { params: { concept_id: { valid: [b.concept], invalid: ["4294967295", "abc", b.fiInstrument, `fi:${b.fiRun.split("-")[0]}`] } } },
      h,
    ),
    ...calls("get", "/api/real_assets/{asset_id}/days", { params: { asset_id: assetIds }, query: { from_date: when, format: ["csv", "json", "xml", ""] } }, h),
    ...[b.fmSerie, b.fiSerie, UNKNOWN_UUID, "abc"].flatMap((asset_id) =>
      ["text/csv", "text/csv;q=0.5, application/json", "*/*"].map((accept) => ({
        method: "get" as const,
        path: "/api/real_assets/{asset_id}/days",
        params: { asset_id },
        headers: { ...h, accept },
      })),
    ),
    // the batch's downloads: ranges (one, open, suffix, past the end, reversed, several, another unit) and If-Range
    ...calls(
      "get",
      "/api/batches/{batch_id}/snapshot",
      { params: { batch_id: { valid: [b.batchId], invalid: [`${b.date}-0000000000000000`, b.date, "garbage", b.batchId.toUpperCase()] } } },
      h,
    ),
    ...["bytes=0-99", "bytes=100-", "bytes=-10", "bytes=999999999-", "bytes=5-1", "bytes=0-1,5-6", "items=0-1"].map((range) => ({
      method: "get" as const,
      path: "/api/batches/{batch_id}/snapshot",
      params: { batch_id: b.batchId },
      headers: { ...h, range },
    })),
    { method: "get", path: "/api/batches/{batch_id}/snapshot", params: { batch_id: b.batchId }, headers: { ...h, range: "bytes=100-", "if-range": '"0"' } },
    ...calls(
      "get",
      "/api/batches/{batch_id}/days.csv.gz",
      {
        params: { batch_id: { valid: [b.batchId], invalid: [`${b.date}-0000000000000000`, "garbage"] } },
        query: { from_date: [d.valid[1]!, d.invalid[0]!, d.invalid[1]!] },
      },
      h,
    ),
    ...calls(
      "get",
      "/api/batches/{batch_id}/series.csv",
      { params: { batch_id: { valid: [b.batchId], invalid: [`${b.date}-0000000000000000`, "garbage"] } } },
      h,
    ),
    ...["bytes=0-99", "bytes=100-", "bytes=999999999-", "items=0-1"].map((range) => ({
      method: "get" as const,
      path: "/api/batches/{batch_id}/series.csv",
      params: { batch_id: b.batchId },
      headers: { ...h, range },
    })),
    // #31: the batch's Parquet files (the small sample has them; fixture batches have none: 404)
    ...calls(
      "get",
      "/api/batches/{batch_id}/parquet/{file}",
      {
        params: {
          batch_id: { valid: [b.batchId], invalid: [`${b.date}-0000000000000000`, "garbage"] },
          file: { valid: ["returns.parquet", "days-2026.parquet"], invalid: ["days-26.parquet", "other.parquet", `${b.batchId}.sqlite`] },
        },
      },
      h,
    ),
    ...["bytes=0-99", "bytes=-8", "bytes=999999999-"].map((range) => ({
      method: "get" as const,
      path: "/api/batches/{batch_id}/parquet/{file}",
      params: { batch_id: b.batchId, file: "returns.parquet" },
      headers: { ...h, range },
    })),
    ...["release", "release.sig", "manifest.json"].flatMap((file) =>
      calls(
        "get",
        `/api/batches/{batch_id}/${file}`,
        { params: { batch_id: { valid: [b.batchId], invalid: [`${b.date}-0000000000000000`, "garbage"] } } },
        h,
      ),
    ),
    { method: "get", path: "/.well-known/fds-release-key.pem" },
    ...calls(
      "get",
      "/api/real_assets/{asset_id}/returns",
      {
        params: { asset_id: assetIds },
        query: {
          as_of_date: when,
          valuation: ["accounting", "clp", "real_uf", "usd", ""],
          return_basis: ["price", "total", "gross"],
        },
      },
      h,
    ),
    ...calls("get", "/api/real_assets/{asset_id}/risk_metrics", { params: { asset_id: assetIds } }, h),
    ...calls("get", "/api/real_assets/{asset_id}/expense_ratio", { params: { asset_id: assetIds } }, h),
    ...calls(
      "get",
      "/api/real_assets/{asset_id}/expense_ratio/history",
      { params: { asset_id: assetIds }, query: { from_date: ["20190101", b.date.replaceAll("-", ""), "2019-01-01", "20191399", "abc", ""] } },
      h,
    ),
    ...calls(
      "get",
      "/api/all-funds",
      {
        query: {
          vehicle: ["mutual_fund", "etf", "investment_fund", "all", "bonds", ""],
          date: when,
          category: [b.category, b.category.toUpperCase(), "no-such-category"],
          fund_family: [b.family, "no such family"],
          article107_regulation_status: ["declares_eligible", "declares_not_eligible", "unknown", "maybe"],
        },
      },
      h,
    ),
    // all-funds filters and dates on every vehicle
    ...["etf", "investment_fund", "all"].flatMap((vehicle) =>
      calls(
        "get",
        "/api/all-funds",
        { base: [["vehicle", vehicle]], query: { date: [d.valid[1]!, d.valid[2]!, d.invalid[0]!], category: [b.category], fund_family: [b.family] } },
        h,
      ),
    ),
    ...calls("get", "/api/market-summary", { query: { date: when } }, h),
    ...calls(
      "get",
      "/api/families/{family_rar}/index",
      { params: { family_rar: families }, query: { currency: ["PESOS", "DOLAR", "pesos", "EURO", ""], from_date: when } },
      h,
    ),
    ...calls("get", "/api/benchmarks", {}, h),
    ...calls("get", "/api/benchmarks/{family_rar}/prices", { params: { family_rar: families }, query: { from_date: when } }, h),
    ...calls(
      "get",
      "/api/agf_stats/ranking",
      { query: { metric: ["patrimony", "shareholders", "aum", ""], date: when } },
      h,
    ),
    ...calls(
      "get",
      "/api/agf_stats/evolution",
      {
        base: [["administrator", b.administrators[0]]],
        query: {
          administrator: [b.administrators[1], b.administrators[0].toLowerCase(), "NO SUCH AGF", ""],
          metric: ["patrimony", "shareholders", "aum"],
          from_month: months,
          to_month: months,
        },
      },
      h,
    ),
    ...calls("get", "/api/agf_stats/evolution", {}, h),
    // fund flows: each level by day and month, native and CLP, with malformed and unknown values
    ...calls(
      "get",
      "/api/market/flows",
      {
        base: [["level", "fund"], ["id", b.concept]],
        query: {
          level: ["series", "administrator", "FAMILY", "planet", ""],
          period: ["day", "month", "year"],
          from: [d.valid[1]!, lastMonth(b), "garbage", ""],
          to: [b.date, lastMonth(b), "2026-02-30"],
          currency: ["native", "clp", "EUR"],
          limit: ["1", "5000", "0", "5001", "abc"],
          offset: ["0", "3", "-1"],
        },
      },
      h,
    ),
    ...calls("get", "/api/market/flows", { base: [["level", "series"], ["id", b.fmSerie]], query: { id: [b.renamedSerie, "4294967295", "abc"] } }, h),
    ...calls("get", "/api/market/flows", { base: [["level", "administrator"], ["id", b.fmProvider]], query: { period: ["day", "month"], currency: ["CLP"] } }, h),
    ...calls("get", "/api/market/flows", { base: [["level", "family"], ["id", b.family]], query: { period: ["day", "month"], id: ["no such family"] } }, h),
    ...calls("get", "/api/market/flows", {}, h),
    {
      method: "get",
      path: "/api/agf_stats/evolution",
      query: [
        ["administrator", b.administrators[0]],
        ["administrator", b.administrators[1]],
        ["from_month", "2025-01"],
        ["to_month", "2024-01"],
      ],
      headers: h,
    },
    ...calls(
      "get",
      "/api/reports/tac-changes",
      {
        query: {
          date: [...when, `${lastMonth(b)}-01`],
          direction: ["up", "down", "sideways"],
          limit: ["1", "15", "100", "0", "101", "-1", "abc", "1.5"],
          category: [b.category, "no-such-category"],
        },
      },
      h,
    ),
    // #31: who holds this (an instrument, an ISIN, an issuer; a month; none or two of them refused)
    ...calls(
      "get",
      "/api/holders",
      {
        base: [["instrument", "PDBC300526"]],
        query: { month: months, instrument: ["NOBODYHOLDSTHIS", " pdbc300526 ", ""] },
      },
      h,
    ),
    ...calls("get", "/api/holders", { base: [["issuer_rut", "97.029.000-1"]], query: { issuer_rut: ["97029000", "97029000-5", "x"] } }, h),
    ...calls("get", "/api/holders", { base: [["isin", "US0378331005"]], query: { month: months } }, h),
    { method: "get", path: "/api/holders", params: {}, query: [], headers: h },
    { method: "get", path: "/api/holders", params: {}, query: [["instrument", "A"], ["isin", "US0378331005"]], headers: h },
    ...calls("get", "/api/funds/{run}/cartera/resumen", { params: { run: runs }, query: { month: months } }, h),
    ...calls(
      "get",
      "/api/funds/{run}/cartera/holdings",
      { params: { run: runs }, query: { month: months, market: ["N", "E", "all", "X", ""] } },
      h,
    ),
    ...calls("get", "/api/funds/{run}/article107", { params: { run: runs } }, h),
    ...calls(
      "get",
      "/api/compare",
      {
        base: [["series", b.fmSerie]],
        query: {
          series: [
            `${b.fmSerie},${b.renamedSerie}`,
            `0${b.fmSerie}`,
            `${b.fmSerie},${b.fmSerie}`,
            "4294967295",
            b.fiSerie,
            "abc",
            "",
            ",",
            Array.from({ length: 11 }, (_, i) => String(i + 1)).join(","),
          ],
        },
      },
      h,
    ),
    ...calls("get", "/api/compare", {}, h),
    ...calls(
      "get",
      "/api/screener",
      {
        query: {
          q: [b.run.split("-")[0]!, "fondo", "x".repeat(201)],
          fund_family: [b.family, "no such family"],
          investor_class: ["APV", "retail", "Institutional", "Gold"],
          currency: ["PESOS", "clp", "DOLAR", "USD", "EUR"],
          category: [b.category, "no-such-category"],
          administrator: [b.administrators[0].slice(0, 6), "x".repeat(201)],
          cmf_spheres_min: ["1", "5", "0", "6", "abc"],
          cmf_spheres_max: ["1", "5", "0", "6", "2.5"],
          cmf_family: ["Accionario", ""],
          cmf_investor_type: ["Retail", ""],
          sort: ["id", "tac", "cmf_spheres", "1m", "1y", "3y_ann", "last_closed_month", "name"],
          order: ["asc", "desc", "up"],
          limit: ["1", "200", "0", "201", "abc"],
          offset: ["0", "5", "100000", "-1", "abc"],
        },
      },
      h,
    ),
    // the screener's combined rules: a return sort with its currency, spheres with their family and type
    ...calls(
      "get",
      "/api/screener",
      {
        base: [["currency", "PESOS"]],
        query: { sort: ["1m", "ytd", "5y_ann"], order: ["desc"], cmf_spheres_min: ["4"], cmf_spheres_max: ["2"] },
      },
      h,
    ),
    ...calls(
      "get",
      "/api/fi/instruments",
      {
        query: {
          provider_id: [b.fiProvider, b.fmProvider, "0", "abc", "-1"],
          is_etf: ["true", "false", "yes", ""],
          regulatory_type: ["FIRES", "FINRE", "fires", "OTHER"],
          status: ["active", "inactive", "unknown", "all", "dead"],
          q: ["etf", b.fiRun, "x".repeat(101), ""],
          limit: ["1", "500", "0", "501", "abc"],
          offset: ["0", "10", "100000", "-1", "abc"],
        },
      },
      h,
    ),
    ...calls("get", "/api/fi/instruments/{instrument_id}", { params: { instrument_id: instruments } }, h),
    ...calls(
      "get",
      "/api/fi/instruments/{instrument_id}/prices",
      {
        params: { instrument_id: instruments },
        query: {
          from_date: when,
          to_date: when,
          limit: ["1", "5000", "0", "5001", "abc"],
          offset: ["0", "3", "100000", "-1", "abc"],
        },
      },
      h,
    ),
    {
      method: "get",
      path: "/api/fi/instruments/{instrument_id}/prices",
      params: { instrument_id: b.fiInstrument },
      query: [
        ["from_date", b.date],
        ["to_date", isoShift(b.date, -30)],
      ],
      headers: h,
    },
    ...calls(
      "get",
      "/api/fi/instruments/{instrument_id}/cartera/holdings",
      { params: { instrument_id: instruments }, query: { month: months, market: ["N", "E", "all", "X", ""] } },
      h,
    ),
    ...calls(
      "get",
      "/api/fi/instruments/{instrument_id}/cartera/resumen",
      { params: { instrument_id: instruments }, query: { month: months, market: ["N", "E", "all", "X"] } },
      h,
    ),
    ...calls(
      "get",
      "/api/changes",
      {
        base: [["from_batch", b.batchId]],
        query: {
          to_batch: [b.batchId, `${isoShift(b.date, -1)}-0123456789abcdef`, "2026-02-30-0123456789abcdef", b.batchId.toUpperCase(), ""],
          from_batch: [`${isoShift(b.date, -1)}-0123456789abcdef`, `${isoShift(b.date, 400)}-0123456789abcdef`, b.date, "garbage", ""],
          limit: ["1", "5000", "0", "5001", "abc"],
          cursor: ["garbage", "", "x".repeat(1001)],
        },
      },
      h,
    ),
    ...calls("get", "/api/changes", {}, h),
    // the batch's edge cases: every FI/ETF series and instrument, a mutual fund series per currency
    ...b.moreSeries.flatMap((asset_id) => [
      ...["days", "risk_metrics", "expense_ratio", "expense_ratio/history"].map((route) => ({
        method: "get" as const,
        path: `/api/real_assets/{asset_id}/${route}`,
        params: { asset_id },
        headers: h,
      })),
      ...["accounting", "clp", "real_uf"].map((valuation) => ({
        method: "get" as const,
        path: "/api/real_assets/{asset_id}/returns",
        params: { asset_id },
        query: [["valuation", valuation] as const],
        headers: h,
      })),
    ]),
    ...calls(
      "get",
      "/api/batches",
      { query: { limit: ["1", "500", "0", "501", "abc"], offset: ["0", "1", "100000", "-1", "abc"] } },
      h,
    ),
    ...calls(
      "get",
      "/api/batches/{batch_id}",
      {
        params: {
          batch_id: {
            valid: b.batchIds.slice(0, 1).concat(b.batchIds.length === 0 ? ["2026-01-02-0123456789abcdef"] : []),
            also: b.batchIds.slice(1),
            invalid: ["2019-01-02-0123456789abcdef", "latest", "2026-02-30-0123456789abcdef", "2026-11-20-0123456789ABCDEF"],
          },
        },
      },
      h,
    ),
    ...b.moreInstruments.flatMap((instrument_id) =>
      ["", "/prices", "/cartera/holdings", "/cartera/resumen"].map((route) => ({
        method: "get" as const,
        path: `/api/fi/instruments/{instrument_id}${route}`,
        params: { instrument_id },
        headers: h,
      })),
    ),
  ]
}

/** The batch's ids, read through the API (the FI/ETF ones from the FI fixture when the batch has no FI part; the batch id from CURRENT). */
export const readBatch = async (base: string, key: string): Promise<Batch> => {
  const get = async (path: string): Promise<{ status: number; body: Json }> => {
    const r = await send(`${base}${path}`, { method: "get", path, headers: { "x-api-key": key } })
    return { status: r.status, body: r.status === 200 ? JSON.parse(r.text) : undefined }
  }
  const allFunds = (await get("/api/all-funds")).body
  const rows = allFunds.data as Json[]
  const batches = ((await get("/api/batches")).body.data as Json[]).sort((x, y) => Number(y.attributes.current) - Number(x.attributes.current))
  const row = rows.find((r) => r.category !== null && r.fundFamily !== null) ?? rows[0]
  const renamed = rows.find((r) => r.seriesContinuity !== null)
  const ranking = (await get("/api/agf_stats/ranking")).body.data as Json[]
  const fmProviders = (await get("/api/asset_providers")).body.data as Json[]
  const fi = await get("/api/fi/instruments?status=all&limit=500")
  let fiIds: Pick<
    Batch,
    | "fiProvider"
    | "fiInstrument"
    | "etfInstrument"
    | "instrumentWithoutSeries"
    | "inactiveInstrument"
    | "fiSerie"
    | "etfSerie"
    | "fiRun"
    | "moreInstruments"
  > & { readonly fiSeries: ReadonlyArray<string> }
  if (fi.status === 200) {
    const list = fi.body.data as Json[]
    const priced = (etf: boolean) => list.find((i) => i.is_etf === etf && i.status === "active" && i.price_status === "current")
    const fiActive = priced(false)
    const etf = priced(true)
    fiIds = {
      fiProvider: String(fiActive.provider_id),
      fiInstrument: fiActive.instrument_id,
      etfInstrument: etf.instrument_id,
      instrumentWithoutSeries: list.find((i) => i.status === "active" && i.series.length === 0).instrument_id,
      inactiveInstrument: list.find((i) => i.status !== "active").instrument_id,
      fiSerie: fiActive.main_serie_id,
      etfSerie: etf.main_serie_id,
      fiRun: fiActive.run,
      moreInstruments: list.map((i) => i.instrument_id),
      fiSeries: list.flatMap((i) => i.series.map((x: Json) => x.serie_id)),
    }
  } else {
    const fiActive = INSTRUMENTS.find((i) => i.is_etf === 0)!
    const etf = INSTRUMENTS.find((i) => i.is_etf === 1)!
    fiIds = {
      fiProvider: String(fiActive.provider_id),
      fiInstrument: fiActive.instrument_id,
      etfInstrument: etf.instrument_id,
      instrumentWithoutSeries: UNKNOWN_UUID,
      inactiveInstrument: INSTRUMENTS.at(-1)!.instrument_id,
      fiSerie: SERIES.find((s) => s.instrument_id === fiActive.instrument_id)!.serie_id,
      etfSerie: SERIES.find((s) => s.instrument_id === etf.instrument_id)!.serie_id,
      fiRun: String(fiActive.run),
      moreInstruments: [],
      fiSeries: [],
    }
  }
  const { fiSeries, ...fiRest } = fiIds
  const byCurrency = [...new Map(rows.map((r) => [r.currency, r.serieId as string])).values()]
  const returns = (await get(`/api/real_assets/${row.serieId}/returns`)).body
  return {
    date: allFunds.meta.date,
    batchId: returns.data.attributes.batch_id,
    fmProvider: fmProviders[0].id,
    concept: row.fundId,
    run: row.run,
    fmSerie: row.serieId,
    renamedSerie: renamed?.seriesContinuity.aliasIds[1] ?? row.serieId,
    category: row.category,
    family: row.fundFamily ?? "Accionario desarrollado",
    administrators: [ranking[0].attributes.administrator, ranking[1]?.attributes.administrator ?? ranking[0].attributes.administrator],
    ...fiRest,
    moreSeries: [...byCurrency, ...fiSeries],
    batchIds: batches.map((x) => x.id),
  }
}
