/**
 * Warm on swap (issue #32 item 2): before a checked batch serves, the previous batch's hottest
 * kept answers (AnswerCache.ts: the most hits, at most FDS_WARM_ANSWERS) are computed for it and
 * kept on its shelf, so the first clients after the swap are answered from the cache instead of
 * all running the routes at once.
 *
 * Each answer is the route's own: the request target and Accept of its key are sent, one at a
 * time, to a router of the data routes (the groups that pin a batch: catalog, returns, market,
 * fi, holders) whose snapshot store leases the new batch, its key middleware a pass-through that keeps the
 * strict query check; the route's PinSnapshot keeps what it answers under the key, as for a
 * client (so a warmed answer also counts as a miss: the route ran). The key check, the quota,
 * Batch-Id and the caching headers stay per request, as for any hit. Not warmed: a key whose
 * target names a batch (`?batch=`: its answers never change and are kept on that batch's
 * shelf), an MCP tool's key (`mcp …`), a target that does not read back as the same URL (one a
 * Web request would spell otherwise), and what the new batch answers with anything but a
 * keepable 200.
 *
 * Between two answers the event loop serves the batch still current; the warm stops at the first
 * step after its swap is given up (a newer CURRENT, the API stopping) or after FDS_WARM_ANSWERS_MS
 * (the swap waits for it at most that, plus one answer). `warming answers` is logged as it begins,
 * `answers warmed` with the count and milliseconds as it ends (and the longest one answer took,
 * and the event loop's longest delay meanwhile: the most a client of the batch still served
 * waited for it; the answers are computed on the event loop, in steps); fds_answer_cache_warmed_total
 * counts them (those of a swap given up too).
 */
import { monitorEventLoopDelay } from "node:perf_hooks"
import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { HttpApi, HttpApiBuilder } from "effect/http-api"
import type { KeyRecord } from "../../accounts/KeyStore.ts"
import { CatalogHandlers } from "../catalog/Catalog.ts"
import { CatalogApi } from "../catalog/CatalogApi.ts"
import { FiHandlers } from "../fi/Fi.ts"
import { FiApi } from "../fi/FiApi.ts"
import { FiReturnsLive } from "../fi/FiReturns.ts"
import { HoldersHandlers } from "../holders/Holders.ts"
import { HoldersApi } from "../holders/HoldersApi.ts"
import { refuseUnknownQuery } from "../http/StrictQuery.ts"
import { MarketHandlers } from "../market/Market.ts"
import { MarketApi } from "../market/MarketApi.ts"
import type { OffThreadRenderer } from "../market/OffThreadRender.ts"
import { ReturnsHandlers } from "../returns/Returns.ts"
import { ReturnsApi } from "../returns/ReturnsApi.ts"
import { ApiKeyAuth, CurrentKey, RequestValidation } from "../security/Security.ts"
import { numberSetting } from "../system/Settings.ts"
import { RequestValidationLive } from "../security/SecurityLive.ts"
import { type AnswerCache, AnswerCacheService } from "./AnswerCache.ts"
import { BATCH_PARAMETER, PinnedRecord, PinSnapshotLive, pinRecord } from "./Pinned.ts"
import { type Lease, type LeaseKeeper, type SnapshotHandle, snapshotChanged, snapshotDamaged } from "./SnapshotHandle.ts"
import { SnapshotMissing, SnapshotStore } from "./SnapshotStore.ts"
import { log } from "./StoreFaults.ts"
import type { SwapWarm } from "./Warm.ts"

/** FDS_WARM_ANSWERS: how many of the previous batch's hottest answers a new batch computes before it serves (0 to 1024; 0: none), default 64. */
export const warmAnswersCount = numberSetting("FDS_WARM_ANSWERS")

/** FDS_WARM_ANSWERS_MS: the most milliseconds a swap spends computing them (1 to 60000), default 1000. */
export const warmAnswersMillis = numberSetting("FDS_WARM_ANSWERS_MS")

/** The request a kept answer's key stands for (its target as sent and its Accept, api/http/Caching.ts). */
export interface WarmRequest {
  readonly key: string
  readonly target: string
  readonly accept: string
}

const ACCEPT = "\naccept: "

/**
 * The request of an HTTP answer's key; null for one not to warm: an MCP tool's, a target that
 * names a batch, one a Web request would not send back exactly as it is (its URL spelled
 * otherwise once parsed: then the route would not see the target its key names).
 */
export const warmRequest = (key: string): WarmRequest | null => {
  const at = key.indexOf(ACCEPT)
  if (at < 0) return null
  const target = key.slice(0, at)
  if (!/^https?:\/\//.test(target) || !URL.canParse(target)) return null
  const url = new URL(target)
  if (url.href !== target || url.searchParams.has(BATCH_PARAMETER) || url.search.includes(BATCH_PARAMETER)) return null
  return { key, target, accept: key.slice(at + ACCEPT.length) }
}

/** The data routes: the groups whose answers are kept (they pin a batch); named like the API, so their handlers implement it unchanged. */
class WarmApi extends HttpApi.make("fund-data-service")
  .add(CatalogApi)
  .add(ReturnsApi)
  .add(MarketApi)
  .add(FiApi)
  .add(HoldersApi)
  .middleware(RequestValidation) {}

/** No route reachable here reads the key; the request's own key check and quota come with the request that is answered. */
const WARM_CALLER: KeyRecord = { id: 0, lookup: "warm", name: "warm", email: "", tier: "internal", dailyQuota: null, createdAt: "" }

/** The key middleware without the key: the strict query check only (ApiKeyAuthLive makes it after the key). */
const NoKey = Layer.succeed(ApiKeyAuth)(
  ApiKeyAuth.of({
    apiKey: (httpEffect, { endpoint }) => Effect.andThen(refuseUnknownQuery(endpoint), Effect.provideService(httpEffect, CurrentKey, WARM_CALLER)),
  }),
)

const routes = HttpApiBuilder.layer(WarmApi).pipe(
  Layer.provide([CatalogHandlers, ReturnsHandlers, MarketHandlers, FiHandlers, HoldersHandlers]),
  Layer.provide([NoKey, RequestValidationLive, FiReturnsLive, PinSnapshotLive]),
)

/** The lease of a warm's request: on the batch being warmed. */
class WarmLease extends Context.Service<WarmLease, Lease>()("fds/api/WarmLease") {}

/** The store as the warm's routes see it: every lease they take is their request's (WarmLease), never the current batch's. */
const leasingWarmed = (store: SnapshotStore["Service"]): SnapshotStore["Service"] =>
  SnapshotStore.of({
    ...store,
    lease: Effect.flatMap(Effect.serviceOption(WarmLease), (lease) =>
      Option.isSome(lease) ? Effect.succeed(lease.value) : Effect.fail(new SnapshotMissing()),
    ),
  })

/** Why a warm ended before its last answer. */
export type WarmStop = "abandoned" | "budget"

/** What one warm did. */
export interface WarmOutcome {
  /** The hot keys it was to warm. */
  readonly hot: number
  /** Answers kept on the new batch. */
  readonly warmed: number
  readonly millis: number
  readonly stopped: WarmStop | null
  /** The longest one answer took (its route's time, waits for another thread included): the most it can have held the event loop. */
  readonly longestMillis: number
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * Computes `requests` one by one with `answer` (true: kept), giving the event loop back between
 * two, until `stillWanted` turns false or `budgetMillis` have passed.
 */
export const warmInSteps = async (
  requests: ReadonlyArray<WarmRequest>,
  answer: (request: WarmRequest) => Promise<boolean>,
  stillWanted: () => boolean,
  budgetMillis: number,
): Promise<WarmOutcome> => {
  const began = performance.now()
  let warmed = 0
  let longest = 0
  let stopped: WarmStop | null = null
  for (const request of requests) {
    if (!stillWanted()) stopped = "abandoned"
    else if (performance.now() - began >= budgetMillis) stopped = "budget"
    if (stopped !== null) break
    const started = performance.now()
    if (await answer(request)) warmed++
    longest = Math.max(longest, performance.now() - started)
    await turn()
  }
  return { hot: requests.length, warmed, millis: Math.round(performance.now() - began), stopped, longestMillis: Math.round(longest * 10) / 10 }
}

/** The previous batch's hottest answers' requests, at most `count`. */
const hotRequests = (cache: AnswerCache, previous: SnapshotHandle, count: number): ReadonlyArray<WarmRequest> =>
  cache
    .shelfOn((key, compute) => previous.memo(key, compute))
    .hottest(count, (key) => warmRequest(key) !== null)
    .map((key) => warmRequest(key)!)

/**
 * Attaches the answers' warm to the store's (Warm.ts) while the server runs, sized by
 * FDS_WARM_ANSWERS and FDS_WARM_ANSWERS_MS; nothing with either the cache or the count at 0.
 */
export const answerWarmLayer = (swapWarm: SwapWarm) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const count = yield* warmAnswersCount
      const budgetMillis = yield* warmAnswersMillis
      const cache = yield* AnswerCacheService
      if (count === 0 || !cache.enabled) return
      const store = yield* SnapshotStore
      // A router of its own (as api/mcp/RouteCaller.ts): with the server's memo map the routes would
      // land in the server's router. The handlers run in the context they were built in, over the
      // request's: they are built with a store whose lease is the request's (the new batch's).
      const app = yield* HttpRouter.toHttpEffect(routes.pipe(Layer.provide(NodeHttpServer.layerHttpServices))).pipe(
        Effect.provideService(Layer.CurrentMemoMap, Layer.makeMemoMapUnsafe()),
        Effect.provideService(SnapshotStore, leasingWarmed(store)),
      )
      // the routes' per-request services that are the server's: the off-thread renderer
      const run = Effect.runPromiseWith(yield* Effect.context<OffThreadRenderer>())
      // a corrupt read marks the handle damaged; the swap then refuses it (SwapState.swapIn)
      const keeper = (dir: string): LeaseKeeper => ({
        dir,
        closed: snapshotChanged,
        damaged: snapshotDamaged,
        doubted: (handle) => handle.suspect !== null,
        suspect: () => {},
      })
      /** The route's answer to `request` on `next`'s lease, kept by its PinSnapshot when it may be. */
      const answerOn =
        (lease: Lease) =>
        ({ key, target, accept }: WarmRequest): Promise<boolean> => {
          const record = pinRecord({ cache, key })
          const request = HttpServerRequest.fromWeb(new Request(target, { headers: accept === "" ? {} : { accept } }))
          return run(
            app.pipe(
              Effect.provideService(HttpServerRequest.HttpServerRequest, request),
              Effect.provideService(PinnedRecord, record),
              Effect.provideService(WarmLease, lease),
              Effect.scoped,
              Effect.exit,
            ),
          ).then(() => record.answer !== null)
        }
      const warm = async (next: SnapshotHandle, stillWanted: () => boolean): Promise<void> => {
        const previous = store.current()
        if (previous === null || previous === next) return
        const requests = hotRequests(cache, previous, count)
        if (requests.length === 0) return
        log("info", "warming answers", { file: next.file, from: previous.file, hot: requests.length })
        next.acquire()
        // what the clients of the batch still served felt: the event loop's delay while it ran
        const delay = monitorEventLoopDelay({ resolution: 10 })
        delay.enable()
        try {
          const outcome = await warmInSteps(requests, answerOn(next.lease(keeper(store.dir))), stillWanted, budgetMillis)
          delay.disable()
          cache.warmed += outcome.warmed
          log("info", "answers warmed", {
            file: next.file,
            from: previous.file,
            hot: outcome.hot,
            warmed: outcome.warmed,
            warm_answers_ms: outcome.millis,
            longest_answer_ms: outcome.longestMillis,
            loop_delay_max_ms: Math.round(delay.max / 1e5) / 10,
            ...(outcome.stopped === null ? {} : { stopped: outcome.stopped }),
          })
        } finally {
          delay.disable()
          next.release()
        }
      }
      yield* Effect.acquireRelease(
        Effect.sync(() => swapWarm.attach(warm)),
        (detach) => Effect.sync(detach),
      )
    }),
  )
