/**
 * GET /metrics: the Prometheus text format, for the monitoring system only. Answered to a client
 * whose address (after the trusted-proxy rule, api/ratelimit/Edge.ts) is in FDS_METRICS_ALLOW
 * (addresses or CIDR networks; default loopback), or that sends a key of the internal tier (checked,
 * not counted). Anyone else gets the 404 of an unknown path, or 403 with a key of another tier.
 */
import { Cause, Effect, Exit, Layer, Option, Result } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { IpNetwork, NetAddress } from "effect/net"
import { KeyStore } from "../../accounts/KeyStore.ts"
import { parseNetworks } from "../ratelimit/Edge.ts"
import type { ServiceMetrics } from "./Metrics.ts"
import { METRICS_PATH } from "./RouteTemplate.ts"
import { bearerToken } from "./Secrets.ts"

/** The default of FDS_METRICS_ALLOW: this machine only. */
export const DEFAULT_METRICS_ALLOW: ReadonlyArray<string> = ["127.0.0.0/8", "::1"]

const allowedAddress = (networks: ReadonlyArray<IpNetwork.IpNetwork>, address: Option.Option<string>): boolean => {
  if (Option.isNone(address)) return false
  const ip = NetAddress.ipFromString(address.value)
  if (Result.isFailure(ip)) return false
  let canonical = NetAddress.toCanonical(ip.success)
  // ::ffff:127.0.0.1 is 127.0.0.1
  if (NetAddress.isIpv6Address(canonical)) canonical = Option.getOrElse(NetAddress.fromIpv4Mapped(canonical), () => canonical)
  return networks.some((network) => IpNetwork.contains(network, canonical))
}

const refused = (status: 403 | 404, message: string) =>
  HttpServerResponse.jsonUnsafe({ error: status === 404 ? "not_found" : "forbidden", status, message }, { status })

export const metricsRoute = (metrics: ServiceMetrics, allow: ReadonlyArray<string>) =>
  HttpRouter.use((router) =>
    Effect.gen(function* () {
      const keys = yield* KeyStore
      const networks = parseNetworks(allow)
      yield* router.add("GET", METRICS_PATH, (request: HttpServerRequest.HttpServerRequest) =>
        Effect.gen(function* () {
          if (!allowedAddress(networks, request.remoteAddress)) {
            const key = request.headers["x-api-key"] ?? bearerToken(request.headers.authorization)
            if (key === undefined) return refused(404, `no route GET ${METRICS_PATH}`)
            const record = yield* keys.verify(key.trim()).pipe(Effect.orElseSucceed(() => null))
            if (record?.tier !== "internal") return refused(403, "the metrics need a key of the internal tier or an allowed address (FDS_METRICS_ALLOW)")
          }
          const text = yield* Effect.promise(() => metrics.registry.metrics())
          return HttpServerResponse.text(text, {
            contentType: metrics.registry.contentType,
            headers: { "cache-control": "no-store" },
          })
        }),
      )
    }),
  )

/** The key store with its calls on the hot path timed and their failures counted. */
export const instrumentedKeyStore = (metrics: ServiceMetrics) =>
  Layer.effect(
    KeyStore,
    KeyStore.useSync((keys) => {
      const timed = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> => {
        const started = performance.now()
        return Effect.onExit(effect, (exit) =>
          Effect.sync(() => {
            // a request whose client went away is not the store's failure
            if (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause)) return
            metrics.quotaStoreCall((performance.now() - started) / 1000, Exit.isSuccess(exit))
          }),
        )
      }
      return KeyStore.of({
        ...keys,
        verifyAndConsume: (key) => Effect.suspend(() => timed(keys.verifyAndConsume(key))),
        consume: (record) => Effect.suspend(() => timed(keys.consume(record))),
      })
    }),
  )
