/**
 * What every request passes before routing, in this order:
 *   1. the client address: the socket's peer, or X-Forwarded-For when (and only when) the peer is
 *      one of the configured proxies (FDS_TRUSTED_PROXIES);
 *   2. the per-IP token bucket (10/s, burst 20 by default), on every route and before any key
 *      check, so its 429 consumes no quota; it carries Retry-After: 1 and no X-RateLimit-* headers;
 *   3. CORS for data routes.
 */
import { Clock, Effect, Option, Result } from "effect"
import { HttpMiddleware, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { IpNetwork, NetAddress } from "effect/net"
import { routePath } from "../http/RoutePath.ts"
import { cors, corsHeaders } from "../web/Cors.ts"
import { TokenBuckets } from "./TokenBucket.ts"

export interface EdgeOptions {
  /** Absent: no per-IP limit (embedding in tests); `./fds serve` always sets it. */
  readonly rateLimit?: { readonly perSecond: number; readonly burst: number } | undefined
  /**
   * Where the buckets are kept: "process" (this process's memory) or "shared" (the accounts
   * store's PostgreSQL, so that the limit holds across replicas; SharedBuckets.ts). Default:
   * "shared" when the store is PostgreSQL, else "process".
   */
  readonly rateLimitStore?: "process" | "shared" | undefined
  /** Addresses or CIDR networks of reverse proxies whose X-Forwarded-For is believed. */
  readonly trustedProxies?: ReadonlyArray<string> | undefined
}

/** Parses FDS_TRUSTED_PROXIES entries ("10.0.0.1", "10.0.0.0/8", "::1"); throws on a bad one. */
export const parseNetworks = (entries: ReadonlyArray<string>): ReadonlyArray<IpNetwork.IpNetwork> =>
  entries.map((entry) => {
    const text = entry.includes("/") ? entry : `${entry}/${entry.includes(":") ? 128 : 32}`
    const parsed = IpNetwork.fromString(text)
    if (Result.isFailure(parsed)) throw new Error(`not an IP address or network: ${entry}`)
    return parsed.success
  })

/**
 * The bucket key of an address: IPv4 (also IPv4-mapped IPv6) as is; IPv6 by its /64, since one
 * subscriber usually holds a whole /64 and could otherwise spread over it.
 */
export const clientKey = (address: string): string => {
  const parsed = NetAddress.ipFromString(address)
  if (Result.isFailure(parsed)) return address
  let ip = parsed.success
  if (NetAddress.isIpv6Address(ip)) {
    const v4 = NetAddress.fromIpv4Mapped(ip)
    if (Option.isSome(v4)) ip = v4.value
  }
  if (NetAddress.isIpv4Address(ip)) return NetAddress.formatIp(ip)
  return IpNetwork.format(IpNetwork.fromAddressUnsafe(ip, 64))
}

/** The client's address as the edge sees it (after the trusted-proxy rule). */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest): string =>
  clientKey(Option.getOrElse(request.remoteAddress, () => "unknown"))

const tooMany = (request: HttpServerRequest.HttpServerRequest, limit: { readonly perSecond: number; readonly burst: number }) =>
  HttpServerResponse.jsonUnsafe(
    {
      error: "rate_limited",
      status: 429,
      message: `too many requests from this address (${limit.perSecond} per second, bursts up to ${limit.burst}); retry after 1 s`,
    },
    { status: 429, headers: { "retry-after": "1", ...corsHeaders(request) } },
  )

/** Takes a token for an address: true = served. A shared store answers asynchronously. */
export type TakeToken = (key: string, nowMs: number) => boolean | Promise<boolean>

/** The probes and the metrics: a balancer's checks from one address must never be refused. */
const UNLIMITED = new Set(["/livez", "/readyz", "/metrics"])

const limited = <E, R>(
  take: TakeToken,
  limit: { readonly perSecond: number; readonly burst: number },
  onRefused: () => void,
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (UNLIMITED.has(routePath(request.url) ?? "")) return yield* app
    const now = yield* Clock.currentTimeMillis
    const taken = take(clientAddress(request), now)
    const served = typeof taken === "boolean" ? taken : yield* Effect.promise(() => taken)
    if (!served) {
      onRefused()
      return tooMany(request, limit)
    }
    return yield* app
  })

/**
 * The edge as a global router middleware. `shared`: the buckets of the fleet (SharedBuckets.ts)
 * when they are kept in the accounts store, else each process keeps its own.
 */
export const edgeLayer = (options: EdgeOptions, hooks: { readonly rateLimited?: () => void; readonly shared?: TakeToken | undefined } = {}) =>
  HttpRouter.middleware(
    Effect.sync(() => {
      const forwarded = HttpMiddleware.xForwardedHeaders({ trustedProxies: parseNetworks(options.trustedProxies ?? []) })
      const limit = options.rateLimit
      if (limit === undefined) return (app: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>) => forwarded(cors(app))
      const local = new TokenBuckets(limit)
      const take: TakeToken = hooks.shared ?? ((key, now) => local.take(key, now))
      const onRefused = hooks.rateLimited ?? (() => {})
      return (app: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>) => forwarded(limited(take, limit, onRefused, cors(app)))
    }),
    { global: true },
  )
