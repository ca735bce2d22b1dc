/** Response model of `/api/asset_providers?scope=all`: FM administrators plus FI/ETF administrators. */
import { Schema } from "effect"
import { MetaBatchId } from "./Batches.ts"
import { BatchTimes } from "./FiStatus.ts"

export const Coverage = Schema.Literals(["FM", "ETF", "FI"]).annotate({
  description: "FM: mutual funds; ETF: exchange-traded funds; FI: investment funds (not ETF)",
})

export const AssetProviderAll = Schema.Struct({
  id: Schema.String.annotate({ description: "Decimal provider_id (CRC32), as a string" }),
  type: Schema.Literal("asset_provider"),
  attributes: Schema.Struct({
    name: Schema.String.annotate({ description: "Name as CMF registers it (the FM registry's when the administrator has FM funds)" }),
    coverage: Schema.Array(Coverage).annotate({ description: "What the administrator manages in this batch, in the order FM, ETF, FI" }),
    rut: Schema.optionalKey(
      Schema.NullOr(Schema.String).annotate({
        description: "RUT with check digit; null when only the FI lists name the administrator (they carry no RUT)",
      }),
    ),
    displayName: Schema.optionalKey(Schema.String.annotate({ description: "Short name: the legal suffixes dropped, title case" })),
    slug: Schema.optionalKey(Schema.String.annotate({ description: "displayName in lower case ASCII, words joined by '-'" })),
    instrument_count: Schema.optionalKey(
      Schema.Int.annotate({ description: "FI and ETF instruments of the administrator in the batch, any CMF status" }),
    ),
    fund_count: Schema.optionalKey(Schema.Int.annotate({ description: "Current mutual funds (FM) of the administrator" })),
  }),
}).annotate({
  identifier: "AssetProviderAll",
  description: "An administrator; rut, displayName, slug, instrument_count and fund_count only when it has FI or ETF instruments",
})

export const AssetProviderAllList = Schema.Struct({
  data: Schema.Array(AssetProviderAll),
  meta: Schema.Struct({ batch_id: MetaBatchId, ...BatchTimes }),
}).annotate({ identifier: "AssetProviderAllList", description: "Every administrator, FM and FI/ETF, ordered by name" })
export type AssetProviderAllList = typeof AssetProviderAllList.Type
