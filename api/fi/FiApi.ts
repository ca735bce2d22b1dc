/** Investment funds and ETFs (contract only; handlers in api/fi/Fi.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequestResponse, dataErrors, InvalidParameterResponse, NotFoundResponse } from "../../schemas/ApiErrors.ts"
import { FiHoldingList, FiPortfolioSummary } from "../../schemas/FiCartera.ts"
import { FiInstrumentDetail } from "../../schemas/FiDetail.ts"
import { FiInstrumentList } from "../../schemas/FiInstruments.ts"
import { FiPriceList } from "../../schemas/FiPrices.ts"
import { ApiKeyAuth } from "../security/Security.ts"
import { PinSnapshot } from "../snapshot/Pinned.ts"
import { CarteraQuery, InstrumentsQuery, PricesQuery } from "./FiQueries.ts"

const InstrumentId = Schema.String.check(
  Schema.isPattern(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/u),
).annotate({ description: "Instrument UUID (see docs/fi.md)" })
const instrumentParams = { instrument_id: InstrumentId }

const carteraErrors = dataErrors(BadRequestResponse, NotFoundResponse)

export class FiApi extends HttpApiGroup.make("fi")
  .add(
    HttpApiEndpoint.get("instruments", "/api/fi/instruments", {
      query: InstrumentsQuery,
      success: FiInstrumentList,
      error: dataErrors(),
    }).annotate(OpenApi.Summary, "Investment funds and ETFs: catalog, filtered and paged"),
    HttpApiEndpoint.get("instrument", "/api/fi/instruments/:instrument_id", {
      params: instrumentParams,
      success: FiInstrumentDetail,
      error: dataErrors(NotFoundResponse),
    }).annotate(OpenApi.Summary, "One investment fund or ETF: classification, latest quota, patrimony, fact sheet, TAC, article 107"),
    HttpApiEndpoint.get("prices", "/api/fi/instruments/:instrument_id/prices", {
      params: instrumentParams,
      query: PricesQuery,
      success: FiPriceList,
      error: dataErrors(InvalidParameterResponse, NotFoundResponse),
    }).annotate(OpenApi.Summary, "CMF book values of the instrument's series, ascending by date"),
    HttpApiEndpoint.get("holdings", "/api/fi/instruments/:instrument_id/cartera/holdings", {
      params: instrumentParams,
      query: CarteraQuery,
      success: FiHoldingList,
      error: carteraErrors,
    }).annotate(OpenApi.Summary, "Quarterly portfolio of the fund, per position"),
    HttpApiEndpoint.get("resumen", "/api/fi/instruments/:instrument_id/cartera/resumen", {
      params: instrumentParams,
      query: CarteraQuery,
      success: FiPortfolioSummary,
      error: carteraErrors,
    }).annotate(OpenApi.Summary, "Quarterly portfolio of the fund, grouped by instrument type"),
  )
  // the batch is pinned inside the key check: a request without a valid key never takes a lease
  .middleware(PinSnapshot)
  .middleware(ApiKeyAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "Investment funds and ETFs",
      description: "FI and ETF instruments, CMF book values and quarterly portfolios; 503 fi_unavailable when the batch has no FI data",
    }),
  ) {}
