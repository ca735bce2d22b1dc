/**
 * Warm on swap (issue #32 item 2): before a checked batch serves, the previous batch's hottest
 * kept answers (AnswerCache.ts: the most hits, at most FDS_WARM_ANSWERS) are computed for it and
 * kept on its shelf, so the first clients after the swap are answered from the cache instead of
 * all running the routes at once.
 *
 * They are computed off the event loop, in a thread of their own (AnswerWarmWorker.ts: the
 * routes' own answers, on the new file opened there read-only), which is started when the check
 * of a new file begins while the batch served holds hot answers (`prepare`: loading the routes
 * there, about a second, overlaps the check), takes one order and is ended; the event loop only
 * keeps what it posts back, one answer at a time. The key check, the quota, Batch-Id and the
 * caching headers stay per request, as for any hit (a warmed answer counts as a miss: its route
 * ran). Not warmed: a key whose target names a batch (`?batch=`: its answers never change and
 * are kept on that batch's shelf), an MCP tool's key (`mcp …`), a target that does not read back
 * as the same URL (one a Web request would spell otherwise), and what the new batch answers with
 * anything but a keepable 200.
 *
 * The warm stops at the first answer after its swap is given up (a newer CURRENT, the API
 * stopping) or after FDS_WARM_ANSWERS_MS from its first answer (the swap waits for it at most
 * that, plus one answer, plus what is left of the thread's start when the check passed).
 * `warming answers` is logged as it begins, `answers warmed` with the count and milliseconds as
 * it ends (and how long of it was waiting for the thread, the longest one answer took there, and
 * the event loop's longest delay meanwhile: the most a client of the batch still served waited);
 * fds_answer_cache_warmed_total counts them (those of a swap given up too). A
 * thread that fails is logged, and the batch swaps in unwarmed; one that finds the file corrupt
 * has it refused, as a read on the event loop would.
 */
import { monitorEventLoopDelay } from "node:perf_hooks"
import { Worker } from "node:worker_threads"
import { Config, Effect, Layer, Option } from "effect"
import { HttpServerResponse } from "effect/http"
import { numberSetting, SETTINGS } from "../system/Settings.ts"
import { type AnswerCache, AnswerCacheService } from "./AnswerCache.ts"
import { BATCH_PARAMETER } from "./Pinned.ts"
import type { SnapshotHandle } from "./SnapshotHandle.ts"
import { SnapshotStore } from "./SnapshotStore.ts"
import type { VerifiedSnapshot } from "./SnapshotVerification.ts"
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

/** What the warm's thread starts with: the server's settings but its secrets (the routes read them there). */
export interface WarmWorkerData {
  readonly env: Readonly<Record<string, string>>
}

/** An order to the thread: the new batch's file (as checked) and the requests to answer on it. */
export interface WarmOrder {
  readonly _tag: "warm"
  readonly id: number
  readonly dir: string
  readonly file: string
  readonly identity: string | null
  readonly verified: VerifiedSnapshot
  /** The cache's budget: an answer larger is not kept. */
  readonly maxBytes: number
  readonly requests: ReadonlyArray<WarmRequest>
}

export type WarmToThread = WarmOrder | { readonly _tag: "stop"; readonly id: number }

/** A route's answer as the thread posts it back, to be made a response again here and kept. */
export interface WarmAnswer {
  readonly _tag: "answer"
  readonly id: number
  readonly key: string
  readonly status: number
  readonly statusText?: string
  readonly headers: Readonly<Record<string, string>>
  readonly contentType: string
  readonly body: Uint8Array
  readonly sendHeaders: Readonly<Record<string, string>>
}

export type WarmFromThread =
  | { readonly _tag: "ready" }
  /** The order's first answer begins (the thread loaded, the file open): its budget counts from now. */
  | { readonly _tag: "began"; readonly id: number }
  | WarmAnswer
  /** The route answered something not to keep. */
  | { readonly _tag: "skipped"; readonly id: number; readonly key: string }
  /** The order is over: the longest one answer took there, whether a read found the file corrupt, why it failed (null: it did not). */
  | { readonly _tag: "done"; readonly id: number; readonly longestMillis: number; readonly damaged: boolean; readonly failed: string | null }

/** The route's response, as the thread's route made it. */
export const answerResponse = (answer: WarmAnswer): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.uint8Array(answer.body, {
    status: answer.status,
    ...(answer.statusText === undefined ? {} : { statusText: answer.statusText }),
    headers: answer.headers,
    contentType: answer.contentType,
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
  /** How long it waited for the thread to load the routes and open the file (the rest of its start). */
  readonly waitMillis: number
  readonly stopped: WarmStop | null
  /** The longest one answer took in the thread. */
  readonly longestMillis: number
  /** A read there found the file corrupt. */
  readonly damaged: boolean
  /** Why the thread failed (it failed to start or to open the file, or ended): null when it did not. */
  readonly failed: string | null
  /** The thread's id (Worker.threadId): a thread kept from a warm before answers the next. */
  readonly threadId: number
}

const WORKER = new URL("./AnswerWarmWorker.ts", import.meta.url)

/** A thread not given an order by then (after its last warm, or its check failed or was given up) is ended. */
const IDLE_MILLIS = 60_000
/** After a stop, the most the warm waits for the thread's answer under way before ending it. */
const STOP_GRACE_MILLIS = 5_000
/** How often the warm looks whether its swap is still wanted and its budget left. */
const LOOK_MILLIS = 10

/**
 * The warm's threads: one per warm, started for it (or earlier, as its check begins: `start`),
 * kept IDLE_MILLIS after it for a swap that follows, then ended (a thread with the routes loaded
 * adds ~180 MB to the process's RSS, measured: not kept for the next day's batch). Two warms may overlap (one given up still
 * finishing its answer under way as the next begins): each has its own thread.
 */
export class WarmThread {
  /** A thread started ahead of a warm (`start`), not given an order yet. */
  private spare: Worker | null = null
  private idle: NodeJS.Timeout | null = null
  /** The threads of the warms under way. */
  private readonly busy = new Set<Worker>()
  private nextId = 0
  private readonly script: URL
  private readonly env: Readonly<Record<string, string>>
  constructor(env: Readonly<Record<string, string>>, script: URL = WORKER) {
    this.env = env
    this.script = script
  }

  private spawn(): Worker {
    const worker = new Worker(this.script, { workerData: { env: this.env } satisfies WarmWorkerData })
    worker.unref()
    // its failures are its warm's: a spare thread that fails is only forgotten
    worker.on("error", () => {})
    worker.on("exit", () => {
      if (this.spare === worker) this.spare = null
      this.busy.delete(worker)
    })
    return worker
  }

  /** Starts a thread for the next warm, unless one waits; it is ended unless a warm takes it within IDLE_MILLIS. */
  start(): void {
    if (this.idle !== null) clearTimeout(this.idle)
    this.idle = setTimeout(() => this.endSpare(), IDLE_MILLIS)
    this.idle.unref()
    this.spare ??= this.spawn()
  }

  /** The thread started ahead, or a new one, now the warm's. */
  private take(): Worker {
    if (this.idle !== null) clearTimeout(this.idle)
    this.idle = null
    const worker = this.spare ?? this.spawn()
    this.spare = null
    this.busy.add(worker)
    return worker
  }

  private endSpare(): void {
    if (this.idle !== null) clearTimeout(this.idle)
    this.idle = null
    const spare = this.spare
    this.spare = null
    if (spare !== null) void spare.terminate()
  }

  /** Ends every thread (the server stops). */
  end(): void {
    this.endSpare()
    for (const worker of this.busy) void worker.terminate()
    this.busy.clear()
  }

  /**
   * Has the thread answer `requests` on `next`'s file, each answer given to `keep` (true: kept)
   * as it comes; a stop is sent once `stillWanted` turns false or `budgetMillis` have passed
   * since its first answer began. Ends the thread.
   */
  warm(
    next: { readonly dir: string; readonly file: string; readonly identity: string | null; readonly verified: VerifiedSnapshot },
    requests: ReadonlyArray<WarmRequest>,
    maxBytes: number,
    keep: (answer: WarmAnswer) => boolean,
    stillWanted: () => boolean,
    budgetMillis: number,
  ): Promise<WarmOutcome> {
    const worker = this.take()
    const id = ++this.nextId
    const began = performance.now()
    let answering: number | null = null
    const { promise, resolve } = Promise.withResolvers<WarmOutcome>()
    let warmed = 0
    let stopped: WarmStop | null = null
    let grace: NodeJS.Timeout | null = null
    const finish = (longestMillis: number, damaged: boolean, failed: string | null) => {
      clearInterval(look)
      if (grace !== null) clearTimeout(grace)
      worker.off("message", onMessage)
      worker.off("error", onError)
      worker.off("exit", onExit)
      this.busy.delete(worker)
      // kept for a swap that follows soon (a fleet catching up, a batch published again), unless it failed or another waits
      if (failed === null && this.spare === null) {
        this.spare = worker
        if (this.idle !== null) clearTimeout(this.idle)
        this.idle = setTimeout(() => this.endSpare(), IDLE_MILLIS)
        this.idle.unref()
      } else void worker.terminate()
      const now = performance.now()
      const waitMillis = Math.round((answering ?? now) - began)
      resolve({ hot: requests.length, warmed, millis: Math.round(now - began), waitMillis, stopped, longestMillis, damaged, failed, threadId: worker.threadId })
    }
    const onMessage = (message: WarmFromThread) => {
      if (message._tag === "ready" || message.id !== id) return
      if (message._tag === "answer") {
        if (keep(message)) warmed++
      } else if (message._tag === "began") answering = performance.now()
      else if (message._tag === "done") finish(message.longestMillis, message.damaged, message.failed)
    }
    const onError = (e: unknown) => finish(0, false, `the warm's thread failed: ${String(e)}`)
    const onExit = (code: number) => finish(0, false, `the warm's thread exited (code ${code})`)
    const look = setInterval(() => {
      if (stopped !== null) return
      if (!stillWanted()) stopped = "abandoned"
      else if (answering !== null && performance.now() - answering >= budgetMillis) stopped = "budget"
      if (stopped === null) return
      worker.postMessage({ _tag: "stop", id } satisfies WarmToThread)
      grace = setTimeout(() => finish(0, false, `no answer ${STOP_GRACE_MILLIS / 1000} s after it was told to stop`), STOP_GRACE_MILLIS)
    }, LOOK_MILLIS)
    worker.on("message", onMessage)
    worker.on("error", onError)
    worker.on("exit", onExit)
    worker.postMessage({ _tag: "warm", id, ...next, maxBytes, requests } satisfies WarmToThread)
    return promise
  }
}

/** The previous batch's hottest answers' requests, at most `count`. */
const hotRequests = (cache: AnswerCache, previous: SnapshotHandle, count: number): ReadonlyArray<WarmRequest> =>
  cache
    .shelfOn((key, compute) => previous.memo(key, compute))
    .hottest(count, (key) => warmRequest(key) !== null)
    .map((key) => warmRequest(key)!)

/** The server's settings as its configuration reads them, but the secrets: what the warm's thread reads. */
const settingsForThread = Effect.gen(function* () {
  const env: Record<string, string> = {}
  for (const setting of SETTINGS) {
    if (setting.secret === true) continue
    const value = yield* Config.option(Config.String(setting.name))
    if (Option.isSome(value)) env[setting.name] = value.value
  }
  return env
})

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
      const thread = new WarmThread(yield* settingsForThread)
      /** The hot requests of the batch served now (none without one). */
      const hot = (next: SnapshotHandle | null): { readonly previous: SnapshotHandle; readonly requests: ReadonlyArray<WarmRequest> } | null => {
        const previous = store.current()
        if (previous === null || previous === next) return null
        const requests = hotRequests(cache, previous, count)
        return requests.length === 0 ? null : { previous, requests }
      }
      const prepare = () => {
        if (hot(null) !== null) thread.start()
      }
      const warm = async (next: SnapshotHandle, stillWanted: () => boolean): Promise<void> => {
        const found = hot(next)
        if (found === null) return
        const { previous, requests } = found
        log("info", "warming answers", { file: next.file, from: previous.file, hot: requests.length })
        const shelf = cache.shelfOn((key, compute) => next.memo(key, compute))
        // what the clients of the batch still served felt: the event loop's delay while it ran
        const delay = monitorEventLoopDelay({ resolution: 10 })
        delay.enable()
        const outcome = await thread.warm(
          { dir: store.dir, file: next.file, identity: next.identity, verified: next.verified },
          requests,
          cache.maxBytes,
          (answer) => cache.put(shelf, answer.key, answerResponse(answer), answer.sendHeaders) !== null,
          stillWanted,
          budgetMillis,
        )
        delay.disable()
        cache.warmed += outcome.warmed
        // a read there found it corrupt: it never serves (SwapState.swapIn refuses it)
        if (outcome.damaged) next.damaged = true
        log(outcome.failed === null ? "info" : "warn", "answers warmed", {
          file: next.file,
          from: previous.file,
          hot: outcome.hot,
          warmed: outcome.warmed,
          warm_answers_ms: outcome.millis,
          thread_wait_ms: outcome.waitMillis,
          longest_answer_ms: outcome.longestMillis,
          loop_delay_max_ms: Math.round(delay.max / 1e5) / 10,
          ...(outcome.stopped === null ? {} : { stopped: outcome.stopped }),
          ...(outcome.failed === null ? {} : { error: outcome.failed }),
        })
      }
      yield* Effect.acquireRelease(
        Effect.sync(() => swapWarm.attach({ warm, prepare })),
        (detach) =>
          Effect.sync(() => {
            detach()
            thread.end()
          }),
      )
    }),
  )
