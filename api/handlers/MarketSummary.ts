/**
 * /api/market-summary (the batch's own date from ready bytes; an earlier date computed on the
 * pinned snapshot as a backtest over today's funds) and /api/families/{family_rar}/index (the
 * precomputed points; an unknown family or currency without data is 200 with available=false).
 */
import { Effect } from "effect"
import type { HttpServerResponse } from "effect/http"
import { InvalidParameter, type ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { familyOf, indexCurrencyOf } from "../../schemas/MarketParams.ts"
import { memoLru } from "../../snapshots/readers/MarketDb.ts"
import { marketDates } from "../../snapshots/readers/MarketDates.ts"
import { defaultCurrency, familyCurrencies, familyIndexMeta, indexItems } from "../../snapshots/readers/MarketIndexSeries.ts"
import { latestDates } from "../../snapshots/readers/MarketMutualFunds.ts"
import { readyAnswer } from "../../snapshots/readers/MarketReady.ts"
import { marketSummary } from "../../snapshots/readers/MarketSummary.ts"
import { universe } from "../../snapshots/readers/MarketUniverse.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import type { Lease } from "../SnapshotStore.ts"
import { afterBatch, jsonText, readyResponse } from "./MarketResponses.ts"

const noData = (date: string) =>
  new InvalidParameter({ parameter: "date", message: `invalid query parameter date: no quote of today's funds on or before ${date}` })

const summaryAt = (r: SnapshotReader, date: string | undefined, gzip: boolean) => {
  const batch = dateToInt(r.batchDate)
  if (date !== undefined && date > r.batchDate) return afterBatch("date", date, r.batchDate)
  const latest = latestDates(r.db, batch)
  if (latest === null) return noData(date ?? r.batchDate)
  const cutoff = date === undefined ? batch : dateToInt(date)
  if (cutoff >= latest.date) {
    const ready = readyAnswer(r.db, "market-summary")
    if (ready !== null) return readyResponse(ready, gzip)
  }
  const text = memoLru(r.db, "summary", String(Math.min(cutoff, latest.date)), 16, () => {
    const dates = cutoff >= latest.date ? latest : marketDates(r.db, universe(r.db, batch), cutoff)
    return dates === null ? null : JSON.stringify(marketSummary(r.db, batch, dates, latest))
  })
  return text === null ? noData(date ?? r.batchDate) : jsonText(text)
}

export const marketSummaryAnswer = (
  lease: Lease,
  date: string | undefined,
  gzip: boolean,
): Effect.Effect<HttpServerResponse.HttpServerResponse, InvalidParameter | ServiceUnavailable> =>
  Effect.flatMap(
    lease.read((r) => summaryAt(r, date, gzip)),
    (answer) => (answer instanceof InvalidParameter ? Effect.fail(answer) : Effect.succeed(answer)),
  )

export const familyIndexAnswer = (
  lease: Lease,
  familyText: string,
  query: { readonly currency?: string; readonly from_date?: string },
) =>
  lease.read((r) => {
    const family = familyOf(familyText) ?? null
    const currencies = family === null ? [] : familyCurrencies(r.db, family.slug)
    const currency =
      query.currency !== undefined ? indexCurrencyOf(query.currency) : currencies.length > 0 ? defaultCurrency(currencies) : null
    const available = family !== null && currency !== null && currencies.some((c) => c.currency === currency)
    const items =
      available && family !== null && currency !== null
        ? indexItems(r.db, family.slug, currency, query.from_date === undefined ? 0 : dateToInt(query.from_date))
        : []
    const meta = familyIndexMeta(family, familyText, currency, currencies, available)
    return jsonText(`{"data":[${items.join(",")}],"meta":${JSON.stringify(meta)}}`)
  })
