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
import { Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUnsubscribe } from "../../accounts/UnsubscribeTokens.ts"
import { SqliteLedger } from "../../pipeline/ledger/Ledger.ts"
import { linkIn, outbox } from "../accounts/support/mail.ts"
import { type OidcProvider, signInAtProvider, startOidcProvider } from "../accounts/support/oidcProvider.ts"
import { makeFiFixture } from "../fi/fiFixture.ts"
import { type ContractValidator, contractValidator } from "../support/openApiValidator.ts"
import { errorAnchorsOf, type ProblemSeen, problemDocumentIssues, titlesNotFixed } from "../support/problemDocument.ts"
import { createKey, type RunningServer, startServer } from "../support/server.ts"
import { publishSmallSample } from "../support/smallSample.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { startReceiver } from "../webhooks/support/receiver.ts"
import { ALL_OPERATIONS } from "./specOperations.ts"
import { type Call, dataCalls, headerOf, type Json, type Method, operationOf, type Reply, readBatch, send, UNKNOWN_UUID, urlOf } from "./sweepCalls.ts"


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
// The webhook routes: an endpoint made, listed, tested (to a real receiver), deleted; and refused.

const webhookCalls = async (base: string, key: string, validator: ContractValidator): Promise<{ outcomes: Outcome[]; replies: Reply[] }> => {
  const receiver = await startReceiver()
  const outcomes: Outcome[] = []
  const replies: Reply[] = []
  const headers = { "x-api-key": key }
  const run = async (c: Call): Promise<Reply> => {
    const url = urlOf(base, c)
    const reply = await send(url, c)
    outcomes.push(outcomeOf(validator, c, url, reply))
    replies.push(reply)
    return reply
  }
  try {
    for (const json of [{}, { url: "not a url", events: ["batch.published"] }, { url: receiver.url, events: ["nothing.happened"] }]) {
      await run({ method: "post", path: "/api/webhooks", json, headers })
    }
    const created = await run({ method: "post", path: "/api/webhooks", json: { url: receiver.url, events: ["batch.published"] }, headers })
    const made = JSON.parse(created.text) as { id?: string; secret?: string }
    receiver.secret = made.secret ?? ""
    const webhook_id = made.id ?? "whk_0000000000000000"
    await run({ method: "get", path: "/api/webhooks", headers })
    await run({ method: "post", path: "/api/webhooks/{webhook_id}/test", params: { webhook_id }, headers })
    await run({ method: "get", path: "/api/webhooks/{webhook_id}/deliveries", params: { webhook_id }, headers })
    await run({ method: "delete", path: "/api/webhooks/{webhook_id}", params: { webhook_id }, headers })
    for (const c of [
      { method: "delete", path: "/api/webhooks/{webhook_id}" },
      { method: "get", path: "/api/webhooks/{webhook_id}/deliveries" },
      { method: "post", path: "/api/webhooks/{webhook_id}/test" },
    ] as const) {
      await run({ ...c, params: { webhook_id }, headers })
    }
  } finally {
    await receiver.close()
  }
  return { outcomes, replies }
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
  await publishSmallSample(dataDir)
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
      // the webhook routes' receiver is on loopback
      FDS_WEBHOOKS_ALLOW_PRIVATE: "1",
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
  const server: RunningServer = await startServer({ dataDir: fx.dataDir, env: { FDS_WEBHOOKS_ALLOW_PRIVATE: "1" } })
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
    const swept = await sweep(served.url, validator, dataCalls(batch, key))
    // the webhook routes change state: one after the other, after the data routes
    const hooks = await webhookCalls(served.url, key, validator)
    const data = { outcomes: [...swept.outcomes, ...hooks.outcomes], replies: [...swept.replies, ...hooks.replies] }
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
    // the data routes: the 28 that take ?batch= (/api/holders and /api/market/flows among them, #31), the three downloads, the three release files (#31),
    // the Parquet files (#31) and /api/changes; the document says so of each
    expect(naming.length).toBe(36)
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
    // a bucket of three requests (the document, /health and /docs) that next to never refills (one
    // token in 1,000 s): every call of the sweep is over the limit, however slowly a loaded machine sends them
    server = await startServer({ dataDir: fx.dataDir, rateLimit: { perSecond: 0.001, burst: 3 } })
    const doc = JSON.parse((await send(`${server.url}/openapi.json`, { method: "get", path: "/openapi.json" })).text)
    health = await send(`${server.url}/health`, { method: "get", path: "/health" })
    anchors = errorAnchorsOf((await send(`${server.url}/docs`, { method: "get", path: "/docs" })).text)
    validator = contractValidator(doc)
    outcomes = (await sweep(server.url, validator, oneCallEach(), 1)).outcomes
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
