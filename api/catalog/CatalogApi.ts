/** Administrators, funds, series and daily quota values. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { dataErrors, NotFoundResponse } from "../../schemas/ApiErrors.ts"
import {
  AssetProviderList,
  ConceptualAssetList,
  RealAssetDays,
  RealAssetList,
} from "../../schemas/Catalog.ts"
import { AssetProviderAllList } from "../../schemas/FiProviders.ts"
import { dateRangeCheck, dateRangeFields } from "../../schemas/QueryParams.ts"
import { ApiKeyAuth } from "../security/Security.ts"
import { PinSnapshot } from "../snapshot/Pinned.ts"

/** /days as CSV (api/catalog/DaysCsv.ts). */
const DaysCsv = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })).annotate({
  description: "date,price (FI/ETF: date,price,currency,price_source,price_basis), one line per date, ascending",
})

/** /days: a date range (both ends inclusive, as on FI prices) and the representation. */
const DaysQuery = Schema.Struct({
  ...dateRangeFields,
  format: Schema.optionalKey(
    Schema.Literals(["json", "csv"]).annotate({
      description: "csv: the same values as CSV (a header line, ISO dates, `.` decimals); `Accept: text/csv` asks for it too",
    }),
  ),
}).check(dateRangeCheck)

/** Ids in paths are plain decimal digits (checked again as unsigned 32-bit in the handler). */
const DecimalId = Schema.String.check(Schema.isPattern(/^[0-9]+$/u))

export class CatalogApi extends HttpApiGroup.make("catalog")
  .add(
    HttpApiEndpoint.get("providers", "/api/asset_providers", {
      query: {
        scope: Schema.optionalKey(
          Schema.Literal("all").annotate({
            description: "all: FI/ETF administrators too, with coverage and counts (503 when the batch has no FI data)",
          }),
        ),
      },
      // The scope=all shape first: an answer without `meta` falls through to the unchanged FM shape.
      success: [AssetProviderAllList, AssetProviderList],
      error: dataErrors(),
    }).annotate(OpenApi.Summary, "All fund administrators (AGF); with scope=all also FI/ETF administrators"),
    HttpApiEndpoint.get("conceptualAssets", "/api/asset_providers/:provider_id/conceptual_assets", {
      params: { provider_id: DecimalId.annotate({ description: "Administrator id (CRC32)" }) },
      success: ConceptualAssetList,
      error: dataErrors(NotFoundResponse),
    }).annotate(OpenApi.Summary, "Current mutual funds of an administrator"),
    HttpApiEndpoint.get("realAssets", "/api/conceptual_assets/:concept_id/real_assets", {
      params: { concept_id: DecimalId.annotate({ description: "Fund id (CRC32)" }) },
      success: RealAssetList,
      error: dataErrors(NotFoundResponse),
    }).annotate(OpenApi.Summary, "All series of a fund with their latest quota value"),
    HttpApiEndpoint.get("days", "/api/real_assets/:asset_id/days", {
      params: {
        asset_id: Schema.String.annotate({
          description: "Series id: decimal CRC32 (FM; a previous id of a renamed series works too) or UUID (FI/ETF)",
        }),
      },
      query: DaysQuery,
      success: [RealAssetDays, DaysCsv],
      error: dataErrors(NotFoundResponse),
    }).annotate(OpenApi.Summary, "Daily quota values of a series, ascending, from from_date to to_date (both inclusive)"),
  )
  // the batch is pinned inside the key check: a request without a valid key never takes a lease
  .middleware(PinSnapshot)
  .middleware(ApiKeyAuth)
  .annotateMerge(OpenApi.annotations({ title: "Funds", description: "Administrators, funds, series, daily values" })) {}
