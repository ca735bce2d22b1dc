/**
 * /api/all-funds answers that are not stored (another date, a filter) are rendered off the event
 * loop, in one worker thread (AllFundsWorker.ts) that opens the pinned snapshot's file read-only:
 * at full size an earlier date takes about a second (the risk figures of every series at that
 * date), which on the event loop would stall every other request meanwhile. The worker keeps the
 * readers' per-snapshot memory, so a second request at the same date is quick there too.
 *
 * One worker, started on first use and again after a failure; at most MAX_WAITING renderings
 * wait for it, beyond that a request answers 503 `render_busy` with Retry-After (a client
 * walking through dates cannot queue unbounded work). The answer comes back as UTF-8 bytes
 * (transferred, not copied).
 */
import { Context, Effect, Layer } from "effect"
import { Worker } from "node:worker_threads"
import { ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import type { AllFundsFilters, RequestedVehicle } from "../../snapshots/readers/MarketAllFunds.ts"
import type { VehicleUnavailable } from "./MarketVehicles.ts"

export interface RenderRequest {
  readonly id: number
  /** The snapshot file the request pinned. */
  readonly path: string
  readonly requested: RequestedVehicle
  /** YYYYMMDD, null for the latest data. */
  readonly cutoff: number | null
  readonly filters: AllFundsFilters
}

export type RenderAnswer =
  | { readonly id: number; readonly bytes: Uint8Array }
  | { readonly id: number; readonly unavailable: VehicleUnavailable }
  /** The file is gone (removed after a newer batch): the request retries on the new one. */
  | { readonly id: number; readonly gone: true }
  | { readonly id: number; readonly failed: string }

export const MAX_WAITING = 8

const WORKER = new URL("./AllFundsWorker.ts", import.meta.url)

const busy = new ServiceUnavailable({
  reason: "render_busy",
  message: `${MAX_WAITING} all-funds answers for other dates or filters are being prepared; retry shortly`,
  retryAfter: 2,
})

const gone = new ServiceUnavailable({
  reason: "snapshot_changed",
  message: "a new batch was published while the request was read; retry",
  retryAfter: 1,
})

/** The worker and the renderings waiting for it. */
export const makeRenderer = (script: URL = WORKER) => {
  let worker: Worker | undefined
  let nextId = 1
  const waiting = new Map<number, (answer: RenderAnswer) => void>()
  const failAll = (failed: string) => {
    for (const [id, done] of waiting) done({ id, failed })
    waiting.clear()
  }
  const start = (): Worker => {
    const w = new Worker(script)
    w.unref()
    w.on("message", (answer: RenderAnswer) => {
      const done = waiting.get(answer.id)
      waiting.delete(answer.id)
      done?.(answer)
    })
    w.on("error", (e) => {
      if (worker === w) worker = undefined
      failAll(`the all-funds worker failed: ${String(e)}`)
    })
    w.on("exit", (code) => {
      if (worker === w) worker = undefined
      failAll(`the all-funds worker exited (code ${code})`)
    })
    return w
  }
  return {
    /** Undefined when MAX_WAITING renderings already wait. */
    render: (request: Omit<RenderRequest, "id">): Promise<RenderAnswer> | undefined => {
      if (waiting.size >= MAX_WAITING) return undefined
      worker ??= start()
      const id = nextId++
      const { promise, resolve } = Promise.withResolvers<RenderAnswer>()
      waiting.set(id, resolve)
      worker.postMessage({ ...request, id } satisfies RenderRequest)
      return promise
    },
    close: async () => {
      const w = worker
      worker = undefined
      failAll("the server is stopping")
      await w?.terminate()
    },
  }
}

export class AllFundsRenderer extends Context.Service<
  AllFundsRenderer,
  {
    /** The answer's bytes, or why a vehicle is unavailable; 503 when busy or the file is gone. */
    readonly render: (request: Omit<RenderRequest, "id">) => Effect.Effect<Uint8Array | VehicleUnavailable, ServiceUnavailable>
  }
>()("fds/api/AllFundsRenderer") {
  /** The service on `script` (the rendering thread; tests give another). */
  static readonly layerOn = (script: URL) =>
    Layer.effect(
      AllFundsRenderer,
      Effect.map(
        Effect.acquireRelease(Effect.sync(() => makeRenderer(script)), (r) => Effect.promise(r.close)),
        (r) => AllFundsRenderer.of({ render: (request) => Effect.suspend(() => settle(r.render(request))) }),
      ),
    )

  static readonly layer = AllFundsRenderer.layerOn(WORKER)
}

type Rendered = Effect.Effect<Uint8Array | VehicleUnavailable, ServiceUnavailable>

const settle = (pending: Promise<RenderAnswer> | undefined): Rendered =>
  pending === undefined
    ? Effect.fail(busy)
    : Effect.flatMap(Effect.promise(() => pending), (answer): Rendered => {
        if ("bytes" in answer) return Effect.succeed(answer.bytes)
        if ("unavailable" in answer) return Effect.succeed(answer.unavailable)
        if ("gone" in answer) return Effect.fail(gone)
        return Effect.die(new Error(answer.failed))
      })
