/**
 * The webhooks in the daemon process: after each publish, the batch's events (batch.published,
 * values.restated and tac.changed counted against the batch served before it, source.late) are
 * written with their deliveries and sent at once; a timer (FDS_WEBHOOKS_POLL_MS, default 5000)
 * writes the events of rollbacks the ledger recorded in the last day (`pipeline rollback` runs in
 * its own process) and sends what is due again (the retries). Events have stable ids, so a re-run,
 * a restart or a second daemon on the same store writes nothing twice. A rollback's event is
 * written whether an endpoint exists or not (the public feed lists it; an endpoint made later does
 * not get it), so the timer reads the ledger each time, but only past the last seq it saw (the
 * first time: the last day's rollbacks), and runs a round of sends only when a delivery is due.
 * Settings as for `./fds serve` (FDS_DATA_DIR, FDS_ACCOUNTS_URL, FDS_PUBLIC_URL, FDS_SECRET,
 * FDS_WEBHOOKS_*).
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { Cause, Config, ConfigProvider, Context, Effect, Exit, Layer, Schema, Scope } from "effect"
import { AccountsConfig } from "../accounts/AccountsConfig.ts"
import { AccountsDb } from "../accounts/AccountsDb.ts"
import { type PublishedBatch, serveAddress } from "../accounts/Alerts.ts"
import { type DeliveryContext, type DeliveryReport, deliverDue } from "../accounts/WebhookDelivery.ts"
import { type PublishedFacts, publishedEvents, rolledBackEvent } from "../accounts/WebhookEvents.ts"
import { webhookSettings } from "../accounts/Webhooks.ts"
import { hasDueDelivery, recordEvent } from "../accounts/WebhookStore.ts"
import type { Published } from "../pipeline/daemon/Daemon.ts"
import type { Log } from "../pipeline/daemon/Log.ts"
import { dataDir as dataDirSetting } from "../pipeline/daemon/RunConfig.ts"
import { SqliteLedger } from "../pipeline/ledger/Ledger.ts"
import { paths } from "../pipeline/RunOptions.ts"
import { readSettings } from "../pipeline/Settings.ts"
import { batchIdOfFile } from "../schemas/Batches.ts"
import { sourceState } from "../snapshots/Status.ts"
import { countChanges } from "./ChangeCounts.ts"
import { findPublishedBatch } from "./PublishedBatch.ts"

const DAY_MS = 24 * 3_600_000

export interface WebhookPush {
  /** The daemon's afterPublish: the batch's events written and sent; their counts as log fields. */
  readonly afterPublish: (published: Published, signal: AbortSignal) => Promise<Readonly<Record<string, unknown>>>
  /** Rollbacks of the last day not seen before written as events, then what is due sent. */
  readonly tick: () => Promise<DeliveryReport & { readonly rollbacks: number }>
  /** What the ticks did so far, for tests: how many ran, the ledger's rollback events they read, the rounds of sends they ran. */
  readonly work: () => { readonly ticks: number; readonly rollbacksRead: number; readonly sendRounds: number }
  /** Runs `tick` every FDS_WEBHOOKS_POLL_MS (one at a time) until `close`. */
  readonly start: (log: Log) => void
  readonly close: () => Promise<void>
}

const santiagoToday = (nowMs: number): string =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "America/Santiago", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(nowMs))

/**
 * The events of a published batch, as facts: its predecessor, the change counts against it (unless
 * not `counted`), the late sources. `batch` is its entry in the ledger (findPublishedBatch), read
 * once by the caller for both the quick events and the counted ones.
 */
export const publishedFacts = (batch: PublishedBatch, published: Published, nowMs: number, counted = true): PublishedFacts => {
  const previous = batch.previousFile !== null && batch.previousFile !== batch.file ? batch.previousFile : null
  let changes: PublishedFacts["changes"] = null
  if (counted && previous !== null && existsSync(join(batch.snapshotsDir, previous))) changes = countChanges(batch.snapshotsDir, previous, batch.file)
  const today = santiagoToday(nowMs)
  return {
    batchId: batchIdOfFile(published.file),
    batchDate: published.batchDate,
    contentHash: published.contentHash,
    rowCounts: published.rowCounts,
    previousBatchId: previous === null ? null : batchIdOfFile(previous),
    changes,
    late: (published.sources ?? [])
      .filter((s) => sourceState(s, today) === "late")
      .map((s) => ({ dataSet: s.data_set, cadence: s.cadence, latestValueDate: s.latest_value_date })),
  }
}

/** The rollbacks the ledger recorded after `afterSeq` (all at 0), in order, as CURRENT's moves (the batch it names again, and the one it left). */
const rollbacksAfter = (dataDir: string, afterSeq: number) => {
  const ledgerPath = paths(dataDir).ledger
  // opening the ledger creates it: a data folder the pipeline never ran in has no rollbacks
  if (!existsSync(ledgerPath)) return []
  const ledger = new SqliteLedger(ledgerPath)
  try {
    return ledger.events("BatchRolledBack", afterSeq).map((e) => ({
      seq: e.seq,
      atMs: Date.parse(e.recordedAt),
      batchId: batchIdOfFile(e.payload.file),
      batchDate: e.payload.batch_date,
      fromBatchId: e.payload.from_file === null ? null : batchIdOfFile(e.payload.from_file),
    }))
  } finally {
    ledger.close()
  }
}

/**
 * The push of this process, its settings read (through `provider`) at once: a bad one throws. The
 * accounts store is opened at its first use, and again at the next use while it cannot be (a
 * PostgreSQL store away when the daemon starts delays the webhooks, never the runs).
 */
export const startWebhookPush = async (provider: ConfigProvider.ConfigProvider, now: () => number = Date.now): Promise<WebhookPush> => {
  const dataDir = readSettings(dataDirSetting, provider)
  const settings = readSettings(webhookSettings, provider)
  const pollMs = readSettings(
    Config.schema(Schema.Int.check(Schema.isBetween({ minimum: 100, maximum: 3_600_000 })), "FDS_WEBHOOKS_POLL_MS").pipe(Config.withDefault(5000)),
    provider,
  )
  const scope = Effect.runSync(Scope.make())
  const layer = Layer.mergeAll(AccountsConfig.layer(dataDir)).pipe(
    Layer.provideMerge(Layer.mergeAll(AccountsDb.layer(dataDir), serveAddress)),
    Layer.provide(ConfigProvider.layer(provider)),
  )
  let opened: Promise<{ readonly ctx: DeliveryContext; readonly publicUrl: URL }> | null = null
  const open = () => {
    opened ??= Effect.runPromiseExit(Layer.buildWithScope(layer, scope)).then((built) => {
      if (Exit.isFailure(built)) {
        opened = null // tried again at the next use
        throw new Error(`webhooks: the accounts store or its settings cannot be used: ${Cause.pretty(built.cause).slice(0, 500)}`)
      }
      const db = Context.get(built.value, AccountsDb)
      const config = Context.get(built.value, AccountsConfig)
      return { ctx: { db, serviceSecret: config.secret, send: settings, now }, publicUrl: config.publicUrl }
    })
    return opened
  }

  const afterPublish = async (published: Published): Promise<Readonly<Record<string, unknown>>> => {
    const { ctx, publicUrl } = await open()
    const db = ctx.db
    const at = now()
    const batch = findPublishedBatch(dataDir, { file: published.file })
    // batch.published (and source.late) at once; the change counts, which read both batches, after it is sent
    const quick = publishedEvents(publishedFacts(batch, published, at, false), publicUrl, at)
    let written = 0
    for (const event of quick) if (await recordEvent(db, event)) written++
    const first = await deliverDue(ctx)
    const counted = publishedEvents(publishedFacts(batch, published, at, true), publicUrl, at).filter((e) => !quick.some((q) => q.id === e.id))
    for (const event of counted) if (await recordEvent(db, event)) written++
    const then = counted.length === 0 ? { delivered: 0, retrying: 0, failed: 0 } : await deliverDue(ctx)
    const events = [...quick, ...counted].map((e) => e.type)
    return {
      webhooks: {
        events,
        new_events: written,
        delivered: first.delivered + then.delivered,
        retrying: first.retrying + then.retrying,
        failed: first.failed + then.failed,
      },
    }
  }

  // The last ledger seq whose rollback is written (or was older than a day): the next tick reads
  // past it. Kept in memory: the first tick of a process reads them all, keeping the last day's.
  let seenSeq = 0
  const work = { ticks: 0, rollbacksRead: 0, sendRounds: 0 }
  const tick = async () => {
    const { ctx, publicUrl } = await open()
    work.ticks++
    let rollbacks = 0
    const read = rollbacksAfter(dataDir, seenSeq)
    work.rollbacksRead += read.length
    const since = now() - DAY_MS
    for (const r of read) {
      if (r.atMs >= since && (await recordEvent(ctx.db, rolledBackEvent(r, publicUrl, r.atMs)))) rollbacks++
      // past it once written: a store that fails here has the next tick read it again
      seenSeq = Math.max(seenSeq, r.seq)
    }
    // nothing pending and due (no endpoint, or everything sent): no round of claims
    if (!(await hasDueDelivery(ctx.db, now()))) return { rollbacks, delivered: 0, retrying: 0, failed: 0 }
    work.sendRounds++
    return { rollbacks, ...(await deliverDue(ctx)) }
  }

  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> = Promise.resolve()
  const start = (log: Log) => {
    const loop = () => {
      running = tick().then(
        (r) => {
          if (r.rollbacks + r.delivered + r.retrying + r.failed > 0) log("info", "webhooks sent", { ...r })
        },
        (e: unknown) => log("warn", "webhooks: sending failed; trying again later", { error: e instanceof Error ? e.message : String(e) }),
      )
      void running.then(() => {
        if (timer !== undefined) timer = setTimeout(loop, pollMs)
      })
    }
    timer = setTimeout(loop, pollMs)
  }

  const close = async () => {
    clearTimeout(timer)
    timer = undefined
    await running
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }

  return { afterPublish, tick, work: () => ({ ...work }), start, close }
}
