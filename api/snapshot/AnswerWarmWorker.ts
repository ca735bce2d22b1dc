/**
 * The warm's thread (AnswerWarm.ts): computes the answers of a new batch before it serves, off
 * the event loop that serves the batch still current. Started when a check of a new file begins
 * (while the previous batch holds hot answers), so the ~1 s of loading the routes overlaps the
 * check; it answers one order (WarmOrder) and is ended.
 *
 * Each answer is the route's own: the request target and Accept of its key are sent, one at a
 * time, to a router of the data routes (the groups that pin a batch: catalog, returns, market,
 * fi, holders) whose snapshot store leases the new batch (opened here read-only, the file the
 * check passed: its identity is checked again as it opens), its key middleware a pass-through
 * that keeps the strict query check; the route's PinSnapshot keeps what it answers, as for a
 * client, and that answer (status, headers, content type, bytes, the headers set at send time) is
 * posted back to be kept on the new batch's shelf. The server's settings come with the thread
 * (WarmWorkerData: every setting but the secrets, which no data route reads) and are all the
 * routes read here, so they answer what they answer there. Answers the routes render off their own thread (all-funds
 * at a date, the market summary) are rendered by a rendering thread of this one's.
 *
 * A stop (the budget spent, the swap given up) is looked at between two answers; the first
 * answer is always computed. A read that finds the file corrupt is said at once (`damaged`). The thread runs at a lower priority (on Linux the nice value is the
 * thread's), so requests win the CPU on a busy machine: a warm may wait, they should not.
 */
import { setPriority } from "node:os"
import { parentPort, workerData } from "node:worker_threads"
// the module, not the package: the package loads every platform module (~0.25 s more of the thread's start)
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { ConfigProvider, Context, Effect, Exit, Layer, Option, Scope } from "effect"
import { Cookies, HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder } from "effect/http-api"
import { ServiceUnavailable } from "../../schemas/ApiErrors.ts"
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
import { OffThreadRenderer } from "../market/OffThreadRender.ts"
import { ReturnsHandlers } from "../returns/Returns.ts"
import { ReturnsApi } from "../returns/ReturnsApi.ts"
import { ApiKeyAuth, CurrentKey, RequestValidation } from "../security/Security.ts"
import { RequestValidationLive } from "../security/SecurityLive.ts"
import { AnswerCache } from "./AnswerCache.ts"
import type { WarmFromThread, WarmOrder, WarmRequest, WarmToThread, WarmWorkerData } from "./AnswerWarm.ts"
import { PinnedRecord, PinSnapshotLive, pinRecord } from "./Pinned.ts"
import { type Lease, type LeaseKeeper, SnapshotHandle, snapshotChanged, snapshotDamaged } from "./SnapshotHandle.ts"
import { SnapshotMissing, SnapshotStore } from "./SnapshotStore.ts"

if (process.platform === "linux") {
  try {
    setPriority(0, 10)
  } catch {
    // not allowed here: the warm runs at normal priority
  }
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

const notHere = new ServiceUnavailable({ reason: "snapshot_unavailable", message: "not read while a batch is warmed", retryAfter: 1 })

/**
 * The store as the warm's routes see it: every lease they take is their request's (WarmLease);
 * nothing else of a store is read by a data route (PinSnapshot takes the lease; a key naming a
 * batch is never warmed), and anything else fails, so no answer is made of it.
 */
const store = SnapshotStore.of({
  lease: Effect.flatMap(Effect.serviceOption(WarmLease), (lease) =>
    Option.isSome(lease) ? Effect.succeed(lease.value) : Effect.fail(new SnapshotMissing()),
  ),
  current: () => null,
  faults: () => [],
  refresh: Effect.void,
  leaseBatch: () => Effect.fail(notHere),
  lookup: () => Effect.fail(notHere),
  published: Effect.fail(notHere),
  ledgerError: () => null,
  dir: "",
  pastOpen: () => [],
  retained: () => false,
  fleetProblem: () => null,
  fleetCurrent: () => null,
})

const post = (message: WarmFromThread, transfer: ReadonlyArray<ArrayBuffer> = []) => parentPort!.postMessage(message, [...transfer])

const { env } = workerData as WarmWorkerData
const configProvider = ConfigProvider.fromEnvRecord(env)

/** The router of the data routes, built once (the routes read their settings as it is built). */
const built = Effect.runPromise(
  HttpRouter.toHttpEffect(routes.pipe(Layer.provide(NodeHttpServer.layerHttpServices))).pipe(
    Effect.provideService(SnapshotStore, store),
    Effect.provideService(Scope.Scope, Scope.makeUnsafe()),
    Effect.provideService(ConfigProvider.ConfigProvider, configProvider),
  ),
)

/** The order under way, and whether it was told to stop. */
let stopping: { readonly id: number; stop: boolean } = { id: 0, stop: false }

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** A corrupt read marks the handle damaged (posted at once: the swap then refuses the file, SwapState.swapIn). */
const keeper = (dir: string): LeaseKeeper => ({
  dir,
  closed: snapshotChanged,
  damaged: snapshotDamaged,
  doubted: (handle) => handle.suspect !== null,
  suspect: () => {},
})

/** The route's answer to one request, posted back (or `skipped`: not one to keep, or the request could not be made). */
const answerOne = async (
  order: WarmOrder,
  { key, target, accept }: WarmRequest,
  run: <A, E>(effect: Effect.Effect<A, E, OffThreadRenderer>) => Promise<A>,
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest | Scope.Scope | OffThreadRenderer | PinnedRecord | WarmLease>,
  lease: Lease,
  cache: AnswerCache,
): Promise<void> => {
  const record = pinRecord({ cache, key })
  try {
    const request = HttpServerRequest.fromWeb(new Request(target, { headers: accept === "" ? {} : { accept } }))
    await run(
      app.pipe(
        Effect.provideService(HttpServerRequest.HttpServerRequest, request),
        Effect.provideService(PinnedRecord, record),
        Effect.provideService(WarmLease, lease),
        Effect.scoped,
        Effect.exit,
      ),
    )
  } catch {
    // a target the Web request refuses: not warmed (the route answers it when a client asks)
  }
  const answer = record.answer
  const sent = answer?.response.body
  if (answer === null || sent?._tag !== "Uint8Array" || !Cookies.isEmpty(answer.response.cookies)) {
    post({ _tag: "skipped", id: order.id, key })
    return
  }
  const { response } = answer
  const body = new Uint8Array(answer.body) // a copy in a buffer of its own (the route's may be a view of a pooled one), handed over
  post(
    {
      _tag: "answer",
      id: order.id,
      key,
      status: response.status,
      ...(response.statusText === undefined ? {} : { statusText: response.statusText }),
      headers: Object.fromEntries(Object.entries(response.headers)),
      contentType: sent.contentType,
      body,
      sendHeaders: { ...answer.sendHeaders },
    },
    [body.buffer as ArrayBuffer],
  )
  cache.forget(answer)
}

const warm = async (order: WarmOrder): Promise<void> => {
  const state = { id: order.id, stop: false }
  stopping = state
  let longest = 0
  let handle: SnapshotHandle | null = null
  let stopped: "budget" | null = null
  let saidDamaged = false
  // the rendering thread of this order's answers (all-funds at a date, the market summary), ended
  // with it: its readers of the file close then
  const scope = Scope.makeUnsafe()
  try {
    const app = await built
    const rendering = await Effect.runPromise(Layer.buildWithScope(OffThreadRenderer.layer, scope))
    const run = Effect.runPromiseWith(Context.add(rendering, ConfigProvider.ConfigProvider, configProvider))
    handle = SnapshotHandle.open(order.dir, order.file, order.verified, order.identity).acquire()
    const lease = handle.lease(keeper(order.dir))
    // kept here only to be posted: the route keeps its answer as for a client (PinSnapshot)
    const cache = new AnswerCache(order.maxBytes)
    post({ _tag: "began", id: order.id })
    const began = performance.now()
    for (const [i, request] of order.requests.entries()) {
      if (i > 0 && state.stop) break
      // the budget is kept here too (the server's look at it comes every few milliseconds)
      if (i > 0 && performance.now() - began >= order.budgetMillis) {
        stopped = "budget"
        break
      }
      const started = performance.now()
      await answerOne(order, request, run, app, lease, cache)
      longest = Math.max(longest, performance.now() - started)
      if (handle.damaged && !saidDamaged) {
        saidDamaged = true
        post({ _tag: "damaged", id: order.id })
      }
      await turn() // a stop posted meanwhile is read here
    }
    post({ _tag: "done", id: order.id, longestMillis: Math.round(longest * 10) / 10, damaged: handle.damaged, failed: null, stopped })
  } catch (e) {
    post({ _tag: "done", id: order.id, longestMillis: Math.round(longest * 10) / 10, damaged: handle?.damaged ?? false, failed: String(e), stopped })
  } finally {
    handle?.release()
    handle?.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

parentPort!.on("message", (message: WarmToThread) => {
  if (message._tag === "stop") {
    if (stopping.id === message.id) stopping.stop = true
  } else void warm(message)
})

// loaded: the routes are built before the first order is read (a failure is the order's)
built.then(
  () => post({ _tag: "ready" }),
  () => {},
)
