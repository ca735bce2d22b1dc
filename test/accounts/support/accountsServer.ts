/**
 * The real API server in-process on 127.0.0.1 (ephemeral port) for the account tests, with its
 * settings from an explicit environment (never the host's), optional per-IP limits and trusted
 * proxies, and optionally a clock the test sets (only the time of day; sleeping stays real).
 */
import { Clock, ConfigProvider, Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpServer } from "effect/http"
import { request } from "undici"
import type { EdgeOptions } from "../../../api/ratelimit/Edge.ts"
import { ServerLive } from "../../../api/Server.ts"
import { logLinesTo } from "../../support/testLog.ts"

export interface AccountsServer {
  readonly url: string
  readonly close: () => Promise<void>
}

/** A clock whose time of day the test sets; sleeping is delegated to the real clock. */
export class ManualClock implements Clock.Clock {
  nowMs: number
  private readonly real = Clock.Clock.defaultValue()
  constructor(nowMs: number) {
    this.nowMs = nowMs
  }
  currentTimeMillisUnsafe = (): number => this.nowMs
  currentTimeMillis = Effect.sync(() => this.nowMs)
  currentTimeNanosUnsafe = (): bigint => BigInt(this.nowMs) * 1_000_000n
  currentTimeNanos = Effect.sync(() => BigInt(this.nowMs) * 1_000_000n)
  monotonicTimeNanosUnsafe = (): bigint => this.real.monotonicTimeNanosUnsafe()
  monotonicTimeNanos = Effect.sync(() => this.real.monotonicTimeNanosUnsafe())
  sleep = (duration: Parameters<Clock.Clock["sleep"]>[0]) => this.real.sleep(duration)
}

export const startAccountsServer = async (options: {
  readonly dataDir: string
  readonly env?: Readonly<Record<string, string>>
  readonly clock?: ManualClock
} & EdgeOptions): Promise<AccountsServer> => {
  const scope = Effect.runSync(Scope.make())
  let layer = ServerLive({
    dataDir: options.dataDir,
    host: "127.0.0.1",
    port: 0,
    rateLimit: options.rateLimit,
    trustedProxies: options.trustedProxies,
    accessLog: logLinesTo("access log"),
    errorLog: logLinesTo("error log"),
  }).pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ ...options.env }))))
  if (options.clock !== undefined) layer = layer.pipe(Layer.provide(Layer.succeed(Clock.Clock, options.clock)))
  const exit = await Effect.runPromiseExit(Layer.buildWithScope(layer, scope))
  if (Exit.isFailure(exit)) {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw new Error(`server did not start: ${String(exit.cause)}`)
  }
  const address = Context.get(exit.value, HttpServer.HttpServer).address
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  return { url: `http://127.0.0.1:${address.port}`, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

export interface Reply {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly text: string
  readonly body: unknown
}

/** One HTTP request with undici; a JSON body is parsed when there is one. */
export const call = async (
  url: string,
  init: { readonly method?: string; readonly headers?: Record<string, string>; readonly json?: unknown; readonly form?: Record<string, string> } = {},
): Promise<Reply> => {
  const headers: Record<string, string> = { ...init.headers }
  let body: string | undefined
  if (init.json !== undefined) {
    headers["content-type"] = "application/json"
    body = JSON.stringify(init.json)
  } else if (init.form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded"
    body = new URLSearchParams(init.form).toString()
  }
  const res = await request(url, { method: (init.method ?? "GET") as "GET", headers, ...(body === undefined ? {} : { body }) })
  const text = await res.body.text()
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: res.statusCode, headers: res.headers, text, body: parsed }
}

export const headerOf = (reply: Reply, name: string): string | undefined => {
  const v = reply.headers[name.toLowerCase()]
  return Array.isArray(v) ? v.join(", ") : v
}

/**
 * Opens a registration link as a person does: its page (a button; nothing is issued yet), then
 * the button's POST of the token from the page's own origin. The page of the POST is returned
 * (the key, or 410); a link page that is not 200 is returned as it is.
 */
export const openRegistrationLink = async (link: string): Promise<Reply> => {
  const origin = new URL(link).origin
  const page = await call(link)
  if (page.status !== 200) return page
  const token = /name="token" value="([^"]*)"/.exec(page.text)?.[1]
  if (token === undefined) throw new Error(`no token field on the link's page:\n${page.text}`)
  return call(`${origin}/register/verify`, { method: "POST", form: { token }, headers: { origin } })
}
