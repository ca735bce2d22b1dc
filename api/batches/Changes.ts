/**
 * Handler of GET /api/changes: leases the two batches from the snapshot store (ChangesBatches.ts),
 * opens their files side by side on a read-only connection of the request's own
 * (snapshots/changes/BatchPair.ts, closed with the request) and computes one page of the feed
 * (snapshots/changes/Changes.ts). The computation runs on the event loop in steps of one series,
 * giving the loop back every few milliseconds, and stops at the page's scan budget, so a request
 * never holds the server for long: comparing two full histories takes a few pages. What the two
 * manifests' digests show identical (a daily batch's unchanged months and tables) is not read.
 */
import { Effect } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { InvalidParameter, ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { BATCH_ID_HEADER } from "../../schemas/Batches.ts"
import type { ChangeItem } from "../../schemas/Changes.ts"
import { BatchPair } from "../../snapshots/changes/BatchPair.ts"
import { type ChangesPage, changesPage, SECTION_COUNT } from "../../snapshots/changes/Changes.ts"
import type { ChangesOptions } from "../../snapshots/changes/ChangesOptions.ts"
import { decodeCursor, encodeCursor, type Position, START } from "../../snapshots/changes/Position.ts"
import { Api } from "../Api.ts"
import { cursorLinks, requestTarget, sendLinkHeader } from "../http/PageLinks.ts"
import { PinnedSnapshot } from "../snapshot/Pinned.ts"
import { seriesGraceWeekdays } from "../snapshot/SeriesGrace.ts"
import type { ChangesQuery } from "./ChangesApi.ts"
import { batchIdOf, identicalOf, leasedBatch } from "./ChangesBatches.ts"

/**
 * Rows (estimated from each series' range: weekdays, or months for TAC) one page compares at most.
 * At full size (9.3 M daily values, 1.3 M book values) comparing two whole histories takes about
 * six pages; two consecutive batches (their identical months skipped), one.
 */
export const SCAN_BUDGET = 2_000_000

/** The computation gives the event loop back when a step ends this long after the last time it did. */
const STEP_MILLIS = 10

const invalid = (parameter: string, message: string) => new InvalidParameter({ parameter, message: `${parameter}: ${message}` })

/** Where the page starts, and the batch the cursor was made for (null without a cursor). */
const startOf = (query: ChangesQuery): Effect.Effect<{ position: Position; toBatch: string | null }, InvalidParameter> => {
  if (query.cursor === undefined) return Effect.succeed({ position: START, toBatch: null })
  const cursor = decodeCursor(query.cursor, SECTION_COUNT)
  if (cursor === null) return Effect.fail(invalid("cursor", "not a cursor of this feed: pass meta.next_cursor as it came"))
  if (cursor.fromBatch !== query.from_batch || (query.to_batch !== undefined && query.to_batch !== cursor.toBatch)) {
    return Effect.fail(invalid("cursor", `this cursor pages the changes from ${cursor.fromBatch} to ${cursor.toBatch}, not this request's batches`))
  }
  return Effect.succeed({ position: cursor.position, toBatch: cursor.toBatch })
}

/** Runs the page's computation to its end, giving the event loop back between steps. */
const runPage = (pair: BatchPair, position: Position, options: Omit<ChangesOptions, "scanBudget">): Effect.Effect<ChangesPage> =>
  Effect.gen(function* () {
    const steps = changesPage(pair, position, { ...options, scanBudget: SCAN_BUDGET })
    let since = performance.now()
    for (;;) {
      const step = steps.next()
      if (step.done === true) return step.value
      if (performance.now() - since >= STEP_MILLIS) {
        yield* Effect.yieldNow
        since = performance.now()
      }
    }
  })

/** 503 when a leased file cannot be opened again (gone from disk since): the next request finds out why. */
const unopenable = new ServiceUnavailable({
  reason: "snapshot_changed",
  message: "a batch's snapshot file could not be opened for the comparison; retry",
  retryAfter: 1,
})

export const ChangesHandlers = HttpApiBuilder.group(Api, "changes", (handlers) =>
  Effect.map(seriesGraceWeekdays, (graceWeekdays) =>
    handlers.handle(
      "changes",
      Effect.fn(function* ({ query }) {
        const start = yield* startOf(query)
        const current = batchIdOf((yield* PinnedSnapshot).file)
        const fromId = query.from_batch
        const toId = query.to_batch ?? start.toBatch ?? current
        // batch ids begin with their dates: comparable as text
        if (fromId.slice(0, 10) > toId.slice(0, 10)) {
          return yield* invalid("from_batch", `${fromId} is newer than to_batch ${toId}${toId === current ? " (the current batch)" : ""}`)
        }
        const { from, to, page } = yield* Effect.scoped(
          Effect.gen(function* () {
            const from = yield* leasedBatch("from_batch", fromId)
            const to = yield* leasedBatch("to_batch", toId)
            const identical = identicalOf(from, to)
            const page = yield* Effect.acquireUseRelease(
              Effect.try({ try: () => new BatchPair(from.path, to.path), catch: () => unopenable }),
              (pair) => runPage(pair, start.position, { limit: query.limit, graceWeekdays, identical }),
              (pair) => Effect.sync(() => pair.close()),
            )
            return { from, to, page }
          }),
        )
        // the page brings a copy to to_batch: that is the batch it names (the pinned lease is the current one)
        yield* HttpEffect.appendPreResponseHandler((_request, response) =>
          Effect.succeed(HttpServerResponse.setHeader(response, BATCH_ID_HEADER, to.id)),
        )
        const nextCursor = page.next === null ? null : encodeCursor({ fromBatch: from.id, toBatch: to.id, position: page.next })
        const { path, query: given } = yield* requestTarget
        const links = cursorLinks(path, given, { to_batch: to.id }, nextCursor)
        yield* sendLinkHeader(links)
        return {
          data: page.items as ChangeItem[],
          links,
          meta: {
            batch_id: to.id,
            from_batch: from.id,
            to_batch: to.id,
            from_batch_date: from.batchDate,
            to_batch_date: to.batchDate,
            limit: query.limit,
            count: page.items.length,
            next_cursor: nextCursor,
          },
        }
      }),
    ),
  ),
)
