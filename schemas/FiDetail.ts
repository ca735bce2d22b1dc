/** Response model of `/api/fi/instruments/{instrument_id}`: one instrument with its blocks. */
import { Schema } from "effect"
import { FiInstrumentRow, FiUuid } from "./FiInstruments.ts"
import { FiMeta, PriceStatus, TacStatus } from "./FiStatus.ts"

const Day = Schema.String.annotate({ description: "YYYY-MM-DD" })

export const FiRegulatory = Schema.Struct({
  type: FiInstrumentRow.fields.regulatory_type,
  redeemable: Schema.Boolean.annotate({ description: "true for FIRES (rescatable), false for FINRE" }),
  description: Schema.String,
}).annotate({ identifier: "FiRegulatory", description: "CMF regulatory classification" })

export const FiLatestQuota = Schema.Struct({
  serie_id: FiUuid,
  serie: Schema.String,
  currency: Schema.NullOr(Schema.String),
  date: Schema.NullOr(Day),
  book_value: Schema.NullOr(Schema.Finite).annotate({ description: "Valor libro of the quota (the FI price), series currency" }),
  economic_value: Schema.NullOr(Schema.Finite).annotate({ description: "Valor económico of the quota" }),
  price_basis: Schema.Literal("valor_libro"),
  price_status: PriceStatus,
}).annotate({ identifier: "FiLatestQuota", description: "Last CMF book value of the main series" })

export const FiPatrimony = Schema.Struct({
  serie_id: FiUuid,
  date: Day,
  currency: Schema.NullOr(Schema.String),
  value: Schema.NullOr(Schema.Finite).annotate({ description: "Patrimonio neto of the series" }),
  total_assets: Schema.NullOr(Schema.Finite).annotate({ description: "Activo total of the fund" }),
  holders: Schema.NullOr(Schema.Int).annotate({ description: "Aportantes" }),
  institutional_holders: Schema.NullOr(Schema.Int),
}).annotate({ identifier: "FiPatrimony", description: "Patrimony and holders on the main series' last book-value date" })

export const FiFactSheet = Schema.Struct({
  serie_id: FiUuid,
  review: Schema.String.annotate({ description: "REVISADA, PENDIENTE, NO_INFORMADA or CONFLICTO, as the review file says" }),
  tac: Schema.NullOr(Schema.Finite).annotate({ description: "TAC read from the sheet, decimal fraction (whatever its review)" }),
  sheet_date: Schema.NullOr(Day),
}).annotate({ identifier: "FiFactSheet", description: "The main series' line of the CMF fact-sheet review, as read" })

export const FiTac = Schema.Struct({
  serie_id: Schema.NullOr(FiUuid),
  status: TacStatus,
  value: Schema.NullOr(Schema.Finite).annotate({ description: "TAC as a decimal fraction, only when status is available" }),
  as_of: Day.annotate({ description: "The cutoff the status is relative to" }),
}).annotate({ identifier: "FiTac", description: "The main series' TAC and how far it can be trusted" })

export const FiArticle107 = Schema.Struct({
  status: Schema.Literals(["declares_eligible", "declares_not_eligible", "unknown"]),
  regulation_date: Day,
  series_exception: Schema.Array(Schema.String),
}).annotate({ identifier: "FiArticle107", description: "What the fund's internal regulation declares about article 107" })

export const FiSeriesDetail = Schema.Struct({
  serie_id: FiUuid,
  serie: Schema.String,
  currency: Schema.NullOr(Schema.String),
  is_main: Schema.Boolean,
  last_price_date: Schema.NullOr(Day),
  book_value: Schema.NullOr(Schema.Finite),
  patrimony: Schema.NullOr(Schema.Finite),
  holders: Schema.NullOr(Schema.Int),
  price_status: PriceStatus,
  tac_status: TacStatus,
  tac: Schema.NullOr(Schema.Finite).annotate({ description: "Only when tac_status is available" }),
}).annotate({ identifier: "FiSeriesDetail" })

export const FiInstrumentDetail = Schema.Struct({
  data: Schema.Struct({
    ...FiInstrumentRow.fields,
    regulatory: FiRegulatory,
    latest_quota: Schema.NullOr(FiLatestQuota).annotate({ description: "null when the instrument has no series" }),
    patrimony: Schema.NullOr(FiPatrimony).annotate({ description: "null without any book value" }),
    fact_sheet: Schema.NullOr(FiFactSheet).annotate({ description: "null when the main series is not in the review" }),
    tac: FiTac,
    article107: Schema.NullOr(FiArticle107).annotate({ description: "null when no regulation text was read for the RUN" }),
    series: Schema.Array(FiSeriesDetail).annotate({ description: "Every series, ordered by label" }),
  }),
  meta: FiMeta,
}).annotate({ identifier: "FiInstrumentDetail" })
