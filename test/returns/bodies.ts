/**
 * Reading /returns answers in tests: each body is decoded with the published schema it claims to
 * follow (no field missing, none extra), then its periods are picked by window.
 */
import { Schema } from "effect"
import { expect } from "vitest"
import { AdjustedReturnResponse, FundReturnResponse, TotalReturnResponse } from "../../schemas/ReturnsResponses.ts"
import type { JsonResponse } from "../support/server.ts"

const strict = { onExcessProperty: "error" } as const

export interface PeriodBody {
  readonly value: number | null
  readonly currency: string | null
  readonly status: string
  readonly reason: string | null
  readonly annualized: boolean
  readonly target_start_date: string | null
  readonly target_end_date: string | null
  readonly effective_start_date: string | null
  readonly effective_end_date: string | null
  readonly inputs: {
    readonly start: { quota_date: string; quota_value: number; quota_currency: string | null; fx: unknown; uf: unknown } | null
    readonly end: { quota_date: string; quota_value: number; quota_currency: string | null; fx: unknown; uf: unknown } | null
  }
  readonly [extra: string]: unknown
}

export interface ReturnsBody {
  readonly data: {
    readonly id: string
    readonly type: string
    readonly attributes: Record<string, unknown> & { readonly periods: Record<string, PeriodBody> }
  }
}

/** Asserts a 200 whose body decodes with the schema for its valuation and basis. */
export const returnsBody = (res: JsonResponse, valuation = "accounting", basis = "price"): ReturnsBody => {
  expect(res.status, res.text).toBe(200)
  const schema = basis === "total" ? TotalReturnResponse : valuation === "accounting" ? FundReturnResponse : AdjustedReturnResponse
  Schema.decodeUnknownSync(schema)(res.body, strict)
  return res.body as ReturnsBody
}

export const periodOf = (body: ReturnsBody, key: string): PeriodBody => {
  const p = body.data.attributes.periods[key]
  expect(p, key).toBeDefined()
  return p as PeriodBody
}

/** An available window with the expected value (12 decimals) and no reason. */
export const expectValue = (p: PeriodBody, value: number): void => {
  expect(p.status).toBe("available")
  expect(p.reason).toBeNull()
  expect(p.value).not.toBeNull()
  expect(p.value as number).toBeCloseTo(value, 12)
}

/** An unavailable window: null value, the reason given. */
export const expectReason = (p: PeriodBody, reason: string): void => {
  expect(p.status).toBe("unavailable")
  expect(p.value).toBeNull()
  expect(p.reason).toBe(reason)
}
