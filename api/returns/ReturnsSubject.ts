/**
 * Whose returns a request asks for: an FM series (decimal CRC32 id, or a previous id of a renamed
 * series) or an FI/ETF series (UUID). FI/ETF answers come from an optional `FiReturnsSource`
 * service, provided by the FI routes' work; without it every UUID is unknown (404).
 */
import { Context, Effect } from "effect"
import { InvalidParameter, NotFound, type ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { isUuid, parseUint32 } from "../../schemas/Ids.ts"
import type { ExpenseRatioBody, ExpenseRatioHistoryBody } from "../../schemas/ReturnsCosts.ts"
import type { AdjustedReturnBody, FundReturnBody } from "../../schemas/ReturnsResponses.ts"
import type { RiskMetricsBody } from "../../schemas/ReturnsRisk.ts"
import type { PinnedSnapshot } from "../snapshot/Pinned.ts"

/** An asset_id from the path: FM (unsigned 32-bit) or FI/ETF (UUID text, lower case). */
export type AssetRef = { readonly kind: "fm"; readonly id: number } | { readonly kind: "fi"; readonly id: string }

/**
 * The asset_id as answers spell it: a decimal id without leading zeros, a UUID in lower case (the
 * same series asked as `0002385517857` or in capitals is the same resource, with one id). Text
 * that is neither form is returned as it is (parseAssetRef refuses it).
 */
export const canonicalAssetText = (text: string): string => {
  const ref = assetRefOf(text)
  return ref === null ? text : String(ref.id)
}

const assetRefOf = (text: string): AssetRef | null => {
  if (isUuid(text)) return { kind: "fi", id: text.toLowerCase() }
  const id = parseUint32(text)
  return id === null ? null : { kind: "fm", id }
}

/** 404 for an asset_id that names no series of the request's batch. */
export const seriesNotFound = (text: string): NotFound => new NotFound({ message: `no series with id ${text}`, parameter: "asset_id" })

/** Parses the path's asset_id; 422 naming it when it is neither form. */
export const parseAssetRef = (text: string): Effect.Effect<AssetRef, InvalidParameter> => {
  const ref = assetRefOf(text)
  return ref === null
    ? Effect.fail(
        new InvalidParameter({
          parameter: "asset_id",
          message: "invalid path parameter asset_id: expected a decimal id (unsigned 32-bit) or a UUID",
        }),
      )
    : Effect.succeed(ref)
}

/** A returns request for an FI/ETF series (only `return_basis=price` reaches it). */
export interface FiReturnsRequest {
  readonly requestedId: string
  readonly cutoff: string | undefined
  readonly valuation: "accounting" | "clp" | "real_uf"
}

/**
 * FI/ETF answers of the /api/real_assets/{asset_id}/* routes, as the contract's bodies (FI-only
 * fields: schemas/FiRealAssets.ts), read on the request's pinned snapshot. Each fails with 404 for
 * an id that is not a published instrument series, and with 503 when FI data is unavailable.
 */
type FiAnswer<A, E = never> = Effect.Effect<A, NotFound | ServiceUnavailable | E, PinnedSnapshot>

export class FiReturnsSource extends Context.Service<
  FiReturnsSource,
  {
    /** Whether the id is a published FI/ETF series (false when unknown or FI data is unavailable). */
    readonly exists: (id: string) => Effect.Effect<boolean, ServiceUnavailable, PinnedSnapshot>
    readonly returns: (id: string, request: FiReturnsRequest) => FiAnswer<FundReturnBody | AdjustedReturnBody, InvalidParameter>
    readonly riskMetrics: (id: string, requestedId: string) => FiAnswer<RiskMetricsBody>
    readonly expenseRatio: (id: string, requestedId: string) => FiAnswer<ExpenseRatioBody>
    readonly expenseRatioHistory: (id: string, requestedId: string, fromDate: string | undefined) => FiAnswer<ExpenseRatioHistoryBody>
  }
>()("fds/api/FiReturnsSource") {}

/** Until the FI work provides one: no UUID is a published series. */
export const noFiSource: FiReturnsSource["Service"] = {
  exists: () => Effect.succeed(false),
  returns: (_, request) => Effect.fail(seriesNotFound(request.requestedId)),
  riskMetrics: (_, requestedId) => Effect.fail(seriesNotFound(requestedId)),
  expenseRatio: (_, requestedId) => Effect.fail(seriesNotFound(requestedId)),
  expenseRatioHistory: (_, requestedId) => Effect.fail(seriesNotFound(requestedId)),
}
