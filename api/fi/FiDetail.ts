/** `/api/fi/instruments/{instrument_id}`: one instrument with its quota, patrimony, fact sheet, TAC and article 107 blocks. */
import { Effect } from "effect"
import { NotFound } from "../../schemas/ApiErrors.ts"
import { intToDate } from "../../schemas/Dates.ts"
import { priceStatus, tacStatus, usableTac } from "../../snapshots/compute/FiStatus.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import type { FiInstrumentsTable, FiSeriesTable } from "../../snapshots/tables/Fi.ts"
import { read } from "../snapshot/Pinned.ts"
import { article107Of } from "./FiArticle107.ts"
import { instrumentRow } from "./FiInstruments.ts"
import { fiMeta } from "./FiMeta.ts"
import { mainSeries } from "./FiResolver.ts"

const REGULATORY: Record<string, { readonly redeemable: boolean; readonly description: string }> = {
  FIRES: { redeemable: true, description: "Fondo de inversión rescatable (FIRES)" },
  FINRE: { redeemable: false, description: "Fondo de inversión no rescatable (FINRE)" },
}

/** The instrument of an instrument UUID (any letter case) on the request's batch; 404 for anything else, a serie UUID included. */
export const requireInstrument = Effect.fn(function* (id: string) {
  const key = id.toLowerCase()
  const instrument = yield* read((r) => fiCatalog(r).instrument(key))
  if (instrument !== undefined) return instrument
  const serie = yield* read((r) => fiCatalog(r).serie(key))
  return yield* new NotFound({
    parameter: "instrument_id",
    message:
      serie === undefined
        ? `no published investment fund or ETF with instrument_id ${id}`
        : `${id} is a series id; its instrument_id is ${serie.instrument_id}`,
  })
})

const parseList = (json: string): string[] => {
  const v: unknown = JSON.parse(json)
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []
}

export const instrumentDetail = (reader: SnapshotReader, instrument: FiInstrumentsTable) => {
  const catalog = fiCatalog(reader)
  const cutoff = catalog.cutoff
  const main = mainSeries(reader, instrument.instrument_id)
  const last = main === null ? undefined : catalog.lastPrice(main.serie_id)
  const sheet = main === null ? undefined : catalog.factSheet(main.serie_id)
  const a107 = article107Of(reader, instrument.run)
  const seriesDetail = (s: FiSeriesTable) => {
    const p = catalog.lastPrice(s.serie_id)
    const f = catalog.factSheet(s.serie_id)
    const lastDate = p === undefined ? null : intToDate(p.date)
    return {
      serie_id: s.serie_id,
      serie: s.serie,
      currency: s.currency,
      is_main: s.serie_id === main?.serie_id,
      last_price_date: lastDate,
      book_value: p?.book_value ?? null,
      patrimony: p?.patrimony ?? null,
      holders: p?.holders ?? null,
      price_status: priceStatus(lastDate, cutoff),
      tac_status: tacStatus(f, cutoff),
      tac: usableTac(f, cutoff),
    }
  }
  return {
    data: {
      ...instrumentRow(reader, catalog, instrument),
      regulatory: {
        type: instrument.regulatory_type as "FIRES" | "FINRE",
        ...(REGULATORY[instrument.regulatory_type] ?? { redeemable: false, description: instrument.regulatory_type }),
      },
      latest_quota:
        main === null
          ? null
          : {
              serie_id: main.serie_id,
              serie: main.serie,
              currency: main.currency,
              date: last === undefined ? null : intToDate(last.date),
              book_value: last?.book_value ?? null,
              economic_value: last?.economic_value ?? null,
              price_basis: "valor_libro" as const,
              price_status: priceStatus(last === undefined ? null : intToDate(last.date), cutoff),
            },
      patrimony:
        main === null || last === undefined
          ? null
          : {
              serie_id: main.serie_id,
              date: intToDate(last.date),
              currency: main.currency,
              value: last.patrimony,
              total_assets: last.total_assets,
              holders: last.holders,
              institutional_holders: last.institutional_holders,
            },
      fact_sheet:
        main === null || sheet === undefined
          ? null
          : { serie_id: main.serie_id, review: sheet.review, tac: sheet.tac, sheet_date: sheet.sheet_date },
      tac: {
        serie_id: main?.serie_id ?? null,
        status: tacStatus(sheet, cutoff),
        value: usableTac(sheet, cutoff),
        as_of: cutoff,
      },
      article107:
        a107 === undefined
          ? null
          : {
              status: a107.status as "declares_eligible" | "declares_not_eligible" | "unknown",
              regulation_date: a107.regulation_date,
              series_exception: parseList(a107.series_exception),
            },
      series: catalog.seriesOf(instrument.instrument_id).map(seriesDetail),
    },
    meta: fiMeta(reader),
  }
}
