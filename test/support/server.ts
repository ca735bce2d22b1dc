/**
 * The real API server, in-process, on 127.0.0.1 with an ephemeral port; keys made through the
 * real KeyStore (or the real CLI); and the one assertion helper for the error shape.
 */
import { execFile } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { ConfigProvider, Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpServer } from "effect/http"
import { request } from "undici"
import { expect } from "vitest"
import { KeyStore, type Tier } from "../../accounts/KeyStore.ts"
import type { AccessLogSink } from "../../api/http/RequestLog.ts"
import type { ErrorLogSink } from "../../api/http/ServerErrors.ts"
import type { EdgeOptions } from "../../api/ratelimit/Edge.ts"
import { ServerLive, type ServerOptions } from "../../api/Server.ts"
import { logLinesTo } from "./testLog.ts"

export interface RunningServer {
  readonly url: string
  readonly port: number
  readonly close: () => Promise<void>
}

export const startServer = async (options: {
  readonly dataDir: string
  readonly pollMillis?: number
  readonly drainMillis?: number
  /** Where access log lines go; by default the test's log, printed only if the test fails. */
  readonly accessLog?: AccessLogSink
  /** Where the error lines of failed requests go; by default the test's log, as the access lines. */
  readonly errorLog?: ErrorLogSink
  /**
   * Variables the server's configuration reads on top of process.env (effect's default provider
   * copies process.env once, so servers of one test process with other settings each get their own).
   */
  readonly env?: Record<string, string>
  /** The per-IP limit (`./fds serve` always sets one); none by default. */
  readonly rateLimit?: EdgeOptions["rateLimit"]
  /** Proxies whose X-Forwarded-For is believed (FDS_TRUSTED_PROXIES); none by default. */
  readonly trustedProxies?: ReadonlyArray<string>
  /** Who may read /metrics without an internal key (FDS_METRICS_ALLOW); loopback by default. */
  readonly metricsAllow?: ReadonlyArray<string>
  /** The fleet's part of readiness; always ready by default. */
  readonly fleetReadiness?: ServerOptions["fleetReadiness"]
}): Promise<RunningServer> => {
  const scope = Effect.runSync(Scope.make())
  const server = ServerLive({
    dataDir: options.dataDir,
    host: "127.0.0.1",
    port: 0,
    accessLog: options.accessLog ?? logLinesTo("access log"),
    errorLog: options.errorLog ?? logLinesTo("error log"),
    ...(options.pollMillis === undefined ? {} : { pollMillis: options.pollMillis }),
    ...(options.drainMillis === undefined ? {} : { drainMillis: options.drainMillis }),
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
    ...(options.trustedProxies === undefined ? {} : { trustedProxies: options.trustedProxies }),
    ...(options.metricsAllow === undefined ? {} : { metricsAllow: options.metricsAllow }),
    ...(options.fleetReadiness === undefined ? {} : { fleetReadiness: options.fleetReadiness }),
  })
  const layer =
    options.env === undefined
      ? server
      : server.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ ...process.env, ...options.env }))))
  const exit = await Effect.runPromiseExit(Layer.buildWithScope(layer, scope))
  if (Exit.isFailure(exit)) {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw new Error(`server did not start: ${String(exit.cause)}`)
  }
  const address = Context.get(exit.value, HttpServer.HttpServer).address
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  const port = address.port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
  }
}

export interface CreatedKey {
  readonly key: string
  readonly id: number
  readonly lookup: string
}

/** A key created through the real KeyStore on `<dataDir>/accounts.sqlite`. */
export const createKey = (
  dataDir: string,
  opts: { readonly email: string; readonly tier?: Tier; readonly dailyQuota?: number | null; readonly name?: string } = {
    email: "tester@example.cl",
  },
): Promise<CreatedKey> =>
  Effect.runPromise(
    Effect.gen(function* () {
      const keys = yield* KeyStore
      const created = yield* keys.create({
        email: opts.email,
        tier: opts.tier ?? "free",
        ...(opts.dailyQuota === undefined ? {} : { dailyQuota: opts.dailyQuota }),
        ...(opts.name === undefined ? {} : { name: opts.name }),
      })
      return { key: created.key, id: created.record.id, lookup: created.record.lookup }
    }).pipe(Effect.provide(KeyStore.layerSqlite(join(dataDir, "accounts.sqlite")))),
  )

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))

/** Runs `node api/main.ts keys create …` (the CLI behind ./fds keys create); returns stdout and stderr. */
export const runKeysCli = async (
  dataDir: string,
  args: ReadonlyArray<string>,
): Promise<{ readonly stdout: string; readonly stderr: string }> => {
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [join(repoRoot, "api", "main.ts"), "keys", "create", ...args],
    { env: { ...process.env, FDS_DATA_DIR: dataDir }, cwd: repoRoot, timeout: 20_000 },
  )
  return { stdout, stderr }
}

export interface JsonResponse {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: unknown
  readonly text: string
}

/** GET with undici; the body is parsed as JSON when it is JSON. */
export const get = async (url: string, headers: Record<string, string> = {}): Promise<JsonResponse> => {
  const res = await request(url, { method: "GET", headers })
  const text = await res.body.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: res.statusCode, headers: res.headers, body, text }
}

export const header = (res: JsonResponse, name: string): string | undefined => {
  const v = res.headers[name.toLowerCase()]
  return Array.isArray(v) ? v.join(", ") : v
}

/**
 * The one error shape, an RFC 9457 problem document: { type: "/docs#error-<error>", title: string,
 * status: <HTTP status>, detail: <= message>, instance: "urn:fds:request:<id>", error: string,
 * message: string, parameter?: string, issues?: [{ path: [...], message: string }] }, plus on a 5xx
 * request_id?: string (the X-Request-Id it was answered with), and nothing else. With the answer
 * (`of`), also its content type and that `instance` names its X-Request-Id.
 */
export const expectErrorShape = (body: unknown, status: number, of?: Pick<JsonResponse, "headers">): void => {
  expect(body, "error body is a JSON object").toBeTypeOf("object")
  expect(body).not.toBeNull()
  const b = body as Record<string, unknown>
  expect(typeof b.error, "error is a string").toBe("string")
  expect((b.error as string).length).toBeGreaterThan(0)
  expect(b.status, "status equals the HTTP status").toBe(status)
  expect(typeof b.message, "message is a string").toBe("string")
  expect((b.message as string).length).toBeGreaterThan(0)
  expect(b.type, "type is the code's entry on /docs").toBe(`/docs#error-${b.error}`)
  expect(typeof b.title, "title is a string").toBe("string")
  expect((b.title as string).length).toBeGreaterThan(0)
  expect(b.detail, "detail is the message").toBe(b.message)
  expect(b.instance, "instance is the request id as a URN").toMatch(/^urn:fds:request:[A-Za-z0-9._-]{1,64}$/)
  if (of !== undefined) {
    expect(of.headers["content-type"]).toBe("application/problem+json")
    expect(b.instance).toBe(`urn:fds:request:${of.headers["x-request-id"]}`)
  }
  const members = ["type", "title", "status", "detail", "instance", "error", "message", "parameter", "issues"]
  const allowed = new Set([...members, ...(status >= 500 ? ["request_id"] : [])])
  for (const k of Object.keys(b)) expect(allowed.has(k), `unexpected field ${k} in error body`).toBe(true)
  if ("parameter" in b) expect(typeof b.parameter).toBe("string")
  if ("request_id" in b) expect(typeof b.request_id).toBe("string")
  if ("issues" in b) {
    expect(Array.isArray(b.issues)).toBe(true)
    for (const issue of b.issues as unknown[]) {
      expect(issue).toBeTypeOf("object")
      const i = issue as Record<string, unknown>
      expect(Array.isArray(i.path)).toBe(true)
      for (const p of i.path as unknown[]) expect(["string", "number"]).toContain(typeof p)
      expect(typeof i.message).toBe("string")
    }
  }
}

/** Polls `check` until it returns true or `timeoutMillis` passes; returns whether it became true. */
export const waitFor = async (check: () => Promise<boolean>, timeoutMillis = 5000, stepMillis = 25): Promise<boolean> => {
  const deadline = Date.now() + timeoutMillis
  for (;;) {
    if (await check()) return true
    if (Date.now() > deadline) return false
    await new Promise((r) => setTimeout(r, stepMillis))
  }
}
