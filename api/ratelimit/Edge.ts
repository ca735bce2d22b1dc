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

/** An address as effect's X-Forwarded-For rule reads it (bracketed IPv6, an address with a port), canonical; undefined when it is none. */
const forwardedAddress = (input: string | undefined): NetAddress.IpAddress | undefined => {
  if (input === undefined) return undefined
  const ip = NetAddress.ipFromString(input.startsWith("[") && input.endsWith("]") ? input.slice(1, -1) : input)
  if (Result.isSuccess(ip)) return NetAddress.toCanonical(ip.success)
  const inet = NetAddress.inetAddressFromString(input)
  return Result.isSuccess(inet) ? NetAddress.toCanonical(inet.success.address) : undefined
}

/**
 * The bucket key of a request seen at the Node level (api/http/HitPath.ts), by the rule the
 * router's edge applies through effect's `xForwardedHeaders`: the peer's address, or, when the
 * peer is a trusted proxy, the X-Forwarded-For entry nearest to it that is not a trusted proxy
 * (the first entry whatever it is); an entry that is not an address leaves the peer's.
 */
export const nodeClientKey = (
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: ReadonlyArray<IpNetwork.IpNetwork>,
): string => {
  const plain = clientKey(peer ?? "unknown")
  if (trusted.length === 0) return plain
  const isTrusted = (address: NetAddress.IpAddress) => trusted.some((network) => IpNetwork.contains(network, address))
  const from = forwardedAddress(peer)
  if (from === undefined || !isTrusted(from)) return plain
  const addresses = forwardedFor?.split(",").map((a) => a.trim())
  if (addresses === undefined) return plain
  for (let index = addresses.length - 1; index >= 0; index--) {
    const address = forwardedAddress(addresses[index])
    if (address === undefined) return plain
    if (index > 0 && isTrusted(address)) continue
    return clientKey(NetAddress.formatIp(address))
  }
  return plain
}

/**
 * Node requests whose token the hit path took (api/http/HitPath.ts) before handing them to the
 * router: the edge does not take a second one.
 */
export const tokenTaken = new WeakSet<object>()

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
    if (UNLIMITED.has(routePath(request.url) ?? "") || tokenTaken.has(request.source)) return yield* app
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
 * The edge as a global router middleware. `take`: the buckets it shares (the fleet's in the
 * accounts store, SharedBuckets.ts, or this process's shared with the hit path); else its own.
 */
export const edgeLayer = (options: EdgeOptions, hooks: { readonly rateLimited?: () => void; readonly take?: TakeToken | undefined } = {}) =>
  HttpRouter.middleware(
    Effect.sync(() => {
      const forwarded = HttpMiddleware.xForwardedHeaders({ trustedProxies: parseNetworks(options.trustedProxies ?? []) })
      const limit = options.rateLimit
      if (limit === undefined) return (app: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>) => forwarded(cors(app))
      const local = hooks.take === undefined ? new TokenBuckets(limit) : undefined
      const take: TakeToken = hooks.take ?? ((key, now) => local!.take(key, now))
      const onRefused = hooks.rateLimited ?? (() => {})
      return (app: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>) => forwarded(limited(take, limit, onRefused, cors(app)))
    }),
    { global: true },
  )
