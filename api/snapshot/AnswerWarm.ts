/**
 * Warm on swap (issue #32 item 2): before a checked batch serves, the previous batch's hottest
 * kept answers (AnswerCache.ts: the most hits, at most FDS_WARM_ANSWERS) are computed for it and
 * kept on its shelf, so the first clients after the swap are answered from the cache instead of
 * all running the routes at once.
 *
 * They are computed off the event loop, in a thread of their own (AnswerWarmWorker.ts: the
 * routes' own answers, on the new file opened there read-only). The thread is started when the
 * check of a new file begins while the batch served holds hot answers (`prepare`: loading the
 * routes there, about a second, overlaps the check), answers the warm's order and is kept a
 * minute for a swap that follows (WarmThread); the event loop only keeps what it posts back, one
 * answer at a time. The key check, the quota, Batch-Id and the caching headers stay per request,
 * as for any hit; the server's own routes do not run for a warmed answer (it is not a miss). Not
 * warmed: a key whose target names a batch (`?batch=`: its answers never change and are kept on
 * that batch's shelf), an MCP tool's key (`mcp …`), a target that does not read back as the same
 * URL (one a Web request would spell otherwise), and what the new batch answers with anything but
 * a keepable 200.
 *
 * The warm stops at the first answer after its swap is given up (a newer CURRENT, the API
 * stopping) or after FDS_WARM_ANSWERS_MS from its first answer; it waits at most START_MILLIS
 * for the thread to be ready and STOP_GRACE_MILLIS for the answer under way after a stop.
 * `warming answers` is logged as it begins, `answers warmed` with the count and milliseconds as
 * it ends (and how long of it was waiting for the thread, the longest one answer took there, and
 * the event loop's longest delay meanwhile: the most a client of the batch still served waited);
 * fds_answer_cache_warmed_total counts them (those of a swap given up too). A thread that fails
 * is logged (`error`), and the batch swaps in unwarmed; one that finds the file corrupt has it
 * refused, as a read on the event loop would.
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
  /** FDS_WARM_ANSWERS_MS: the thread stops at the first answer after it, from its first. */
  readonly budgetMillis: number
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
  /** A read found the file corrupt (said at once: the swap refuses it even if the thread dies next). */
  | { readonly _tag: "damaged"; readonly id: number }
  /**
   * The order is over: the longest one answer took there, whether a read found the file corrupt,
   * why it failed (null: it did not), whether it stopped for its budget.
   */
  | {
      readonly _tag: "done"
      readonly id: number
      readonly longestMillis: number
      readonly damaged: boolean
      readonly failed: string | null
      readonly stopped: "budget" | null
    }

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
/** The thread's name, as `top -H` and /proc/<pid>/task/<tid>/comm show it (at most 15 characters there). */
export const WARM_THREAD_NAME = "fds-answer-warm"

/** A thread started as a check begins is ended unless a warm takes it by then (its check failed or was given up). */
const PREPARED_MILLIS = 10 * 60_000
/** A thread is kept that long after its warm, for a swap that follows. */
const IDLE_MILLIS = 60_000
/** The most a warm waits for its thread to load and open the file; then the batch swaps in unwarmed. */
export const START_MILLIS = 15_000
/** After a stop, the most the warm waits for the thread's answer under way before ending it. */
const STOP_GRACE_MILLIS = 5_000
/** How often the warm looks whether its swap is still wanted, its budget left, its thread started. */
const LOOK_MILLIS = 10

/**
 * The warm's threads: one per warm, started for it (or earlier, as its check begins: `start`),
 * kept IDLE_MILLIS after it for a swap that follows, then ended (a thread with the routes loaded
 * adds ~180 MB to the process's RSS, measured: not kept for the next day's batch). Two warms may
 * overlap (one given up still finishing its answer under way as the next begins): each has its
 * own thread. A thread gets no environment but the settings it is given (`env`).
 */
export class WarmThread {
  /** A thread started ahead of a warm (`start`) or kept after one, not given an order yet. */
  private spare: Worker | null = null
  private idle: NodeJS.Timeout | null = null
  /** The threads of the warms under way. */
  private readonly busy = new Set<Worker>()
  /** Threads `end` ended: their warm is given up, not failed. */
  private readonly ended = new WeakSet<Worker>()
  private nextId = 0
  private readonly script: URL
  private readonly startMillis: number
  private readonly env: Readonly<Record<string, string>>
  /** `script` and `startMillis` (START_MILLIS): tests give others. */
  constructor(env: Readonly<Record<string, string>>, options: { readonly script?: URL; readonly startMillis?: number } = {}) {
    this.env = env
    this.script = options.script ?? WORKER
    this.startMillis = options.startMillis ?? START_MILLIS
  }

  private spawn(): Worker {
    const worker = new Worker(this.script, { workerData: { env: this.env } satisfies WarmWorkerData, env: {}, name: WARM_THREAD_NAME })
    worker.unref()
    // its failures are its warm's: a spare thread that fails is only forgotten
    worker.on("error", () => {})
    worker.on("exit", () => {
      if (this.spare === worker) this.spare = null
      this.busy.delete(worker)
    })
    return worker
  }

  /** Keeps `worker` (or none) as the spare, ended after `millis` unless a warm takes it. */
  private keepSpare(worker: Worker, millis: number): void {
    if (this.idle !== null) clearTimeout(this.idle)
    this.spare = worker
    this.idle = setTimeout(() => this.endSpare(), millis)
    this.idle.unref()
  }

  /** Starts a thread for the next warm, unless one waits; it is ended unless a warm takes it within PREPARED_MILLIS. */
  start(): void {
    this.keepSpare(this.spare ?? this.spawn(), PREPARED_MILLIS)
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

  /** Ends every thread (the server stops): a warm under way ends as given up. */
  end(): void {
    this.endSpare()
    for (const worker of this.busy) {
      this.ended.add(worker)
      void worker.terminate()
    }
    this.busy.clear()
  }

  /**
   * Has a thread answer `requests` on `next`'s file, each answer given to `keep` (true: kept) as
   * it comes; a stop is sent once `stillWanted` turns false or `budgetMillis` have passed since
   * its first answer began (the thread keeps the budget too). A thread not started within
   * START_MILLIS, or silent STOP_GRACE_MILLIS after a stop, is ended and its warm failed; a
   * thread whose warm ended is kept IDLE_MILLIS for the next, unless it failed.
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
    let damaged = false
    let grace: NodeJS.Timeout | null = null
    /** `healthy`: the thread answered its order (even one that failed on its file): it may answer another. */
    const finish = (healthy: boolean, longestMillis: number, failed: string | null, threadStopped: WarmStop | null = null) => {
      clearInterval(look)
      if (grace !== null) clearTimeout(grace)
      worker.off("message", onMessage)
      worker.off("error", onError)
      worker.off("exit", onExit)
      this.busy.delete(worker)
      if (healthy && this.spare === null) this.keepSpare(worker, IDLE_MILLIS)
      else void worker.terminate()
      const now = performance.now()
      resolve({
        hot: requests.length,
        warmed,
        millis: Math.round(now - began),
        waitMillis: Math.round((answering ?? now) - began),
        stopped: stopped ?? threadStopped,
        longestMillis,
        damaged,
        failed,
        threadId: worker.threadId,
      })
    }
    const onMessage = (message: WarmFromThread) => {
      if (message._tag === "ready" || message.id !== id) return
      if (message._tag === "answer") {
        if (keep(message)) warmed++
      } else if (message._tag === "began") answering = performance.now()
      else if (message._tag === "damaged") damaged = true
      else if (message._tag === "skipped") return
      else {
        damaged ||= message.damaged
        finish(true, message.longestMillis, message.failed, message.stopped)
      }
    }
    const lost = (why: string) => {
      if (this.ended.has(worker)) {
        stopped ??= "abandoned"
        finish(false, 0, null)
      } else finish(false, 0, why)
    }
    const onError = (e: unknown) => lost(`the warm's thread failed: ${String(e)}`)
    const onExit = (code: number) => lost(`the warm's thread exited (code ${code})`)
    const look = setInterval(() => {
      if (stopped !== null) return
      if (answering === null && performance.now() - began >= this.startMillis) {
        finish(false, 0, `the warm's thread was not ready after ${this.startMillis / 1000} s`)
        return
      }
      if (!stillWanted()) stopped = "abandoned"
      else if (answering !== null && performance.now() - answering >= budgetMillis) stopped = "budget"
      if (stopped === null) return
      worker.postMessage({ _tag: "stop", id } satisfies WarmToThread)
      grace = setTimeout(() => finish(false, 0, `no answer ${STOP_GRACE_MILLIS / 1000} s after it was told to stop`), STOP_GRACE_MILLIS)
    }, LOOK_MILLIS)
    worker.on("message", onMessage)
    worker.on("error", onError)
    worker.on("exit", onExit)
    worker.postMessage({ _tag: "warm", id, ...next, maxBytes, budgetMillis, requests } satisfies WarmToThread)
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
        let outcome: WarmOutcome
        try {
          outcome = await thread.warm(
            { dir: store.dir, file: next.file, identity: next.identity, verified: next.verified },
            requests,
            cache.maxBytes,
            (answer) => cache.put(shelf, answer.key, answerResponse(answer), answer.sendHeaders) !== null,
            stillWanted,
            budgetMillis,
          )
        } finally {
          delay.disable()
        }
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
