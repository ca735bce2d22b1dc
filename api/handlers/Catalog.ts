/** Handlers of the catalog routes: administrators, funds, series, daily values. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { InvalidParameter, NotFound } from "../../schemas/ApiErrors.ts"
import { dateToInt, intToDate } from "../../schemas/Dates.ts"
import { currencyOf, FUND_TYPE_CATEGORY, investorClassOf } from "../../schemas/FundClass.ts"
import { formatRun, parseUint32 } from "../../schemas/Ids.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import type { FundsTable, SeriesTable } from "../../snapshots/Tables.ts"
import { Api } from "../Api.ts"
import { readSnapshot, withSnapshot } from "./Snapshot.ts"

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

const realAsset = (reader: SnapshotReader, fund: FundsTable, s: SeriesTable) => {
  const last = reader.lastQuota(s.asset_id)
  const ended = fund.end_date !== null || s.last_date < dateToInt(reader.batchDate)
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

export const CatalogHandlers = HttpApiBuilder.group(Api, "catalog", (handlers) =>
  handlers
    .handle("providers", () =>
      readSnapshot((r) => ({
        data: r.providers().map((p) => ({
          id: String(p.provider_id),
          type: "asset_provider" as const,
          attributes: { name: p.name },
        })),
      })),
    )
    .handle("conceptualAssets", ({ params }) =>
      Effect.flatMap(idParam("provider_id", params.provider_id), (providerId) =>
        withSnapshot((lease) =>
          Effect.flatMap(
            lease.read((r) => (r.provider(providerId) === undefined ? null : r.currentFundsOf(providerId))),
            (funds) =>
              funds === null
                ? Effect.fail(new NotFound({ message: `no administrator with id ${providerId}`, parameter: "provider_id" }))
                : Effect.succeed({ data: funds.map(conceptualAsset) }),
          ),
        ),
      ),
    )
    .handle("realAssets", ({ params }) =>
      Effect.flatMap(idParam("concept_id", params.concept_id), (conceptId) =>
        withSnapshot((lease) =>
          Effect.flatMap(
            lease.read((r) => {
              const fund = r.fund(conceptId)
              return fund === undefined ? null : r.seriesOf(fund.concept_id).map((s) => realAsset(r, fund, s))
            }),
            (series) =>
              series === null
                ? Effect.fail(new NotFound({ message: `no fund with id ${conceptId}`, parameter: "concept_id" }))
                : Effect.succeed({ data: series }),
          ),
        ),
      ),
    )
    .handle("days", ({ params, query }) =>
      Effect.flatMap(idParam("asset_id", params.asset_id), (assetId) =>
        withSnapshot((lease) =>
          Effect.flatMap(
            lease.read((r) => {
              if (r.series(assetId) === undefined) return null
              const from = query.from_date === undefined ? 0 : dateToInt(query.from_date)
              return { batchDate: r.batchDate, rows: r.daysFrom(assetId, from) }
            }),
            (found) => {
              if (found === null) {
                return Effect.fail(new NotFound({ message: `no series with id ${params.asset_id}`, parameter: "asset_id" }))
              }
              const id = params.asset_id
              return Effect.succeed({
                data: found.rows.map(([date, price]) => {
                  const iso = intToDate(date)
                  return { id: `${id}_${iso}`, type: "real_asset_day" as const, attributes: { date: iso, price } }
                }),
                meta: { asset_id: id, batch_date: found.batchDate, count: found.rows.length },
              })
            },
          ),
        ),
      ),
    ),
)
