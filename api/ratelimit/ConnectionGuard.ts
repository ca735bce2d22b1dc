/**
 * Guards against clients that hold sockets (slowloris: many connections, each sending its headers
 * a byte at a time), at the Node level, before any request exists:
 *   - a request's headers must arrive within FDS_HEADERS_TIMEOUT_MS and the whole request within
 *     FDS_REQUEST_TIMEOUT_MS (Node's own limits are 60 s and 300 s); a late one is answered 408
 *     (api/http/RequestLog.ts) and its connection closed. An idle keep-alive connection is Node's
 *     keep-alive timeout's (5 s), not these;
 *   - one address holds at most FDS_MAX_CONNECTIONS_PER_IP open connections (IPv6 counted by its
 *     /64, as the rate limit does); a connection over the cap is closed at once, before anything is
 *     read. The trusted proxies (FDS_TRUSTED_PROXIES) are not capped: behind them every client
 *     arrives from their address.
 */
import type { Server } from "node:http"
import type { Socket } from "node:net"
import { Effect, Result } from "effect"
import { IpNetwork, NetAddress } from "effect/net"
import { logLine } from "../../snapshots/Log.ts"
import { numberSetting } from "../system/Settings.ts"
import { clientKey, parseNetworks } from "./Edge.ts"

export interface ConnectionLimits {
  /** Time a client has to send a request's headers, in ms (default 10 000). */
  readonly headersTimeoutMillis?: number | undefined
  /** Time a client has to send a whole request, headers and body, in ms (default 30 000). */
  readonly requestTimeoutMillis?: number | undefined
  /** Open connections one address may hold; absent: no cap (embedding in tests); `./fds serve` always sets it. */
  readonly maxConnectionsPerIp?: number | undefined
  /** Addresses or CIDR networks of reverse proxies, which the cap does not apply to. */
  readonly trustedProxies?: ReadonlyArray<string> | undefined
}

export const DEFAULT_HEADERS_TIMEOUT_MILLIS = 10_000
export const DEFAULT_REQUEST_TIMEOUT_MILLIS = 30_000

/** The limits `./fds serve` applies, from FDS_HEADERS_TIMEOUT_MS, FDS_REQUEST_TIMEOUT_MS and FDS_MAX_CONNECTIONS_PER_IP. */
export const connectionLimitsFromEnv = Effect.gen(function* () {
  const headersTimeoutMillis = yield* numberSetting("FDS_HEADERS_TIMEOUT_MS")
  const requestTimeoutMillis = yield* numberSetting("FDS_REQUEST_TIMEOUT_MS")
  // Node refuses it too, in its own words
  if (headersTimeoutMillis > requestTimeoutMillis) {
    return yield* Effect.fail(
      new Error(`FDS_HEADERS_TIMEOUT_MS (${headersTimeoutMillis}) must not exceed FDS_REQUEST_TIMEOUT_MS (${requestTimeoutMillis})`),
    )
  }
  // 0 turns the cap off (load benchmarks from one address)
  const cap = yield* numberSetting("FDS_MAX_CONNECTIONS_PER_IP")
  return { headersTimeoutMillis, requestTimeoutMillis, maxConnectionsPerIp: cap > 0 ? cap : undefined } satisfies ConnectionLimits
})

/**
 * Node's timeouts as options of `createServer`. Node checks them on a timer (every 30 s by
 * default, which would let a header trickle on for up to 30 s past its limit): here a quarter of
 * the headers timeout, at most a second.
 */
export const timeoutOptions = (limits: ConnectionLimits = {}) => {
  const headersTimeout = limits.headersTimeoutMillis ?? DEFAULT_HEADERS_TIMEOUT_MILLIS
  const requestTimeout = limits.requestTimeoutMillis ?? DEFAULT_REQUEST_TIMEOUT_MILLIS
  return {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 4))),
  }
}

const trusted = (networks: ReadonlyArray<IpNetwork.IpNetwork>, address: string): boolean => {
  if (networks.length === 0) return false
  const ip = NetAddress.ipFromString(address)
  if (Result.isFailure(ip)) return false
  const canonical = NetAddress.toCanonical(ip.success)
  return networks.some((network) => IpNetwork.contains(network, canonical))
}

/**
 * Closes, as they arrive, connections over the per-address cap (when there is one). An address
 * refused is logged once (a warning on stderr), not again until all its connections have closed:
 * a client holding its sockets open makes one line, however often it retries.
 */
export const guardConnections = (server: Server, limits: ConnectionLimits = {}): void => {
  const cap = limits.maxConnectionsPerIp
  if (cap === undefined) return
  const proxies = parseNetworks(limits.trustedProxies ?? [])
  const open = new Map<string, number>()
  const refused = new Set<string>()
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress
    if (address === undefined) return // already closed
    if (trusted(proxies, address)) return
    const key = clientKey(address)
    const held = open.get(key) ?? 0
    if (held >= cap) {
      socket.destroy()
      if (!refused.has(key)) {
        refused.add(key)
        logLine("warn", `connections refused: ${held} open from one address (FDS_MAX_CONNECTIONS_PER_IP)`, { address: key })
      }
      return
    }
    open.set(key, held + 1)
    socket.once("close", () => {
      const left = (open.get(key) ?? 1) - 1
      if (left > 0) {
        open.set(key, left)
      } else {
        open.delete(key)
        refused.delete(key)
      }
    })
  })
}
