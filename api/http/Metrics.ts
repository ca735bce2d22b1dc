/**
 * The server's metrics in the Prometheus text format (prom-client), one registry per server:
 *   - fds_http_requests_total{route,method,status} and fds_http_request_duration_seconds{route}:
 *     every answer, counted at the Node level (api/http/RequestLog.ts) by route template;
 *   - fds_batch_info{batch_id,batch_date,content_hash} (1), fds_batch_date_seconds,
 *     fds_batch_age_seconds: the batch served now;
 *   - fds_snapshot_swaps_total, fds_snapshot_swap_duration_seconds (from the start of the check
 *     to the swap), fds_snapshot_check_failures_total;
 *   - fds_quota_store_errors_total, fds_quota_store_duration_seconds: the key check and count;
 *   - fds_rate_limit_refusals_total{limit="per_ip"};
 *   - fds_answer_cache_hits_total, _misses_total, _evictions_total, _compressions_total (codings
 *     made for kept answers: once per answer and coding), _warmed_total (answers computed for a
 *     new batch before it served, api/snapshot/AnswerWarm.ts), _early_total (hits sent at the
 *     Node level, before the router, api/http/HitPath.ts), _mcp_results_total (MCP tool calls
 *     answered from a kept result, api/mcp/McpHttp.ts), fds_answer_cache_entries,
 *     fds_answer_cache_bytes, fds_answer_cache_max_bytes (api/snapshot/AnswerCache.ts);
 *   - fds_ready (1/0), fds_draining (1/0);
 *   - fds_pipeline_last_run_timestamp_seconds, fds_pipeline_last_run{outcome} (1),
 *     fds_data_set_freshness{data_set,state} (1): from STATUS.json, read at each scrape;
 *   - Node's default process metrics (fds_process_*, fds_nodejs_*).
 * No key, e-mail or address in any label: routes are templates, never paths.
 */
import { dirname } from "node:path"
import client from "prom-client"
import { readStatus, santiagoStartOf, sourceState } from "../../snapshots/Status.ts"
import type { AnswerCacheStats } from "../snapshot/AnswerCache.ts"
import type { SnapshotEvents, SnapshotHandle } from "../snapshot/SnapshotStore.ts"
import type { StoreOutcome } from "../system/Readiness.ts"

const santiagoDay = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Santiago", year: "numeric", month: "2-digit", day: "2-digit" })

/** What the scrape reads at its time: the served batch, the snapshots folder and readiness. */
export interface MetricsSources {
  readonly current: () => SnapshotHandle | null
  readonly snapshotsDir: string
  readonly notReady: () => Promise<ReadonlyArray<string>>
  readonly draining: () => boolean
}

export class ServiceMetrics {
  readonly registry = new client.Registry()
  private sources: MetricsSources | null = null
  private answers: { readonly stats: AnswerCacheStats } | null = null
  /** The quota store's last failure and success (Unix ms), for readiness. */
  readonly quotaStore: StoreOutcome = { lastFailureMillis: 0, lastSuccessMillis: 0 }

  private readonly requests = new client.Counter({
    name: "fds_http_requests_total",
    help: "HTTP answers by route template, method and status (499: the client went away first)",
    labelNames: ["route", "method", "status"] as const,
    registers: [this.registry],
  })
  private readonly latency = new client.Histogram({
    name: "fds_http_request_duration_seconds",
    help: "Time from the request to the end of its answer, by route template",
    labelNames: ["route"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  })
  private readonly swaps = new client.Counter({ name: "fds_snapshot_swaps_total", help: "Snapshots swapped in", registers: [this.registry] })
  private readonly swapSeconds = new client.Histogram({
    name: "fds_snapshot_swap_duration_seconds",
    help: "From the start of a snapshot's check to its swap (check, warm-up)",
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  })
  private readonly checkFailures = new client.Counter({
    name: "fds_snapshot_check_failures_total",
    help: "Snapshots refused by their check (the served one keeps serving)",
    registers: [this.registry],
  })
  private readonly quotaErrors = new client.Counter({
    name: "fds_quota_store_errors_total",
    help: "Key checks and quota counts the accounts store failed (answered 503)",
    registers: [this.registry],
  })
  private readonly quotaSeconds = new client.Histogram({
    name: "fds_quota_store_duration_seconds",
    help: "Time of a key check and quota count in the accounts store",
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
    registers: [this.registry],
  })
  private readonly refusals = new client.Counter({
    name: "fds_rate_limit_refusals_total",
    help: "Requests refused with 429 by the per-address limit",
    labelNames: ["limit"] as const,
    registers: [this.registry],
  })

  constructor() {
    const metrics = this
    client.collectDefaultMetrics({ register: this.registry, prefix: "fds_" })
    this.refusals.inc({ limit: "per_ip" }, 0)
    new client.Gauge({
      name: "fds_batch_info",
      help: "The batch served now (1), by id, date and content hash",
      labelNames: ["batch_id", "batch_date", "content_hash"] as const,
      registers: [this.registry],
      collect() {
        this.reset()
        const loaded = metrics.sources?.current() ?? null
        if (loaded !== null) {
          this.set({ batch_id: loaded.file.replace(/\.sqlite$/, ""), batch_date: loaded.reader.batchDate, content_hash: loaded.contentHash }, 1)
        }
      },
    })
    new client.Gauge({
      name: "fds_batch_date_seconds",
      help: "Start of the served batch's date in America/Santiago, Unix seconds (absent when nothing serves)",
      registers: [this.registry],
      collect() {
        this.reset()
        const loaded = metrics.sources?.current() ?? null
        if (loaded !== null) this.set(santiagoStartOf(loaded.reader.batchDate) / 1000)
      },
    })
    new client.Gauge({
      name: "fds_batch_age_seconds",
      help: "Seconds since the start of the served batch's date in America/Santiago",
      registers: [this.registry],
      collect() {
        this.reset()
        const loaded = metrics.sources?.current() ?? null
        if (loaded !== null) this.set((Date.now() - santiagoStartOf(loaded.reader.batchDate)) / 1000)
      },
    })
    // read from the answer cache at each scrape
    const answerCounter = (name: string, help: string, read: (stats: AnswerCacheStats) => number) =>
      new client.Counter({
        name,
        help,
        registers: [this.registry],
        collect() {
          const stats = metrics.answers?.stats
          this.reset()
          if (stats !== undefined) this.inc(read(stats))
        },
      })
    const answerGauge = (name: string, help: string, read: (stats: AnswerCacheStats) => number) =>
      new client.Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const stats = metrics.answers?.stats
          this.set(stats === undefined ? 0 : read(stats))
        },
      })
    answerCounter("fds_answer_cache_hits_total", "Data answers sent from the answer cache", (s) => s.hits)
    answerCounter("fds_answer_cache_misses_total", "Data answers the answer cache did not hold (the route ran)", (s) => s.misses)
    answerCounter("fds_answer_cache_evictions_total", "Kept answers dropped, least recently used first, to stay within the budget", (s) => s.evictions)
    answerCounter("fds_answer_cache_compressions_total", "Codings made of kept answers (once per answer and coding)", (s) => s.compressions)
    answerCounter("fds_answer_cache_early_total", "Hits sent at the Node level, before the router (FDS_HIT_PATH); counted in the hits too", (s) => s.early)
    answerCounter("fds_answer_cache_mcp_results_total", "MCP tool calls answered from a kept result, without the SDK (api/mcp/McpHttp.ts); counted in the hits too", (s) => s.mcpResults)
    answerCounter("fds_answer_cache_warmed_total", "Answers computed for a new batch before it served, from the previous batch's hottest (FDS_WARM_ANSWERS)", (s) => s.warmed)
    answerGauge("fds_answer_cache_entries", "Answers kept, every open batch together", (s) => s.entries)
    answerGauge("fds_answer_cache_bytes", "Bytes of the kept answers and their codings", (s) => s.bytes)
    answerGauge("fds_answer_cache_max_bytes", "The answer cache's budget (FDS_ANSWER_CACHE_MB; 0: off)", (s) => s.maxBytes)
    new client.Gauge({
      name: "fds_ready",
      help: "1 when /readyz answers 200, else 0",
      registers: [this.registry],
      async collect() {
        const reasons = (await metrics.sources?.notReady()) ?? ["starting"]
        this.set(reasons.length === 0 ? 1 : 0)
      },
    })
    new client.Gauge({
      name: "fds_draining",
      help: "1 once SIGTERM began the drain",
      registers: [this.registry],
      collect() {
        this.set(metrics.sources?.draining() === true ? 1 : 0)
      },
    })
    new client.Gauge({
      name: "fds_pipeline_last_run_timestamp_seconds",
      help: "When the last pipeline run finished (STATUS.json), Unix seconds",
      registers: [this.registry],
      collect() {
        this.reset()
        const status = metrics.status()
        const at = status === null || status.finished_at === null ? Number.NaN : Date.parse(status.finished_at)
        if (Number.isFinite(at)) this.set(at / 1000)
      },
    })
    new client.Gauge({
      name: "fds_pipeline_last_run",
      help: "The last pipeline run's outcome (1) from STATUS.json",
      labelNames: ["outcome"] as const,
      registers: [this.registry],
      collect() {
        this.reset()
        const status = metrics.status()
        if (status !== null) this.set({ outcome: status.outcome }, 1)
      },
    })
    new client.Gauge({
      name: "fds_data_set_freshness",
      help: "Each data set's freshness state (1) as /health judges it today",
      labelNames: ["data_set", "state"] as const,
      registers: [this.registry],
      collect() {
        this.reset()
        const today = santiagoDay.format(new Date())
        for (const source of metrics.status()?.sources ?? []) this.set({ data_set: source.data_set, state: sourceState(source, today) }, 1)
      },
    })
  }

  private status() {
    const sources = this.sources
    if (sources === null) return null
    const loaded = sources.current()
    return readStatus(loaded === null ? sources.snapshotsDir : dirname(loaded.reader.path))
  }

  /** Where the scrape reads the answer cache's counts. */
  watchAnswers(answers: { readonly stats: AnswerCacheStats }): void {
    this.answers = answers
  }

  /** Where the scrape reads the batch and readiness (set once the store exists). */
  watch(sources: MetricsSources): void {
    this.sources = sources
  }

  /** One answer, as the access log sees it. */
  answered(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status: String(status) })
    this.latency.observe({ route }, seconds)
  }

  readonly snapshotEvents: SnapshotEvents = {
    swapped: (seconds) => {
      this.swaps.inc()
      this.swapSeconds.observe(seconds)
    },
    checkFailed: () => this.checkFailures.inc(),
  }

  /** A key check and count: its time and whether the store answered. */
  quotaStoreCall(seconds: number, ok: boolean): void {
    this.quotaSeconds.observe(seconds)
    if (ok) this.quotaStore.lastSuccessMillis = Date.now()
    else {
      this.quotaErrors.inc()
      this.quotaStore.lastFailureMillis = Date.now()
    }
  }

  rateLimited(): void {
    this.refusals.inc({ limit: "per_ip" })
  }
}
