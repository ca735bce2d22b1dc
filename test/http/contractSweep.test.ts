/**
 * Every answer true to the contract: each operation of /openapi.json is called over real HTTP with
 * valid and invalid parameters, FM ids and FI/ETF ids (UUIDs), without a key, with a wrong one, with
 * one whose quota is spent and with If-None-Match, on two batches: the small sample through the real
 * pipeline (FI/ETF part included, social login against a real OpenID provider, every return basis
 * enabled) and a batch whose FI/ETF part is unavailable (social login not configured, the adjusted
 * return bases off). Each answer's status must be one the operation declares and its body must fit
 * that response's schema in the served document, checked with ajv (draft 2020-12, formats on), and
 * each 4xx/5xx must be an RFC 9457 problem document (test/support/problemDocument.ts) whose `type`
 * names an entry /docs has, with one title per error code.
 *
 * The values are written here by parameter, not read from the document's parameter schemas; the
 * ids come from the batch's own listings. Which statuses are expected is not judged here (the
 * routes' own tests do that); only that each answer is one the contract describes.
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { Effect, Redacted } from "effect"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUnsubscribe } from "../../accounts/UnsubscribeTokens.ts"
import { SqliteLedger } from "../../pipeline/ledger/Ledger.ts"
import { runPipelineLive } from "../../pipeline/Pipeline.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { linkIn, outbox } from "../accounts/support/mail.ts"
import { type OidcProvider, signInAtProvider, startOidcProvider } from "../accounts/support/oidcProvider.ts"
import { INSTRUMENTS, SERIES } from "../fi/fiData.ts"
import { makeFiFixture } from "../fi/fiFixture.ts"
import { type ContractValidator, contractValidator } from "../support/openApiValidator.ts"
import { errorAnchorsOf, type ProblemSeen, problemDocumentIssues, titlesNotFixed } from "../support/problemDocument.ts"
import { createKey, type RunningServer, startServer } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { ALL_OPERATIONS } from "./specOperations.ts"

// biome-ignore lint/suspicious/noExplicitAny: the answers and the document are plain JSON
type Json = any

type Method = "get" | "post" | "delete" | "patch"

/** One request of the sweep: an operation of the document and the values it is called with. */
interface Call {
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

interface Reply {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly text: string
}

interface Outcome {
  readonly call: Call
  readonly url: string
  readonly status: number
  readonly problems: ReadonlyArray<string>
  /** The Batch-Id header, and the JSON body's meta.batch_id (undefined when it has no meta, null when its meta has none). */
  readonly batchId: string | undefined
  readonly metaBatchId: unknown
  /** A 4xx/5xx: the answer, for the problem document check. */
  readonly error?: Reply
}

/** An answer checked against the document, with the batch it names. */
const outcomeOf = (validator: ContractValidator, c: Call, url: string, reply: Reply): Outcome => {
  let metaBatchId: unknown
  if (String(reply.headers["content-type"] ?? "").startsWith("application/json")) {
    try {
      const meta = JSON.parse(reply.text)?.meta
      // a meta without batch_id is null: it should have named the batch
      metaBatchId = meta !== null && typeof meta === "object" ? (meta.batch_id ?? null) : undefined
    } catch {
      metaBatchId = undefined
    }
  }
  return {
    call: c,
    url,
    status: reply.status,
    problems: validator.problems(c.method, c.path, reply),
    batchId: headerOf(reply, "batch-id"),
    metaBatchId,
    ...(reply.status >= 400 ? { error: reply } : {}),
  }
}

/**
 * The 4xx/5xx answers that are not RFC 9457 problem documents (with what is wrong), the codes
 * answered with more than one title, and how many were checked. The probes' 503, their status
 * document (`status` is the service's state there), is not a problem document by design.
 */
const problemCheck = (outcomes: ReadonlyArray<Outcome>, anchors: ReadonlySet<string>) => {
  const wrong: string[] = []
  const seen: ProblemSeen[] = []
  let checked = 0
  for (const o of outcomes) {
    if (o.error === undefined) continue
    const probeDocument = ["/health", "/readyz"].includes(o.call.path) && o.status === 503 && !o.error.text.includes('"error"')
    if (probeDocument) continue
    checked++
    const { issues, seen: one } = problemDocumentIssues(o.error, anchors)
    if (one !== undefined) seen.push(one)
    if (issues.length > 0) wrong.push(`${o.call.method.toUpperCase()} ${o.url} → ${o.status}: ${issues.join("; ")}`)
  }
  return { wrong, titles: titlesNotFixed(seen), checked, codes: new Set(seen.map((s) => s.error)) }
}

const operationOf = (c: Pick<Call, "method" | "path">): string => `${c.method.toUpperCase()} ${c.path}`

const urlOf = (base: string, c: Call): string => {
  const path = c.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = c.params?.[name]
    if (value === undefined) throw new Error(`${operationOf(c)}: no value for {${name}}`)
    return encodeURIComponent(value)
  })
  const query = new URLSearchParams(c.query?.map(([k, v]): [string, string] => [k, v]) ?? []).toString()
  return `${base}${path}${query === "" ? "" : `?${query}`}`
}

const send = async (url: string, c: Call): Promise<Reply> => {
  const headers: Record<string, string> = { ...c.headers }
  let body: string | undefined = c.raw
  if (c.json !== undefined) {
    headers["content-type"] = "application/json"
    body = JSON.stringify(c.json)
  }
  const res = await request(url, { method: c.method.toUpperCase() as "GET", headers, ...(body === undefined ? {} : { body }) })
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() }
}

const headerOf = (r: Reply, name: string): string | undefined => {
  const v = r.headers[name.toLowerCase()]
  return Array.isArray(v) ? v.join(", ") : v
}

/** Runs the calls `width` at a time; each answer checked against the document. */
const sweep = async (
  base: string,
  validator: ContractValidator,
  calls: ReadonlyArray<Call>,
  width = 4,
): Promise<{ outcomes: Outcome[]; replies: Reply[] }> => {
  const outcomes: Outcome[] = new Array(calls.length)
  const replies: Reply[] = new Array(calls.length)
  let next = 0
  const worker = async () => {
    for (let i = next++; i < calls.length; i = next++) {
      const c = calls[i]!
      const url = urlOf(base, c)
      const reply = await send(url, c)
      replies[i] = reply
      outcomes[i] = outcomeOf(validator, c, url, reply)
    }
  }
  await Promise.all(Array.from({ length: width }, worker))
  return { outcomes, replies }
}

// ---------------------------------------------------------------------------------------------
// The values the sweep calls with.

/** Ids and words of one batch, read from its own listings (FI/ETF ones from the fixture when the batch has none). */
interface Batch {
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

const UNKNOWN_UUID = "0badc0de-0000-4000-8000-000000000000"

const isoShift = (iso: string, days: number): string => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** YYYY-MM-DD dates around the batch: valid ones first, then invalid ones. */
const dates = (b: Batch) => ({
  valid: [b.date, isoShift(b.date, -35), "2019-01-02"],
  invalid: [isoShift(b.date, 400), "2026-02-30", "2026-13-01", "20261120", "garbage", ""],
})

/** The month before the batch's, YYYY-MM. */
const lastMonth = (b: Batch): string => isoShift(`${b.date.slice(0, 8)}01`, -1).slice(0, 7)

/** Query variations: the base request, then each parameter set alone to each of its values. */
const varied = (
  base: ReadonlyArray<readonly [string, string]>,
  values: Readonly<Record<string, ReadonlyArray<string>>>,
): Array<ReadonlyArray<readonly [string, string]>> => [
  base,
  ...Object.entries(values).flatMap(([name, vs]) => vs.map((v) => [...base.filter(([k]) => k !== name), [name, v] as const])),
]

/** Values of one path parameter: `valid` ones get every query variation, `also` and `invalid` ones the base query. */
interface PathValues {
  readonly valid: ReadonlyArray<string>
  readonly also?: ReadonlyArray<string>
  readonly invalid?: ReadonlyArray<string>
}

/**
 * One operation's calls: every combination of the valid path values, each with every query
 * variation; then each further value (the other path parameters at their first valid value) with
 * the base query.
 */
const calls = (
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
const dataCalls = (b: Batch, key: string): Call[] => {
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
const readBatch = async (base: string, key: string): Promise<Batch> => {
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

// ---------------------------------------------------------------------------------------------
// The account routes: a session made through the magic link, then each route with and without it.

interface AccountState {
  readonly base: string
  readonly dataDir: string
  readonly oidc: OidcProvider | undefined
  readonly servesSerie: ReadonlyArray<string>
}

/** The id of the user with `email` (0 when there is none), read in the accounts database itself. */
const userIdOf = (dataDir: string, email: string): number => {
  const db = new Database(join(dataDir, "accounts.sqlite"), { readonly: true })
  try {
    return (db.prepare("SELECT id FROM users WHERE email = ?").pluck().get(email) as number | undefined) ?? 0
  } finally {
    db.close()
  }
}

/** The account routes' calls, in order (they change state; the account is removed last). */
const accountCalls = async (s: AccountState, validator: ContractValidator): Promise<Outcome[]> => {
  const origin = { origin: s.base }
  const outcomes: Outcome[] = []
  const run = async (c: Call): Promise<Reply> => {
    const url = urlOf(s.base, c)
    const reply = await send(url, c)
    outcomes.push(outcomeOf(validator, c, url, reply))
    return reply
  }
  const returnUrl = `${s.base}/account`
  const email = "sweep@example.cl"
  // magic link: bad bodies, a foreign origin, then a good one
  for (const json of [{}, { email: "not-an-email", return_url: returnUrl }, { email, return_url: "https://evil.example/x" }, { email }]) {
    await run({ method: "post", path: "/api/auth/magic-link", json, headers: origin })
  }
  await run({ method: "post", path: "/api/auth/magic-link", raw: "{not json", headers: { ...origin, "content-type": "application/json" } })
  await run({ method: "post", path: "/api/auth/magic-link", json: { email, return_url: returnUrl }, headers: { origin: "https://evil.example" } })
  const sent = outbox(s.dataDir).length
  await run({ method: "post", path: "/api/auth/magic-link", json: { email, return_url: returnUrl }, headers: origin })
  const mail = outbox(s.dataDir)[sent]
  const token = mail === undefined ? "none" : (new URL(linkIn(mail, `${returnUrl}?token=`)).searchParams.get("token") ?? "none")
  // the callback: bad bodies first, then the token
  for (const json of [{}, { token: "bogus" }, { code: "bogus" }, { token: 42 }]) {
    await run({ method: "post", path: "/api/auth/callback", json, headers: origin })
  }
  await run({ method: "post", path: "/api/auth/callback", json: { token }, headers: { origin: "https://evil.example" } })
  const done = await run({ method: "post", path: "/api/auth/callback", json: { token }, headers: origin })
  const setCookie = headerOf(done, "set-cookie") ?? ""
  const session = /fds_session=([^;,\s]*)/.exec(setCookie)?.[1] ?? "none"
  const me = { ...origin, cookie: `fds_session=${session}` }
  const stranger = { ...origin, cookie: "fds_session=bogus" }
  // social login
  for (const query of [[["return_url", returnUrl]], [["return_url", "https://evil.example/"]], [["return_url", ""]], []] as const) {
    await run({ method: "get", path: "/api/auth/google", query })
  }
  for (const query of [[["code", "abc"], ["state", "never-issued"]], [["state", "x"]], []] as const) {
    await run({ method: "get", path: "/api/auth/google/callback", query })
  }
  if (s.oidc !== undefined) {
    const start = `${s.base}/api/auth/google?return_url=${encodeURIComponent(returnUrl)}`
    const back = await signInAtProvider(start, s.oidc.issuer, "sweep-oidc", `${s.base}/api/auth/google/callback`)
    const query = [...new URL(back.url).searchParams.entries()]
    await run({ method: "get", path: "/api/auth/google/callback", query })
  }
  // the signed-in routes: with the session, without one, with a bogus one, from a foreign origin
  for (const headers of [me, origin, stranger]) {
    await run({ method: "get", path: "/api/me", headers })
    await run({ method: "get", path: "/api/me/watchlist", headers })
  }
  for (const serie_id of [...s.servesSerie, "x".repeat(37), "", "4294967295", UNKNOWN_UUID]) {
    await run({ method: "post", path: "/api/me/watchlist", json: { serie_id }, headers: me })
  }
  await run({ method: "post", path: "/api/me/watchlist", json: {}, headers: me })
  await run({ method: "post", path: "/api/me/watchlist", json: { serie_id: s.servesSerie[0] }, headers: origin })
  await run({ method: "post", path: "/api/me/watchlist", json: { serie_id: s.servesSerie[0] }, headers: { ...me, origin: "https://evil.example" } })
  await run({ method: "get", path: "/api/me/watchlist", headers: me })
  for (const serie_id of [s.servesSerie[0]!, "4294967295", "x".repeat(37)]) {
    await run({ method: "delete", path: "/api/me/watchlist/{serie_id}", params: { serie_id }, headers: me })
  }
  await run({ method: "delete", path: "/api/me/watchlist/{serie_id}", params: { serie_id: s.servesSerie[0]! }, headers: origin })
  for (const json of [{ email_opt_in_alerts: false }, { email_opt_in_monthly_summary: true, email_opt_in_alerts: null }, {}, { email_opt_in_alerts: "yes" }, { other: true }]) {
    await run({ method: "patch", path: "/api/me/alerts", json, headers: me })
  }
  await run({ method: "patch", path: "/api/me/alerts", json: { email_opt_in_alerts: true }, headers: origin })
  await run({ method: "patch", path: "/api/me/alerts", json: { email_opt_in_alerts: true }, headers: { ...me, origin: "https://evil.example" } })
  // unsubscribing with signed tokens (the server's secret, as the alert mails sign them)
  const secret = Redacted.make(new Uint8Array(Buffer.from(readFileSync(join(s.dataDir, "secret.key"), "utf8").trim(), "hex")))
  const userId = userIdOf(s.dataDir, email)
  const signed = (scope: "alerts" | "monthly_summary" | "all", expiresAt = Math.floor(Date.now() / 1000) + 3600) =>
    signUnsubscribe(secret, { userId, scope, expiresAt })
  for (const json of [{ token: signed("alerts") }, { token: signed("all", 1) }, { token: "bogus" }, {}, { token: "x".repeat(3000) }]) {
    await run({ method: "post", path: "/api/alerts/unsubscribe", json, headers: origin })
  }
  for (const query of [[["token", signed("monthly_summary")]], [["token", "bogus"]], [["token", "x".repeat(3000)]], []] as const) {
    await run({ method: "post", path: "/api/alerts/unsubscribe/one-click", query, raw: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } })
  }
  // leaving: logout, then removal (from a foreign origin, without a session, then for real)
  await run({ method: "post", path: "/api/auth/logout", headers: { ...me, origin: "https://evil.example" } })
  await run({ method: "post", path: "/api/auth/logout", headers: stranger })
  await run({ method: "delete", path: "/api/me", headers: { ...me, origin: "https://evil.example" } })
  await run({ method: "delete", path: "/api/me", headers: origin })
  await run({ method: "delete", path: "/api/me", headers: me })
  await run({ method: "post", path: "/api/auth/logout", headers: me })
  return outcomes
}

// ---------------------------------------------------------------------------------------------
// Answers given before routing: the per-IP limit.

/** One call per operation; its values are placeholders (answers decided before routing do not read them). */
const oneCallEach = (): Call[] =>
  ALL_OPERATIONS.map((o) => ({
    method: o.method,
    path: o.path,
    params: Object.fromEntries(
      o.params.filter((p) => p.startsWith("path:")).map((p) => [p.slice(5), p === "path:instrument_id" ? UNKNOWN_UUID : "1"]),
    ),
    ...(o.body === true ? { json: {} } : {}),
  }))

// ---------------------------------------------------------------------------------------------
// The two batches.

interface Served {
  readonly url: string
  readonly dataDir: string
  readonly oidc: OidcProvider | undefined
  /** A batch the ledger says was published whose file is not on disk (410 on `?batch=`). */
  readonly notRetained?: string
  readonly close: () => Promise<void>
}

/**
 * Records in the ledger a batch published before the served one, then rolled back from, whose
 * file retention removed (it never existed here): `?batch=` answers 410 for it.
 */
const recordRemovedBatch = (dataDir: string): string => {
  const served = readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim()
  const file = "2026-11-19-0123456789abcdef.sqlite"
  const ledger = new SqliteLedger(join(dataDir, "ledger.sqlite"))
  try {
    ledger.append({ type: "BatchPublished", payload: { batch_date: "2026-11-19", file, content_hash: `0123456789abcdef${"0".repeat(48)}` } })
    const batchDate = served.slice(0, 10)
    ledger.append({
      type: "BatchRolledBack",
      payload: { batch_date: batchDate, file: served, content_hash: "", from_file: file, reason: "contract sweep" },
    })
  } finally {
    ledger.close()
  }
  return file.replace(/\.sqlite$/, "")
}

/** The small sample through the real pipeline, served with social login and every return basis on. */
const serveSample = async (): Promise<Served> => {
  const work = mkdtempSync(join(tmpdir(), "fds-sweep-"))
  const dataDir = join(work, "data")
  await writeSample({ out: join(work, "sample"), scale: "small", seed: 42, endDate: "2026-11-20" })
  const outcome = await Effect.runPromise(
    runPipelineLive({
      dataDir,
      sources: [{ kind: "folder", path: join(work, "sample") }],
      today: "2026-11-22",
      historyStart: "2019-01-01",
      fetch: { timeoutMillis: 1000, retries: 0, retryBaseMillis: 1 },
    }),
  )
  if (outcome.outcome !== "published") throw new Error(`the sample was not published: ${outcome.outcome}`)
  const notRetained = recordRemovedBatch(dataDir)
  const oidc = await startOidcProvider()
  const server = await startServer({
    dataDir,
    env: {
      FDS_ENABLE_CLP: "true",
      FDS_ENABLE_REAL_UF: "true",
      FDS_ENABLE_TOTAL: "true",
      FDS_OIDC_ISSUER: oidc.issuer,
      FDS_OIDC_CLIENT_ID: "fds-sweep",
      FDS_OIDC_CLIENT_SECRET: "sweep-secret",
    },
  })
  oidc.start({ clientId: "fds-sweep", clientSecret: "sweep-secret", redirectUri: `${server.url}/api/auth/google/callback` })
  return {
    url: server.url,
    dataDir,
    oidc,
    notRetained,
    close: async () => {
      await server.close()
      await oidc.close()
      rmSync(work, { recursive: true, force: true })
    },
  }
}

/** The FI fixture's batch with its FI/ETF part unavailable (as the pipeline writes it), served plainly. */
const serveWithoutFi = async (): Promise<Served> => {
  const fx = makeFiFixture({ unavailable: "fi_registry: list FINRE-NV missing" }, true)
  const server: RunningServer = await startServer({ dataDir: fx.dataDir })
  return {
    url: server.url,
    dataDir: fx.dataDir,
    oidc: undefined,
    close: async () => {
      await server.close()
      fx.cleanup()
    },
  }
}

const KEYED = ALL_OPERATIONS.filter((o) => o.security === "apiKey")

describe.each([
  { batch: "the small sample", serve: serveSample, fiPart: true },
  { batch: "a batch without its FI/ETF part", serve: serveWithoutFi, fiPart: false },
] as const)("every answer on $batch fits /openapi.json", ({ serve, fiPart }) => {
  let served: Served
  let doc: Json
  const outcomes: Outcome[] = []
  /** The batch served (CURRENT's file name), and the one /returns names (batch_id): the same. */
  let current = ""
  let returnsBatch = ""
  let anchors: ReadonlySet<string> = new Set()

  beforeAll(async () => {
    served = await serve()
    doc = JSON.parse((await send(`${served.url}/openapi.json`, { method: "get", path: "/openapi.json" })).text)
    anchors = errorAnchorsOf((await send(`${served.url}/docs`, { method: "get", path: "/docs" })).text)
    const validator = contractValidator(doc)
    const key = (await createKey(served.dataDir, { email: "sweep@example.cl", tier: "internal" })).key
    const spent = (await createKey(served.dataDir, { email: "spent@example.cl", dailyQuota: 1 })).key
    const batch = await readBatch(served.url, key)
    const data = await sweep(served.url, validator, dataCalls(batch, key))
    outcomes.push(...data.outcomes)
    // each keyed operation once more: no key, a wrong key, a Bearer key, a spent quota, and the ETag of its answer;
    // a data route also with `batch`: the current batch, one never published, a malformed one, one whose file is gone
    current = readFileSync(join(served.dataDir, "snapshots", "CURRENT"), "utf8").trim().replace(/\.sqlite$/, "")
    returnsBatch = batch.batchId
    const batchValues = [current, "2019-01-02-0123456789abcdef", "latest", ...(served.notRetained === undefined ? [] : [served.notRetained])]
    const takesBatch = (c: Call): boolean =>
      (doc.paths[c.path]?.[c.method]?.parameters ?? []).some((p: Json) => p.in === "query" && p.name === "batch")
    await send(`${served.url}/api/benchmarks`, { method: "get", path: "/api/benchmarks", headers: { "x-api-key": spent } })
    const again: Call[] = KEYED.flatMap((o) => {
      const mine = data.outcomes.map((x, i) => [x, i] as const).filter(([x]) => operationOf(x.call) === operationOf(o))
      const [first, i] = mine.find(([x]) => x.status === 200) ?? mine[0]!
      const etag = first.status === 200 ? headerOf(data.replies[i]!, "etag") : undefined
      const c = first.call
      return [
        { ...c, headers: {} },
        { ...c, headers: { "x-api-key": "fds_wrong_key_0000000000000000000000000000000000000000" } },
        { ...c, headers: { authorization: `Bearer ${key}` } },
        { ...c, headers: { authorization: "Bearer not-one-of-ours" } },
        { ...c, headers: { "x-api-key": spent } },
        ...(etag === undefined ? [] : [{ ...c, headers: { "x-api-key": key, "if-none-match": etag } }]),
        ...(takesBatch(c)
          ? batchValues.map((value) => ({ ...c, query: [...(c.query ?? []), ["batch", value] as const], headers: { "x-api-key": key } }))
          : []),
      ]
    })
    outcomes.push(...(await sweep(served.url, validator, again)).outcomes)
    const servesSerie = [batch.fmSerie, batch.fiSerie]
    outcomes.push(...(await accountCalls({ base: served.url, dataDir: served.dataDir, oidc: served.oidc, servesSerie }, validator)))
  }, 150_000)
  afterAll(async () => {
    await served?.close()
  })

  it("the document's operations are the spec's 41 and the later ones, and each was called", () => {
    const documented = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => operationOf({ method: method as Method, path })),
    )
    expect(documented.sort()).toEqual(ALL_OPERATIONS.map(operationOf).sort())
    const called = new Set(outcomes.map((o) => operationOf(o.call)))
    expect(documented.filter((op) => !called.has(op))).toEqual([])
  })

  it("`batch` on the data routes answered 200 (the current batch), 404 (never published), 422 (malformed) and, with a ledger, 410 (file gone)", () => {
    const statuses = new Set(outcomes.filter((o) => o.call.query?.some(([name]) => name === "batch")).map((o) => o.status))
    expect([...statuses].sort()).toEqual(expect.arrayContaining(served.notRetained === undefined ? [200, 404, 422] : [200, 404, 410, 422]))
  })

  it(fiPart ? "every operation succeeded at least once" : "every FI/ETF route answered 503 (the batch has no FI/ETF part)", () => {
    const answered = (op: string, ok: (status: number) => boolean) => outcomes.some((o) => operationOf(o.call) === op && ok(o.status))
    const success = (s: number) => s >= 200 && s < 400 && s !== 304
    const ops = fiPart ? ALL_OPERATIONS : ALL_OPERATIONS.filter((o) => o.path.startsWith("/api/fi/"))
    expect(ops.map(operationOf).filter((op) => !answered(op, fiPart ? success : (s) => s === 503))).toEqual([])
  })

  it("every success of a data operation names its batch (Batch-Id, = meta.batch_id): the served one or the one the request names; nothing else names one", () => {
    expect(returnsBatch).toBe(current)
    // /api/batches takes its own `batch` (the list as of that batch) but is read from the ledger: it names none
    const takesBatch = (c: Call): boolean =>
      c.path !== "/api/batches" && (doc.paths[c.path]?.[c.method]?.parameters ?? []).some((p: Json) => p.in === "query" && p.name === "batch")
    const query = (c: Call, name: string): string | undefined => c.query?.find(([k]) => k === name)?.[1]
    /** The batch an answer names: null for an operation that names none (not a data route, or one read from the ledger). */
    const named = (c: Call): string | null => {
      if (takesBatch(c)) return query(c, "batch") ?? current
      if (c.path.startsWith("/api/batches/{batch_id}/")) return c.params?.batch_id ?? null
      if (c.path === "/api/changes") return query(c, "to_batch") ?? current
      return null
    }
    const naming = [...new Set(outcomes.filter((o) => named(o.call) !== null).map((o) => operationOf(o.call)))].sort()
    // the data routes: the 26 that take ?batch=, the three downloads and /api/changes; the document says so of each
    expect(naming.length).toBe(30)
    const documented = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Json>)
        .filter(([, op]) => ["200", "304"].every((s) => op.responses?.[s]?.headers?.["Batch-Id"] !== undefined))
        .map(([method]) => operationOf({ method: method as Method, path })),
    )
    expect(documented.sort()).toEqual(naming)
    const wrong = outcomes.flatMap((o) => {
      const success = o.status === 200 || o.status === 206 || o.status === 304
      const want = success ? named(o.call) : null
      const got = [o.batchId ?? null, o.metaBatchId ?? null]
      const expected = [want, o.metaBatchId === undefined ? null : want]
      return JSON.stringify(got) === JSON.stringify(expected) ? [] : [`${o.call.method.toUpperCase()} ${o.url} → ${o.status}: ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`]
    })
    expect(wrong.slice(0, 20), `${wrong.length} answers name the wrong batch`).toEqual([])
    // the current batch and a named one both answered: not one value everywhere
    expect(outcomes.filter((o) => o.status === 200 && o.batchId === current).length).toBeGreaterThan(100)
  })

  it("every 4xx/5xx answer is an RFC 9457 problem document whose type is its code's entry on /docs, with one title per code", () => {
    const { wrong, titles, checked, codes } = problemCheck(outcomes, anchors)
    expect(wrong.slice(0, 20), `${wrong.length} of ${checked} error answers are not problem documents`).toEqual([])
    expect(titles, "codes answered with more than one title").toEqual({})
    // the sweep's errors: keys refused and spent, ids unknown, values invalid, batches gone, FI/ETF data missing
    expect([...codes].sort()).toEqual(
      expect.arrayContaining(["invalid_parameter", "not_found", "quota_exceeded", "unauthorized", ...(fiPart ? ["batch_not_retained"] : ["fi_unavailable"])]),
    )
  })

  it.each(ALL_OPERATIONS.map(operationOf))("%s: every answer has a declared status and fits its schema", (op) => {
    const mine = outcomes.filter((o) => operationOf(o.call) === op)
    expect(mine.length).toBeGreaterThan(0)
    const wrong = mine
      .filter((o) => o.problems.length > 0)
      .map((o) => `${o.call.method.toUpperCase()} ${o.url} → ${o.status}\n    ${o.problems.slice(0, 6).join("\n    ")}`)
    expect(wrong, `${wrong.length} of ${mine.length} answers do not fit`).toEqual([])
  })
})

describe("every answer of the per-IP limit fits /openapi.json", () => {
  const fx = makeFixtureA()
  let server: RunningServer
  let validator: ContractValidator
  let outcomes: Outcome[] = []
  let health: Reply
  let anchors: ReadonlySet<string> = new Set()
  beforeAll(async () => {
    // a bucket of two requests (the document and /health), refilled once a second: the sweep's calls are over the limit
    server = await startServer({ dataDir: fx.dataDir, rateLimit: { perSecond: 1, burst: 2 } })
    const doc = JSON.parse((await send(`${server.url}/openapi.json`, { method: "get", path: "/openapi.json" })).text)
    health = await send(`${server.url}/health`, { method: "get", path: "/health" })
    validator = contractValidator(doc)
    outcomes = (await sweep(server.url, validator, oneCallEach(), 1)).outcomes
    // after the sweep, once the bucket has a token again
    await new Promise((r) => setTimeout(r, 1100))
    anchors = errorAnchorsOf((await send(`${server.url}/docs`, { method: "get", path: "/docs" })).text)
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("answers 429 on (nearly) every operation but the probes, each a declared status with a body that fits", () => {
    const probes = new Set(["/livez", "/readyz"])
    // a balancer's checks from one address are never refused
    expect(outcomes.filter((o) => probes.has(o.call.path)).every((o) => o.status === 200)).toBe(true)
    expect(outcomes.filter((o) => o.status === 429).length).toBeGreaterThan(ALL_OPERATIONS.length - probes.size - 3)
    const wrong = outcomes.filter((o) => o.problems.length > 0).map((o) => `${operationOf(o.call)} → ${o.status}: ${o.problems.join("; ")}`)
    expect(wrong).toEqual([])
  })

  it("each 429 is an RFC 9457 problem document of type /docs#error-rate_limited", () => {
    expect(anchors.has("error-rate_limited")).toBe(true)
    const { wrong, codes } = problemCheck(outcomes, anchors)
    expect(wrong).toEqual([])
    expect([...codes]).toEqual(["rate_limited"])
  })

  it("the checker finds an undeclared status, field, type or content type, and a body where none is declared", () => {
    expect(health.status).toBe(200)
    const good = JSON.parse(health.text)
    const json = (status: number, body: unknown, type = "application/json"): Reply => ({
      status,
      headers: { "content-type": type },
      text: JSON.stringify(body),
    })
    expect(validator.problems("get", "/health", json(200, good))).toEqual([])
    expect(validator.problems("get", "/health", json(418, good))).not.toEqual([])
    expect(validator.problems("get", "/health", json(200, { ...good, extra: 1 }))).not.toEqual([])
    expect(validator.problems("get", "/health", json(200, { ...good, total_records: String(good.total_records) }))).not.toEqual([])
    expect(validator.problems("get", "/health", json(200, good, "text/html"))).not.toEqual([])
    expect(validator.problems("delete", "/api/me", json(204, {}))).not.toEqual([])
    expect(validator.problems("delete", "/api/me", { status: 204, headers: {}, text: "" })).toEqual([])
  })
})
