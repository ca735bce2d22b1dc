/** Response models of the FI/ETF catalog: `/api/fi/instruments` rows and page. */
import { Schema } from "effect"
import { FiInstrumentStatus, FiMeta, FiRegulatoryType, FiVehicle, PriceStatus } from "./FiStatus.ts"
import { PageLinks } from "./Paging.ts"

export const FiUuid = Schema.String.annotate({ description: "UUID (v5 of a natural key; see docs/fi.md)" })

/** A series of an instrument, by its UUID (usable as `asset_id` on `/api/real_assets/{asset_id}/*`). */
export const FiSerieRef = Schema.Struct({
  serie_id: FiUuid,
  serie: Schema.String.annotate({ description: "Series label, upper case (UNICA, A, I, …)" }),
  currency: Schema.NullOr(Schema.String).annotate({ description: "Currency of the book values as CMF writes it (CLP, USD, COP, …)" }),
}).annotate({ identifier: "FiSerieRef" })

export const FiInstrumentRow = Schema.Struct({
  instrument_id: FiUuid,
  run: Schema.String.annotate({ description: "Fund RUN with check digit, e.g. 9251-K" }),
  name: Schema.String,
  vehicle: FiVehicle,
  is_etf: Schema.Boolean,
  ticker: Schema.NullOr(Schema.String).annotate({ description: "Exchange ticker (ETFs), else null" }),
  regulatory_type: FiRegulatoryType,
  status: FiInstrumentStatus,
  provider_id: Schema.Int.annotate({ description: "Administrator id (CRC32; see docs/fi.md for administrators known only by name)" }),
  administrator: Schema.String.annotate({ description: "Administrator name as the CMF list writes it" }),
  last_price_date: Schema.NullOr(Schema.String).annotate({ description: "Date of the last CMF book value of any series" }),
  price_status: PriceStatus,
  main_serie_id: Schema.NullOr(FiUuid).annotate({
    description: "The series an instrument UUID resolves to (latest book value, then largest patrimony, then label); null without series",
  }),
  series: Schema.Array(FiSerieRef),
}).annotate({ identifier: "FiInstrument", description: "An investment fund or ETF" })
export type FiInstrumentRow = typeof FiInstrumentRow.Type

export const FiInstrumentList = Schema.Struct({
  data: Schema.Array(FiInstrumentRow),
  meta: FiMeta,
  total: Schema.Int.annotate({ description: "Rows matching the filters, before paging" }),
  limit: Schema.Int,
  offset: Schema.Int,
  links: PageLinks,
}).annotate({ identifier: "FiInstrumentList", description: "Investment funds and ETFs, ordered by name, then RUN" })
