/**
 * /api/market-summary (the batch's own date from ready bytes; an earlier date computed as a
 * backtest over today's funds, off the event loop: OffThreadRender.ts) and /api/families/{family_rar}/index (the
 * precomputed points; an unknown family or currency without data is 200 with available=false).
 */
import { Effect } from "effect"
import { InvalidParameter } from "../../schemas/ApiErrors.ts"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { familyOf } from "../../schemas/MarketParams.ts"
import type { Universe } from "../../schemas/MarketUniverse.ts"
import { keptLru } from "../../snapshots/readers/MarketDb.ts"
import { latestDates } from "../../snapshots/readers/MarketMutualFunds.ts"
import { readyUniverseAnswer } from "../../snapshots/readers/MarketReady.ts"
import { read } from "../snapshot/Pinned.ts"
import { defaultCurrency, familyCurrencies, familyIndexMeta, indexItems } from "./MarketIndexSeries.ts"
import { asOfNeedsDate, jsonBytes, jsonText, notAfterBatch, stampedReadyResponse } from "./MarketResponses.ts"
import type { FamilyIndexQuery } from "./MarketViewsApi.ts"
import { OffThreadRenderer } from "./OffThreadRender.ts"

const noData = (date: string, universe: Universe = "current") =>
  new InvalidParameter({
    parameter: "date",
    message:
      universe === "as_of"
        ? `invalid query parameter date: no quote of the funds alive on ${date} on or before it`
        : `invalid query parameter date: no quote of today's funds on or before ${date}`,
  })

/** Rendered summaries kept per snapshot (~30 kB each at full size). */
const KEPT_SUMMARIES = 64

/**
 * The batch's own date from the ready bytes; an earlier one rendered off the event loop and kept.
 * universe=as_of (with a date, else 400) is always rendered, over the series alive on that date.
 */
export const marketSummaryAnswer = Effect.fn(function* (date: string | undefined, graceWeekdays: number, universe?: Universe) {
  yield* asOfNeedsDate(universe, date)
  yield* notAfterBatch("date", date)
  if (universe === "as_of" && date !== undefined) return yield* asOfSummary(date, graceWeekdays)
  const found = yield* read((r) => {
    const latest = latestDates(r.db, dateToInt(r.batchDate), graceWeekdays)
    const cutoff = date === undefined ? dateToInt(r.batchDate) : dateToInt(date)
    return {
      latest,
      cutoff,
      ready: latest !== null && cutoff >= latest.date ? readyUniverseAnswer(r.db, "market-summary", graceWeekdays) : null,
      // the date the 422 names when there is nothing to answer from
      asked: date ?? r.batchDate,
      path: r.path,
      // rendered summaries, and null for a date with nothing to answer from (a 422, kept too)
      kept: keptLru<Uint8Array | null>(r.db, `summary:${graceWeekdays}`, KEPT_SUMMARIES),
    }
  })
  if (found.latest === null) return yield* noData(found.asked)
  if (found.ready !== null) return stampedReadyResponse(found.ready, batchIdOfFile(found.path))
  const cutoff = Math.min(found.cutoff, found.latest.date)
  const key = String(cutoff)
  let answer = found.kept.get(key)
  if (answer === undefined) {
    const renderer = yield* OffThreadRenderer
    answer = yield* renderer.render({ kind: "marketSummary", path: found.path, cutoff, graceWeekdays })
    found.kept.set(key, answer)
  }
  return answer === null ? yield* noData(found.asked) : jsonBytes(answer)
})

/** The summary over the series alive on `date` (at most the batch date), rendered off the event loop and kept. */
const asOfSummary = Effect.fn(function* (date: string, graceWeekdays: number) {
  const cutoff = dateToInt(date)
  const found = yield* read((r) => ({ path: r.path, kept: keptLru<Uint8Array | null>(r.db, `summary:${graceWeekdays}`, KEPT_SUMMARIES) }))
  const key = `as_of:${cutoff}`
  let answer = found.kept.get(key)
  if (answer === undefined) {
    const renderer = yield* OffThreadRenderer
    answer = yield* renderer.render({ kind: "marketSummary", path: found.path, cutoff, graceWeekdays, universe: "as_of" })
    found.kept.set(key, answer)
  }
  return answer === null ? yield* noData(date, "as_of") : jsonBytes(answer)
})

export const familyIndexAnswer = (familyText: string, query: FamilyIndexQuery) =>
  read((r) => {
    const family = familyOf(familyText) ?? null
    const currencies = family === null ? [] : familyCurrencies(r.db, family.slug)
    const currency =
      query.currency !== undefined ? query.currency : currencies.length > 0 ? defaultCurrency(currencies) : null
    const available = family !== null && currency !== null && currencies.some((c) => c.currency === currency)
    const items =
      available && family !== null && currency !== null
        ? indexItems(r.db, family.slug, currency, query.from_date === undefined ? 0 : dateToInt(query.from_date))
        : []
    const meta = { batch_id: batchIdOfFile(r.path), ...familyIndexMeta(family, familyText, currency, currencies, available) }
    return jsonText(`{"data":[${items.join(",")}],"meta":${JSON.stringify(meta)}}`)
  })
