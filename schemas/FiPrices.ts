/** Response model of `/api/fi/instruments/{instrument_id}/prices`: CMF book values, ascending by date. */
import { Schema } from "effect"
import { FiSerieRef, FiUuid } from "./FiInstruments.ts"
import { FiMetaFields } from "./FiStatus.ts"
import { PageLinks } from "./Paging.ts"

export const FiPriceRow = Schema.Struct({
  date: Schema.String.annotate({ description: "YYYY-MM-DD" }),
  serie_id: FiUuid,
  serie: Schema.String,
  currency: Schema.NullOr(Schema.String),
  book_value: Schema.Finite.annotate({ description: "Valor libro of the quota (price_basis valor_libro)" }),
  economic_value: Schema.NullOr(Schema.Finite).annotate({ description: "Valor económico of the quota" }),
  patrimony: Schema.NullOr(Schema.Finite).annotate({ description: "Patrimonio neto of the series" }),
  total_assets: Schema.NullOr(Schema.Finite).annotate({ description: "Activo total of the fund" }),
  holders: Schema.NullOr(Schema.Int).annotate({ description: "Aportantes" }),
  institutional_holders: Schema.NullOr(Schema.Int),
}).annotate({ identifier: "FiPrice" })

export const FiPriceList = Schema.Struct({
  data: Schema.Array(FiPriceRow),
  meta: Schema.Struct({
    ...FiMetaFields,
    instrument_id: FiUuid,
    price_source: Schema.Literal("cmf"),
    price_basis: Schema.Literal("valor_libro"),
    series: Schema.Array(FiSerieRef).annotate({ description: "The instrument's series, in the order rows of one date follow" }),
  }),
  total: Schema.Int.annotate({ description: "Rows in the date range, before paging" }),
  limit: Schema.Int,
  offset: Schema.Int,
  links: PageLinks,
}).annotate({
  identifier: "FiPriceList",
  description: "Book values of every series of the instrument, ascending by date (then by series label)",
})
