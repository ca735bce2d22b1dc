/** `/api/fi/instruments/{instrument_id}/prices`: CMF book values of the instrument's series, ascending, paged. */
import { dateToInt, intToDate } from "../../schemas/Dates.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { NO_FROM, NO_TO, pricePage } from "../../snapshots/readers/FiBookValues.ts"
import { fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import type { FiInstrumentsTable } from "../../snapshots/tables/Fi.ts"
import { fiMeta } from "./FiMeta.ts"
import type { PricesQuery } from "./FiQueries.ts"

export const instrumentPrices = (reader: SnapshotReader, instrument: FiInstrumentsTable, query: PricesQuery) => {
  const series = fiCatalog(reader).seriesOf(instrument.instrument_id)
  const bySerie = new Map(series.map((s) => [s.serie_id, s]))
  const { limit, offset } = query
  const page = pricePage(
    reader,
    series.map((s) => s.serie_id),
    {
      from: query.from_date === undefined ? NO_FROM : dateToInt(query.from_date),
      to: query.to_date === undefined ? NO_TO : dateToInt(query.to_date),
      limit,
      offset,
    },
  )
  return {
    data: page.rows.map((p) => {
      const s = bySerie.get(p.serie_id)
      return {
        date: intToDate(p.date),
        serie_id: p.serie_id,
        serie: s?.serie ?? "",
        currency: s?.currency ?? null,
        book_value: p.book_value,
        economic_value: p.economic_value,
        patrimony: p.patrimony,
        total_assets: p.total_assets,
        holders: p.holders,
        institutional_holders: p.institutional_holders,
      }
    }),
    meta: {
      ...fiMeta(reader),
      instrument_id: instrument.instrument_id,
      price_source: "cmf" as const,
      price_basis: "valor_libro" as const,
      series: series.map((s) => ({ serie_id: s.serie_id, serie: s.serie, currency: s.currency })),
    },
    total: page.total,
    limit,
    offset,
  }
}
