/** /api/benchmarks (ready bytes, else rendered) and /api/benchmarks/{family_rar}/prices (raw closes). */
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { familyOf } from "../../schemas/MarketParams.ts"
import { toIsoDate } from "../../snapshots/compute/Calendar.ts"
import { benchmarkCatalog, benchmarkCloses, benchmarkOf } from "../../snapshots/readers/MarketBenchmarks.ts"
import { readyAnswer } from "../../snapshots/readers/MarketReady.ts"
import { read } from "../snapshot/Pinned.ts"
import { jsonText, readyResponse } from "./MarketResponses.ts"

export const benchmarksAnswer = (gzip: boolean) =>
  read((r) => {
    const ready = readyAnswer(r.db, "benchmarks")
    return ready === null ? jsonText(JSON.stringify(benchmarkCatalog(r.db))) : readyResponse(ready, gzip)
  })

export const benchmarkPricesAnswer = (familyText: string, fromDate: string | undefined) =>
  read((r) => {
    const family = familyOf(familyText)
    const b = family === undefined ? undefined : benchmarkOf(r.db, family.slug)
    const meta = {
      batch_id: batchIdOfFile(r.path),
      family_rar: family?.familyRar ?? familyText,
      family_slug: family?.slug ?? null,
      symbol: b?.symbol ?? null,
      index_name: b?.index_name ?? null,
      instrument_name: b?.instrument_name ?? null,
      native_currency: b?.native_currency ?? null,
      has_benchmark: b !== undefined,
    }
    if (b === undefined) return jsonText(`{"data":[],"meta":${JSON.stringify(meta)}}`)
    const currency = JSON.stringify(b.native_currency)
    const items = benchmarkCloses(r.db, b.symbol, fromDate === undefined ? 0 : dateToInt(fromDate)).map(
      ([date, close]) => `{"date":"${toIsoDate(date)}","close":${close},"currency":${currency}}`,
    )
    return jsonText(`{"data":[${items.join(",")}],"meta":${JSON.stringify(meta)}}`)
  })
