/**
 * The states the FI/ETF routes report (their rules: snapshots/compute/FiStatus.ts, docs/fi.md),
 * and the `meta` every `/api/fi/*` answer carries.
 */
import { Schema } from "effect"
import { MetaBatchId } from "./Batches.ts"

export const PriceStatus = Schema.Literals(["current", "stale", "unavailable"]).annotate({
  identifier: "FiPriceStatus",
  description:
    "current: last CMF book value at most 7 calendar days before the FI cutoff; stale: older; unavailable: no book value at all",
})
export type PriceStatus = typeof PriceStatus.Type

export const TacStatus = Schema.Literals([
  "available",
  "pending_review",
  "not_checked",
  "stale",
  "not_reported",
  "unavailable_or_conflict",
]).annotate({
  identifier: "FiTacStatus",
  description:
    "available: reviewed sheet with a TAC, dated within 365 days of the FI cutoff; pending_review: TAC read, review pending; " +
    "not_checked: the series is not in the fact-sheet review; stale: reviewed sheet older than 365 days or undated; " +
    "not_reported: the sheet gives no TAC; unavailable_or_conflict: sources disagree, or a reviewed line without a TAC",
})
export type TacStatus = typeof TacStatus.Type

/** FI (investment fund) or ETF, as `/api/all-funds` names the vehicles. */
export const FiVehicle = Schema.Literals(["investment_fund", "etf"]).annotate({ identifier: "FiVehicle" })
export type FiVehicle = typeof FiVehicle.Type

export const FiRegulatoryType = Schema.Literals(["FIRES", "FINRE"]).annotate({
  description: "CMF register: FIRES (fondo de inversión rescatable) or FINRE (no rescatable)",
})

export const FiInstrumentStatus = Schema.Literals(["active", "inactive", "unknown"]).annotate({
  description: "CMF status: active (vigente list), inactive (no vigente list), unknown",
})

const Timestamp = Schema.String.annotate({ description: "UTC instant, YYYY-MM-DDTHH:MM:SSZ", examples: ["2026-11-21T03:00:00Z"] })

export const BatchTimes = {
  generated_at: Timestamp.annotate({
    description: "When the batch was complete: the first instant after its batch date in America/Santiago (deterministic per batch)",
  }),
  expires_at: Timestamp.annotate({
    description:
      "When the next batch is expected: the first instant after the next weekday after the batch date, America/Santiago (a holiday can delay it)",
  }),
}

/** `meta` of the FI routes: when the batch was made and expires, its date and the FI cutoff. */
export const FiMetaFields = {
  batch_id: MetaBatchId,
  ...BatchTimes,
  batch_date: Schema.String.annotate({ description: "Date of the published batch (YYYY-MM-DD)" }),
  cutoff_date: Schema.String.annotate({
    description: "The FI/ETF data's shared cutoff: the latest CMF book-value date in the batch; statuses are relative to it",
  }),
}
export const FiMeta = Schema.Struct(FiMetaFields).annotate({ identifier: "FiMeta" })
export type FiMeta = typeof FiMeta.Type
