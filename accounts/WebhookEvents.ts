/**
 * The events webhooks carry, and their bodies. Each event has a stable id made from what it is
 * about (the batch, the data set and date), so the same event found twice (a re-run, a second
 * daemon on the same store) is one event and is delivered once to each endpoint. The body is the
 * Standard Webhooks shape `{ type, timestamp, data }`: metadata and links, never data rows.
 */

/** The event types an endpoint may subscribe to. */
export const EVENT_TYPES = ["batch.published", "batch.rolled_back", "values.restated", "tac.changed", "source.late"] as const
export type WebhookEventType = (typeof EVENT_TYPES)[number]

/** The event `POST /api/webhooks/{id}/test` sends (to that endpoint only; not in the feed). */
export const TEST_EVENT_TYPE = "webhook.test"

export const isEventType = (t: string): t is WebhookEventType => (EVENT_TYPES as ReadonlyArray<string>).includes(t)

/** An event as stored and sent. */
export interface WebhookEvent {
  readonly id: string
  readonly type: WebhookEventType | typeof TEST_EVENT_TYPE
  readonly createdMs: number
  readonly data: Readonly<Record<string, unknown>>
  /** A test event's one endpoint. */
  readonly endpointId?: string
}

/** The body sent (and kept): `{ type, timestamp, data }`. */
export const eventBody = (event: WebhookEvent): string =>
  JSON.stringify({ type: event.type, timestamp: new Date(event.createdMs).toISOString(), data: event.data })

/** The id of an event about a batch: `evt_<batch id>_<type>` (a batch id is `<date>-<16 hex digits of its content hash>`). */
export const batchEventId = (batchId: string, type: WebhookEventType, suffix?: string): string =>
  `evt_${batchId}_${type}${suffix === undefined ? "" : `_${suffix}`}`

/** Absolute links under the public URL (which may carry a path prefix). */
export const linkUnder = (publicUrl: URL, path: string, params: Readonly<Record<string, string>> = {}): string => {
  const base = publicUrl.href.endsWith("/") ? publicUrl.href : `${publicUrl.href}/`
  const url = new URL(path.replace(/^\/+/, ""), base)
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return url.href
}

/** The events of a published batch, as the daemon finds them (ops/WebhookEmit.ts). */
export interface PublishedFacts {
  readonly batchId: string
  readonly batchDate: string
  readonly contentHash: string
  readonly rowCounts: Readonly<Record<string, number>>
  /** The batch served before it; null for the first. */
  readonly previousBatchId: string | null
  /** Counts of the changes from the previous batch (null: no previous batch, or not counted). */
  readonly changes: { readonly valuesRestated: number; readonly tacChanged: number; readonly complete: boolean } | null
  /** Data sets late on the run's day (snapshots/Status.ts sourceState). */
  readonly late: ReadonlyArray<{ readonly dataSet: string; readonly cadence: string; readonly latestValueDate: string | null }>
}

const changesLink = (publicUrl: URL, from: string, to: string) => linkUnder(publicUrl, "/api/changes", { from_batch: from, to_batch: to })

/** Every event a published batch makes: batch.published, then restated values and TAC changes (when any), and late sources. */
export const publishedEvents = (facts: PublishedFacts, publicUrl: URL, nowMs: number): WebhookEvent[] => {
  const batch = { batch_id: facts.batchId, batch_date: facts.batchDate }
  const events: WebhookEvent[] = [
    {
      id: batchEventId(facts.batchId, "batch.published"),
      type: "batch.published",
      createdMs: nowMs,
      data: {
        ...batch,
        content_hash: facts.contentHash,
        previous_batch_id: facts.previousBatchId,
        row_counts: facts.rowCounts,
        links: {
          batch: linkUnder(publicUrl, `/api/batches/${facts.batchId}`),
          ...(facts.previousBatchId === null ? {} : { changes: changesLink(publicUrl, facts.previousBatchId, facts.batchId) }),
        },
      },
    },
  ]
  const previous = facts.previousBatchId
  if (previous !== null && facts.changes !== null) {
    const counted = { from_batch_id: previous, to_batch_id: facts.batchId, counts_complete: facts.changes.complete }
    const links = { changes: changesLink(publicUrl, previous, facts.batchId) }
    if (facts.changes.valuesRestated > 0) {
      events.push({
        id: batchEventId(facts.batchId, "values.restated"),
        type: "values.restated",
        createdMs: nowMs,
        data: { ...batch, ...counted, values_restated: facts.changes.valuesRestated, links },
      })
    }
    if (facts.changes.tacChanged > 0) {
      events.push({
        id: batchEventId(facts.batchId, "tac.changed"),
        type: "tac.changed",
        createdMs: nowMs,
        data: { ...batch, ...counted, tac_changed: facts.changes.tacChanged, links },
      })
    }
  }
  for (const late of facts.late) {
    events.push({
      // one event per data set and latest date: a source that stays late is told once, again when it moves
      id: `evt_source.late_${late.dataSet}_${late.latestValueDate ?? "none"}`,
      type: "source.late",
      createdMs: nowMs,
      data: {
        data_set: late.dataSet,
        cadence: late.cadence,
        latest_value_date: late.latestValueDate,
        noticed_with_batch_id: facts.batchId,
        links: { health: linkUnder(publicUrl, "/health") },
      },
    })
  }
  return events
}

/** The event of a rollback (ledger event `seq` made CURRENT name `batchId` again, leaving `fromBatchId`). */
export const rolledBackEvent = (
  rollback: { readonly seq: number; readonly batchId: string; readonly batchDate: string; readonly fromBatchId: string | null },
  publicUrl: URL,
  nowMs: number,
): WebhookEvent => ({
  id: batchEventId(rollback.batchId, "batch.rolled_back", String(rollback.seq)),
  type: "batch.rolled_back",
  createdMs: nowMs,
  data: {
    batch_id: rollback.batchId,
    batch_date: rollback.batchDate,
    rolled_back_batch_id: rollback.fromBatchId,
    links: { batch: linkUnder(publicUrl, `/api/batches/${rollback.batchId}`) },
  },
})
