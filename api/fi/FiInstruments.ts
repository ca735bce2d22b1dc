/** `/api/fi/instruments`: the FI/ETF catalog, filtered and paged; and the row both it and the detail show. */

import type { FiInstrumentRow } from "../../schemas/FiInstruments.ts"
import type { FiInstrumentStatus, FiRegulatoryType } from "../../schemas/FiStatus.ts"
import { formatRun } from "../../schemas/Ids.ts"
import { priceStatus } from "../../snapshots/compute/FiStatus.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { type FiCatalog, fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import type { FiInstrumentsTable } from "../../snapshots/tables/Fi.ts"
import { fiMeta } from "./FiMeta.ts"
import type { InstrumentsQuery } from "./FiQueries.ts"
import { mainSeries } from "./FiResolver.ts"

/** Upper case without accents, single spaces: "Inversión" and "INVERSION" match. */
const fold = (s: string): string => s.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase().replace(/\s+/g, " ").trim()

export const instrumentRow = (reader: SnapshotReader, catalog: FiCatalog, i: FiInstrumentsTable): FiInstrumentRow => ({
  instrument_id: i.instrument_id,
  run: formatRun(i.run),
  name: i.name,
  vehicle: i.is_etf === 1 ? "etf" : "investment_fund",
  is_etf: i.is_etf === 1,
  ticker: i.ticker,
  regulatory_type: i.regulatory_type as typeof FiRegulatoryType.Type,
  status: i.status as typeof FiInstrumentStatus.Type,
  provider_id: i.provider_id,
  administrator: i.agf_name,
  last_price_date: i.last_price_date,
  price_status: priceStatus(i.last_price_date, catalog.cutoff),
  main_serie_id: mainSeries(reader, i.instrument_id)?.serie_id ?? null,
  series: catalog.seriesOf(i.instrument_id).map((s) => ({ serie_id: s.serie_id, serie: s.serie, currency: s.currency })),
})

const matcher = (query: InstrumentsQuery) => {
  const status = query.status
  const needle = query.q === undefined ? "" : fold(query.q)
  return (i: FiInstrumentsTable): boolean =>
    (query.provider_id === undefined || i.provider_id === query.provider_id) &&
    (query.is_etf === undefined || (i.is_etf === 1) === query.is_etf) &&
    (query.regulatory_type === undefined || i.regulatory_type === query.regulatory_type) &&
    (status === "all" || i.status === status) &&
    (needle === "" ||
      fold(i.name).includes(needle) ||
      (i.ticker !== null && fold(i.ticker).includes(needle)) ||
      formatRun(i.run).includes(needle))
}

export const instrumentsPage = (reader: SnapshotReader, query: InstrumentsQuery) => {
  const catalog = fiCatalog(reader)
  const { limit, offset } = query
  const matching = catalog.instruments.filter(matcher(query))
  return {
    data: matching.slice(offset, offset + limit).map((i) => instrumentRow(reader, catalog, i)),
    meta: fiMeta(reader),
    total: matching.length,
    limit,
    offset,
  }
}
