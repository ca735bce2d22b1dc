/**
 * /api/market-summary (the batch's own date from ready bytes; an earlier date computed as a
 * backtest over today's funds, off the event loop: OffThreadRender.ts) and /api/families/{family_rar}/index (the
 * precomputed points; an unknown family or currency without data is 200 with available=false).
 */
import { Effect } from "effect"
import type { HttpServerResponse } from "effect/http"
import { InvalidParameter, type ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { familyOf } from "../../schemas/MarketParams.ts"
import { keptLru } from "../../snapshots/readers/MarketDb.ts"
import { latestDates } from "../../snapshots/readers/MarketMutualFunds.ts"
import { readyUniverseAnswer } from "../../snapshots/readers/MarketReady.ts"
import type { Lease } from "../snapshot/SnapshotStore.ts"
import { defaultCurrency, familyCurrencies, familyIndexMeta, indexItems } from "./MarketIndexSeries.ts"
import { afterBatch, jsonBytes, jsonText, readyResponse } from "./MarketResponses.ts"
import type { FamilyIndexQuery } from "./MarketViewsApi.ts"
import { OffThreadRenderer } from "./OffThreadRender.ts"

const noData = (date: string) =>
  new InvalidParameter({ parameter: "date", message: `invalid query parameter date: no quote of today's funds on or before ${date}` })

/** Rendered summaries kept per snapshot (~30 kB each at full size). */
const KEPT_SUMMARIES = 64

interface ToRender {
  readonly path: string
  readonly cutoff: number
  /** The date the 422 names when there is nothing to answer from. */
  readonly asked: string
  /** Rendered summaries, and null for a date with nothing to answer from (a 422, kept too). */
  readonly kept: ReturnType<typeof keptLru<Uint8Array | null>>
}

/** The batch's own date from the ready bytes; an earlier one rendered off the event loop and kept. */
export const marketSummaryAnswer = (
  lease: Lease,
  date: string | undefined,
  gzip: boolean,
  graceWeekdays: number,
): Effect.Effect<HttpServerResponse.HttpServerResponse, InvalidParameter | ServiceUnavailable, OffThreadRenderer> =>
  Effect.gen(function* () {
    const resolved = yield* lease.read((r): InvalidParameter | HttpServerResponse.HttpServerResponse | ToRender => {
      const batch = dateToInt(r.batchDate)
      if (date !== undefined && date > r.batchDate) return afterBatch("date", date, r.batchDate)
      const latest = latestDates(r.db, batch, graceWeekdays)
      if (latest === null) return noData(date ?? r.batchDate)
      const cutoff = date === undefined ? batch : dateToInt(date)
      if (cutoff >= latest.date) {
        const ready = readyUniverseAnswer(r.db, "market-summary", graceWeekdays)
        if (ready !== null) return readyResponse(ready, gzip)
      }
      return {
        path: r.path,
        cutoff: Math.min(cutoff, latest.date),
        asked: date ?? r.batchDate,
        kept: keptLru<Uint8Array | null>(r.db, `summary:${graceWeekdays}`, KEPT_SUMMARIES),
      }
    })
    if (resolved instanceof InvalidParameter) return yield* resolved
    if (!("kept" in resolved)) return resolved
    const key = String(resolved.cutoff)
    let answer = resolved.kept.get(key)
    if (answer === undefined) {
      const renderer = yield* OffThreadRenderer
      const rendered = yield* renderer.render({ kind: "marketSummary", path: resolved.path, cutoff: resolved.cutoff, graceWeekdays })
      if (rendered !== null && !(rendered instanceof Uint8Array)) {
        return yield* Effect.die(new Error("a market summary rendering answered a vehicle"))
      }
      answer = rendered
      resolved.kept.set(key, answer)
    }
    return answer === null ? yield* noData(resolved.asked) : jsonBytes(answer)
  })

export const familyIndexAnswer = (
  lease: Lease,
  familyText: string,
  query: FamilyIndexQuery,
) =>
  lease.read((r) => {
    const family = familyOf(familyText) ?? null
    const currencies = family === null ? [] : familyCurrencies(r.db, family.slug)
    const currency =
      query.currency !== undefined ? query.currency : currencies.length > 0 ? defaultCurrency(currencies) : null
    const available = family !== null && currency !== null && currencies.some((c) => c.currency === currency)
    const items =
      available && family !== null && currency !== null
        ? indexItems(r.db, family.slug, currency, query.from_date === undefined ? 0 : dateToInt(query.from_date))
        : []
    const meta = familyIndexMeta(family, familyText, currency, currencies, available)
    return jsonText(`{"data":[${items.join(",")}],"meta":${JSON.stringify(meta)}}`)
  })
