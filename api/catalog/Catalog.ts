/** Handlers of the catalog routes: administrators, funds, series, daily values. */
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { InvalidParameter, NotFound } from "../../schemas/ApiErrors.ts"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { dateToInt, intToDate } from "../../schemas/Dates.ts"
import { currencyOf, FUND_TYPE_CATEGORY, investorClassOf } from "../../schemas/FundClass.ts"
import { formatRun, parseUint32 } from "../../schemas/Ids.ts"
import { seriesActive } from "../../snapshots/compute/SeriesActivity.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { NO_TO } from "../../snapshots/readers/FiBookValues.ts"
import { fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import { resolveAssetId } from "../../snapshots/readers/ReturnsSeries.ts"
import type { FundsTable, SeriesTable } from "../../snapshots/Tables.ts"
import { Api } from "../Api.ts"
import { providersAll } from "../fi/FiProviders.ts"
import { fiDaysResponse } from "../fi/FiReturnsDays.ts"
import { canonicalAssetText, parseAssetRef, seriesNotFound } from "../returns/ReturnsSubject.ts"
import { requireFi } from "../snapshot/FiSnapshot.ts"
import { BoundedMemo } from "../snapshot/SnapshotHandle.ts"
import { PinnedSnapshot, read } from "../snapshot/Pinned.ts"
import { seriesGraceWeekdays } from "../snapshot/SeriesGrace.ts"
import { daysCsvResponse, wantsCsv } from "./DaysCsv.ts"

const conceptualAsset = (f: FundsTable) => ({
  id: String(f.concept_id),
  type: "conceptual_asset" as const,
  attributes: {
    name: f.name,
    symbol: formatRun(f.run),
    run: formatRun(f.run),
    category: f.fund_type === null ? null : (FUND_TYPE_CATEGORY[f.fund_type] ?? null),
    currency: currencyOf(f.currency),
    cmf_fund_type: f.fund_type,
  },
})

/** A series, with `end_date` its last value's date once it has ended (compute/SeriesActivity.ts); an active one, late or not, has none. */
const realAsset = (reader: SnapshotReader, fund: FundsTable, s: SeriesTable, graceWeekdays: number) => {
  const last = reader.lastQuota(s.asset_id)
  const ended = !seriesActive({
    fundEndDate: fund.end_date,
    lastDate: s.last_date,
    batchDate: dateToInt(reader.batchDate),
    graceWeekdays,
  })
  return {
    id: String(s.asset_id),
    type: "real_asset" as const,
    attributes: {
      name: `${formatRun(s.run)} Serie ${s.serie}`,
      serie: s.serie,
      run: formatRun(s.run),
      currency: currencyOf(s.currency),
      investor_class: investorClassOf(s.serie),
      start_date: intToDate(s.first_date),
      end_date: ended ? intToDate(s.last_date) : null,
      last_day:
        last === undefined
          ? null
          : {
              net_asset_value: last.price,
              total_net_assets: last.patrimony,
              shareholders: last.holders,
              date: intToDate(last.date),
              quota_source: last.provisional === 1 ? ("bpr" as const) : ("cartola" as const),
            },
    },
  }
}

/** A decimal unsigned 32-bit id from the path (FI/ETF UUIDs for asset_id come with that work). */
const idParam = (parameter: string, text: string) => {
  const id = parseUint32(text)
  return id === null
    ? Effect.fail(
        new InvalidParameter({
          parameter,
          message: `invalid path parameter ${parameter}: expected a decimal id (unsigned 32-bit)`,
        }),
      )
    : Effect.succeed(id)
}

/**
 * /days bodies are the largest the API sends (a whole history: thousands of rows), so they are
 * written straight to JSON instead of going through schema encoding (the shape is the
 * RealAssetDays schema's; tests check it), and each series' rendered rows are kept in a small LRU
 * per snapshot generation (a published snapshot never changes, so neither do they), as UTF-8 bytes
 * outside the JS heap: an answer is the kept rows from `from_date` on (a view, no copy) between its
 * head and its meta. Building each answer as one JS string (≈0.5 MB at full size) made every
 * request a large young-generation allocation, and its collections the /days tail latency.
 */
interface RenderedDays {
  readonly dates: ReadonlyArray<number>
  /** The items' JSON, comma-separated, UTF-8. */
  readonly joined: Buffer
  /** Where each item starts in `joined`. */
  readonly offsets: ReadonlyArray<number>
}
/** Series rendered per snapshot (on its handle, so a retired batch's go with it); the least recently read go first. */
const DAYS_CACHE_ENTRIES = 256

const renderDays = (assetText: string, rows: ReadonlyArray<[number, number]>): RenderedDays => {
  const offsets: number[] = []
  let at = 0
  const items = rows.map(([date, price]) => {
    const iso = intToDate(date)
    const item = `{"id":"${assetText}_${iso}","type":"real_asset_day","attributes":{"date":"${iso}","price":${price}}}`
    offsets.push(at)
    at += Buffer.byteLength(item) + 1 // and the comma after it
    return item
  })
  return { dates: rows.map((r) => r[0]), joined: Buffer.from(items.join(","), "utf8"), offsets }
}

/** Index of the first date ≥ from (dates ascending); with `to + 1`, of the first date after `to`. */
const lowerBound = (dates: ReadonlyArray<number>, from: number): number => {
  let lo = 0
  let hi = dates.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (dates[mid]! < from) lo = mid + 1
    else hi = mid
  }
  return lo
}

const DAYS_HEAD = Buffer.from(`{"data":[`)

/** The FM series' days from `from` to `to` (YYYYMMDD, inclusive); 404 when the id names no series of the batch. */
const daysResponse = Effect.fn(function* (assetText: string, assetId: number, from: number, to: number) {
  const lease = yield* PinnedSnapshot
  const response = yield* lease.read((r) => {
    const daysCache = lease.memo("catalog:days", () => new BoundedMemo<RenderedDays>(DAYS_CACHE_ENTRIES))
    let rendered = daysCache.get(assetText)
    if (rendered === undefined) {
      // A renamed series' previous id reads the current one's continuous history; the ids in the
      // answer keep the requested text.
      const current = resolveAssetId(r.db, assetId)
      if (current === null) return null
      rendered = renderDays(assetText, r.daysFrom(current, 0))
      daysCache.set(assetText, rendered)
    }
    const first = lowerBound(rendered.dates, from)
    const stop = Math.max(first, lowerBound(rendered.dates, to + 1))
    const count = stop - first
    // an item's bytes end one before the next item's offset (the comma between them)
    const end = stop === rendered.dates.length ? rendered.joined.length : rendered.offsets[stop]! - 1
    const rows = count === 0 ? rendered.joined.subarray(0, 0) : rendered.joined.subarray(rendered.offsets[first]!, end)
    const meta = JSON.stringify({ batch_id: batchIdOfFile(lease.file), asset_id: assetText, batch_date: r.batchDate, count })
    return HttpServerResponse.uint8Array(Buffer.concat([DAYS_HEAD, rows, Buffer.from(`],"meta":${meta}}`)]), {
      contentType: "application/json",
    })
  })
  return response ?? (yield* seriesNotFound(assetText))
})

export const CatalogHandlers = HttpApiBuilder.group(Api, "catalog", (handlers) =>
  Effect.map(seriesGraceWeekdays, (grace) =>
    handlers
      .handle(
        "providers",
        Effect.fn(function* ({ query }) {
          if (query.scope === "all") {
            yield* requireFi
            return yield* read((r) => providersAll(r, grace))
          }
          return yield* read((r) => ({
            data: r.providers().map((p) => ({ id: String(p.provider_id), type: "asset_provider" as const, attributes: { name: p.name } })),
          }))
        }),
      )
      .handle(
        "conceptualAssets",
        Effect.fn(function* ({ params }) {
          const providerId = yield* idParam("provider_id", params.provider_id)
          const funds = yield* read((r) =>
            r.provider(providerId) !== undefined
              ? r.currentFundsOf(providerId, grace)
              : // an administrator known only from the FI lists (listed with scope=all) has no mutual funds
                fiCatalog(r).instruments.some((i) => i.provider_id === providerId)
                ? []
                : null,
          )
          if (funds === null) return yield* new NotFound({ message: `no administrator with id ${providerId}`, parameter: "provider_id" })
          return { data: funds.map(conceptualAsset) }
        }),
      )
      .handle(
        "realAssets",
        Effect.fn(function* ({ params }) {
          const conceptId = yield* idParam("concept_id", params.concept_id)
          const series = yield* read((r) => {
            const fund = r.fund(conceptId)
            return fund === undefined ? null : r.seriesOf(fund.concept_id).map((s) => realAsset(r, fund, s, grace))
          })
          if (series === null) return yield* new NotFound({ message: `no fund with id ${conceptId}`, parameter: "concept_id" })
          return { data: series }
        }),
      )
      .handle(
        "days",
        Effect.fn(function* ({ params, query, request }) {
          const text = canonicalAssetText(params.asset_id)
          const from = query.from_date === undefined ? 0 : dateToInt(query.from_date)
          const to = query.to_date === undefined ? NO_TO : dateToInt(query.to_date)
          const ref = yield* parseAssetRef(text)
          if (wantsCsv(query.format, request.headers.accept)) return yield* daysCsvResponse(ref, text, from, to, request.originalUrl)
          const json = ref.kind === "fi" ? yield* fiDaysResponse(ref.id, from, to) : yield* daysResponse(text, ref.id, from, to)
          // the answer depends on Accept (text/csv asks for CSV)
          return HttpServerResponse.setHeader(json, "vary", "Accept")
        }),
      ),
  ),
)
