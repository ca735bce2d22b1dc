/**
 * Response models of the catalog routes, JSON:API style ({ data: [{ id, type, attributes }] })
 * as the reference contract shows them.
 */
import { Schema } from "effect"
import { MetaBatchId } from "./Batches.ts"
import { FiDayFields, FiDaysMetaFields } from "./FiRealAssets.ts"

const resource = <T extends string, A extends Schema.Top>(type: T, attributes: A) =>
  Schema.Struct({
    id: Schema.String.annotate({ description: "Decimal id (CRC32 of a natural key), as a string" }),
    type: Schema.Literal(type),
    attributes,
  })

export const AssetProvider = resource(
  "asset_provider",
  Schema.Struct({ name: Schema.String.annotate({ description: "Administrator (AGF) name as CMF registers it" }) }),
).annotate({ identifier: "AssetProvider", description: "A fund administrator (AGF)" })

export const AssetProviderList = Schema.Struct({ data: Schema.Array(AssetProvider) }).annotate({
  identifier: "AssetProviderList",
})

export const ConceptualAsset = resource(
  "conceptual_asset",
  Schema.Struct({
    name: Schema.String,
    symbol: Schema.String.annotate({ description: "RUN with check digit, e.g. 8043-8" }),
    run: Schema.String.annotate({ description: "Fund RUN with check digit" }),
    category: Schema.NullOr(Schema.String).annotate({
      description: "CMF fund type (1–8) as a word: money_market_90d, debt_365d, debt_medium_long, balanced, equity, free_investment, structured, qualified_investors",
    }),
    currency: Schema.NullOr(Schema.String).annotate({ description: "CLP, USD or EUR" }),
    cmf_fund_type: Schema.NullOr(Schema.Int).annotate({ description: "CMF fund type code 1–8" }),
  }),
).annotate({ identifier: "ConceptualAsset", description: "A mutual fund (all its series)" })

export const ConceptualAssetList = Schema.Struct({ data: Schema.Array(ConceptualAsset) }).annotate({
  identifier: "ConceptualAssetList",
  description:
    "The administrator's current funds: no CMF registry end date on or before the batch date, and an active series (see RealAsset end_date) or none yet",
})

export const LastDay = Schema.Struct({
  net_asset_value: Schema.Finite.annotate({ description: "Quota value in the series currency" }),
  total_net_assets: Schema.NullOr(Schema.Finite).annotate({ description: "Patrimony (PATRIMONIO_NETO), series currency" }),
  shareholders: Schema.NullOr(Schema.Int).annotate({ description: "Number of holders (NUM_PARTICIPES)" }),
  date: Schema.String.annotate({
    description: "Date of this quota, the series' latest: before the batch date when the series reports late",
  }),
  quota_source: Schema.Literals(["cartola", "bpr"]).annotate({
    description:
      "Where this quota comes from: the CMF's daily cartola (final), or its daily BPR report (provisional: valor cuota to 4 decimals, " +
      "no distribution factors; the cartola of that day replaces it, and the batch manifest records any correction)",
  }),
}).annotate({ identifier: "LastDay" })

export const RealAsset = resource(
  "real_asset",
  Schema.Struct({
    name: Schema.String,
    serie: Schema.String,
    run: Schema.String,
    currency: Schema.NullOr(Schema.String),
    investor_class: Schema.String.annotate({ description: "APV, Institutional or Retail, from the series label" }),
    start_date: Schema.NullOr(Schema.String).annotate({ description: "First quota date published for the series" }),
    end_date: Schema.NullOr(Schema.String).annotate({
      description:
        "Date of the last quota once the series has ended: its fund has a CMF registry end date on or before the batch date, " +
        "or it has gone more than the grace period (10 weekdays by default) without a quota. Null while the series is active, " +
        "even when its last quota is a few days old (last_day.date gives its date)",
    }),
    last_day: Schema.NullOr(LastDay),
  }),
).annotate({ identifier: "RealAsset", description: "One series of a fund" })

export const RealAssetList = Schema.Struct({ data: Schema.Array(RealAsset) }).annotate({ identifier: "RealAssetList" })

export const RealAssetDay = Schema.Struct({
  id: Schema.String.annotate({ description: "<asset_id>_<date>" }),
  type: Schema.Literal("real_asset_day"),
  attributes: Schema.Struct({
    date: Schema.String,
    price: Schema.Finite.annotate({ description: "Quota value (FM) or CMF book value (FI/ETF ids)" }),
    ...FiDayFields,
  }),
}).annotate({ identifier: "RealAssetDay" })

export const RealAssetDays = Schema.Struct({
  data: Schema.Array(RealAssetDay),
  meta: Schema.Struct({
    batch_id: MetaBatchId,
    asset_id: Schema.String,
    batch_date: Schema.String.annotate({ description: "Date of the published batch that answered" }),
    count: Schema.Int,
    ...FiDaysMetaFields,
  }),
}).annotate({
  identifier: "RealAssetDays",
  description: "Daily quota values (FM) or CMF book values (FI/ETF ids), ascending by date, never truncated",
})
