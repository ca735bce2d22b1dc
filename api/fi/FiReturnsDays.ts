/**
 * /api/real_assets/{asset_id}/days for an FI/ETF UUID: the series' CMF book values, ascending by
 * date, in the FM item shape plus `currency` (the instrument's accounting currency as CMF writes
 * it), `price_source: cmf` and `price_basis: valor_libro`. An instrument UUID resolves to its main
 * series (meta `serie_id` says which); an unknown UUID (or an instrument without series) is a 404,
 * and a batch without FI data a 503 (docs/fi.md). Written straight to JSON text like the FM /days;
 * the shape is RealAssetDays' with the optional fields of schemas/FiRealAssets.ts, checked against
 * /openapi.json by test/http/realAssetsContract.test.ts.
 */

import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { intToDate } from "../../schemas/Dates.ts"
import { bookValues } from "../../snapshots/readers/FiBookValues.ts"
import { PinnedSnapshot } from "../snapshot/Pinned.ts"
import { requireFiSubject } from "./FiReturns.ts"

/** The book values from `from` to `to` (YYYYMMDD, inclusive). */
export const fiDaysResponse = Effect.fn(function* (assetText: string, from: number, to: number) {
  const s = yield* requireFiSubject(assetText.toLowerCase(), assetText)
  const lease = yield* PinnedSnapshot
  return yield* lease.read((r) => {
    const currency = JSON.stringify(s.serie.currency)
    const items = bookValues(r, s.serie.serie_id, from, to).map((row) => {
      const iso = intToDate(row.date)
      return `{"id":"${assetText}_${iso}","type":"real_asset_day","attributes":{"date":"${iso}","price":${row.book_value},"currency":${currency},"price_source":"cmf","price_basis":"valor_libro"}}`
    })
    const meta = JSON.stringify({ batch_id: batchIdOfFile(lease.file), asset_id: assetText, batch_date: r.batchDate, count: items.length, serie_id: s.serie.serie_id })
    return HttpServerResponse.text(`{"data":[${items.join(",")}],"meta":${meta}}`, { contentType: "application/json" })
  })
})
