/**
 * Whose returns a request asks for: an FM series (decimal CRC32 id, or a previous id of a renamed
 * series) or an FI/ETF series (UUID). FI/ETF answers come from an optional `FiReturnsSource`
 * service, provided by the FI routes' work; without it every UUID is unknown (404).
 */
import { Context, Effect } from "effect"
import { InvalidParameter, type ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { isUuid, parseUint32 } from "../../schemas/Ids.ts"
import type { ExpenseRatioBody, ExpenseRatioHistoryBody } from "../../schemas/ReturnsCosts.ts"
import type { AdjustedReturnBody, FundReturnBody } from "../../schemas/ReturnsResponses.ts"
import type { RiskMetricsBody } from "../../schemas/ReturnsRisk.ts"
import type { Lease } from "../snapshot/SnapshotStore.ts"

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
 * fields: schemas/FiRealAssets.ts). Each method answers null for an id that is not a published
 * instrument series (404), and fails with 503 when FI data is unavailable.
 */
export class FiReturnsSource extends Context.Service<
  FiReturnsSource,
  {
    readonly exists: (lease: Lease, id: string) => Effect.Effect<boolean, ServiceUnavailable>
    readonly returns: (
      lease: Lease,
      id: string,
      request: FiReturnsRequest,
    ) => Effect.Effect<FundReturnBody | AdjustedReturnBody | null, ServiceUnavailable | InvalidParameter>
    readonly riskMetrics: (lease: Lease, id: string, requestedId: string) => Effect.Effect<RiskMetricsBody | null, ServiceUnavailable>
    readonly expenseRatio: (lease: Lease, id: string, requestedId: string) => Effect.Effect<ExpenseRatioBody | null, ServiceUnavailable>
    readonly expenseRatioHistory: (
      lease: Lease,
      id: string,
      requestedId: string,
      fromDate: string | undefined,
    ) => Effect.Effect<ExpenseRatioHistoryBody | null, ServiceUnavailable>
  }
>()("fds/api/FiReturnsSource") {}

/** Until the FI work provides one: no UUID is a published series. */
export const noFiSource: FiReturnsSource["Service"] = {
  exists: () => Effect.succeed(false),
  returns: () => Effect.succeed(null),
  riskMetrics: () => Effect.succeed(null),
  expenseRatio: () => Effect.succeed(null),
  expenseRatioHistory: () => Effect.succeed(null),
}
