/**
 * Answers that take long to compute and are not stored are rendered off the event loop, in one
 * worker thread (RenderWorker.ts) that opens the pinned snapshot's file read-only: /api/all-funds
 * at another date or with a filter (full size: an earlier date takes about a second, the risk
 * figures of every series at that date) and /api/market-summary at an earlier date (~0.1 s). On
 * the event loop they would stall every other request meanwhile; a client walking through dates
 * could keep it busy. The worker keeps the readers' per-snapshot memory, so a second request at
 * the same date is quick there too.
 *
 * One worker, started on first use and again after a failure or a rendering that hangs
 * (RENDER_TIMEOUT_MS); at most MAX_WAITING renderings wait for it, beyond that a request answers
 * 503 `render_busy` with Retry-After (no unbounded queue). Requests for the same task while it
 * renders share one rendering. The answer comes back as UTF-8 bytes (transferred, not copied).
 */

import { Worker } from "node:worker_threads"
import { Context, Effect, Layer } from "effect"
import { ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import type { Universe } from "../../schemas/MarketUniverse.ts"
import type { AllFundsFilters, RequestedVehicle } from "../../snapshots/readers/MarketAllFunds.ts"
import { FI_RETRY_AFTER_SECONDS } from "../snapshot/FiSnapshot.ts"
import { snapshotDamaged } from "../snapshot/SnapshotStore.ts"
import type { VehicleUnavailable } from "./MarketVehicles.ts"

/** What to render, on the snapshot file the request pinned (`path`). */
export type RenderTask =
  | {
      readonly kind: "allFunds"
      readonly path: string
      readonly requested: RequestedVehicle
      /** YYYYMMDD, null for the latest data. */
      readonly cutoff: number | null
      readonly filters: AllFundsFilters
      /** The server's FDS_SERIES_GRACE_DAYS: which series are in the universe. */
      readonly graceWeekdays: number
      /** The `universe` parameter as given (undefined: current, named in no answer). */
      readonly universe?: Universe
    }
  | {
      readonly kind: "marketSummary"
      readonly path: string
      /** YYYYMMDD, at most the latest market date (universe=as_of: the requested date). */
      readonly cutoff: number
      readonly graceWeekdays: number
      /** Today's funds when absent. */
      readonly universe?: Universe
    }

export type RenderRequest = RenderTask & { readonly id: number }

export type RenderAnswer =
  | { readonly id: number; readonly bytes: Uint8Array }
  /** A vehicle's data is unavailable (all-funds: 503 with its reason). */
  | { readonly id: number; readonly unavailable: VehicleUnavailable }
  /** Nothing to answer from (market summary: no quote of today's funds by the date). */
  | { readonly id: number; readonly empty: true }
  /** The file is gone (removed after a newer batch): the request retries on the new one. */
  | { readonly id: number; readonly gone: true }
  /** SQLite found the file corrupt: 503 with Retry-After, as a read on the event loop would answer. */
  | { readonly id: number; readonly damaged: string }
  | { readonly id: number; readonly failed: string }

export const MAX_WAITING = 8

const WORKER = new URL("./RenderWorker.ts", import.meta.url)

const busy = new ServiceUnavailable({
  reason: "render_busy",
  message: `${MAX_WAITING} answers for other dates or filters are being prepared; retry shortly`,
  retryAfter: 2,
})

const gone = new ServiceUnavailable({
  reason: "snapshot_changed",
  message: "a new batch was published while the request was read; retry",
  retryAfter: 1,
})

/** A vehicle's rows missing from the batch (its FI/ETF part) come back only with another batch: the FI routes' Retry-After. */
export const vehicleUnavailable = (u: VehicleUnavailable): ServiceUnavailable =>
  new ServiceUnavailable({ reason: u.unavailable, message: u.message, retryAfter: FI_RETRY_AFTER_SECONDS })

/** A rendering that takes longer is taken as hung: its worker is ended, what waited on it fails. */
export const RENDER_TIMEOUT_MS = 120_000

interface Running {
  readonly worker: Worker
  /** The renderings sent to this worker, by id: each worker fails only its own when it ends. */
  readonly waiting: Map<number, (answer: RenderAnswer) => void>
}

/**
 * The worker and the renderings waiting for it. The same task asked again while it renders
 * shares that rendering (and its place in the queue).
 */
export const makeRenderer = (script: URL = WORKER, timeoutMillis = RENDER_TIMEOUT_MS) => {
  let current: Running | undefined
  let nextId = 1
  const inFlight = new Map<string, Promise<RenderAnswer>>()
  const failAll = (running: Running, failed: string) => {
    for (const [id, done] of running.waiting) done({ id, failed })
    running.waiting.clear()
  }
  const start = (): Running => {
    const running: Running = { worker: new Worker(script), waiting: new Map() }
    const w = running.worker
    w.unref()
    w.on("message", (answer: RenderAnswer) => {
      const done = running.waiting.get(answer.id)
      running.waiting.delete(answer.id)
      done?.(answer)
    })
    w.on("error", (e) => {
      if (current === running) current = undefined
      failAll(running, `the rendering worker failed: ${String(e)}`)
    })
    w.on("exit", (code) => {
      if (current === running) current = undefined
      failAll(running, `the rendering worker exited (code ${code})`)
    })
    return running
  }
  const waitingCount = () => (current === undefined ? 0 : current.waiting.size)
  return {
    /** Undefined when MAX_WAITING renderings already wait (a task already rendering is shared). */
    render: (task: RenderTask): Promise<RenderAnswer> | undefined => {
      const key = JSON.stringify(task)
      const shared = inFlight.get(key)
      if (shared !== undefined) return shared
      if (waitingCount() >= MAX_WAITING) return undefined
      current ??= start()
      const running = current
      const id = nextId++
      const { promise, resolve } = Promise.withResolvers<RenderAnswer>()
      const timer = setTimeout(() => {
        if (!running.waiting.has(id)) return
        if (current === running) current = undefined
        failAll(running, `a rendering took more than ${timeoutMillis / 1000} s; the rendering worker was ended`)
        void running.worker.terminate()
      }, timeoutMillis)
      timer.unref()
      running.waiting.set(id, (answer) => {
        clearTimeout(timer)
        inFlight.delete(key)
        resolve(answer)
      })
      inFlight.set(key, promise)
      running.worker.postMessage({ ...task, id } as RenderRequest)
      return promise
    },
    close: async () => {
      const running = current
      current = undefined
      if (running === undefined) return
      failAll(running, "the server is stopping")
      await running.worker.terminate()
    },
  }
}

export class OffThreadRenderer extends Context.Service<
  OffThreadRenderer,
  {
    /**
     * The answer's bytes, or null when there is nothing to answer from; 503 when busy, when the
     * file is gone or damaged, or when a vehicle's data is unavailable (all-funds).
     */
    readonly render: (task: RenderTask) => Effect.Effect<Uint8Array | null, ServiceUnavailable>
  }
>()("fds/api/OffThreadRenderer") {
  /** The service on `script` (the rendering thread; tests give another). */
  static readonly layerOn = (script: URL) =>
    Layer.effect(
      OffThreadRenderer,
      Effect.map(
        Effect.acquireRelease(Effect.sync(() => makeRenderer(script)), (r) => Effect.promise(r.close)),
        (r) => OffThreadRenderer.of({ render: (request) => Effect.suspend(() => settle(r.render(request))) }),
      ),
    )

  static readonly layer = OffThreadRenderer.layerOn(WORKER)
}

type Rendered = Effect.Effect<Uint8Array | null, ServiceUnavailable>

const settle = (pending: Promise<RenderAnswer> | undefined): Rendered =>
  pending === undefined
    ? Effect.fail(busy)
    : Effect.flatMap(Effect.promise(() => pending), (answer): Rendered => {
        if ("bytes" in answer) return Effect.succeed(answer.bytes)
        if ("unavailable" in answer) return Effect.fail(vehicleUnavailable(answer.unavailable))
        if ("empty" in answer) return Effect.succeed(null)
        if ("gone" in answer) return Effect.fail(gone)
        if ("damaged" in answer) return Effect.fail(snapshotDamaged)
        return Effect.die(new Error(answer.failed))
      })
