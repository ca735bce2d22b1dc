/**
 * /api/all-funds answers from rendered rows: filtering, and the `meta` rules per vehicle (spec,
 * "All-funds rows"): FM alone carries its dates and agfCount; ETF or FI alone carry the FI/ETF
 * cutoff, agfCount 0 and their own administrator count; `all` keeps the FM values and adds
 * etfAgfCount, investmentFundAgfCount and datesByVehicle (ETF and FI share one cutoff).
 */
import type { RenderedRow } from "./MarketFundRow.ts"

export const VEHICLES = ["mutual_fund", "etf", "investment_fund"] as const
export type Vehicle = (typeof VEHICLES)[number]
export type RequestedVehicle = Vehicle | "all"

/** One vehicle's rows at its cutoff. */
export interface VehiclePart {
  readonly vehicle: Vehicle
  readonly rows: ReadonlyArray<RenderedRow>
  /** YYYY-MM-DD */
  readonly date: string | null
  readonly previousDate: string | null
}

export interface AllFundsFilters {
  /** Category word, lower case. */
  readonly category?: string
  readonly familySlug?: string
  readonly article107Status?: string
}

export const filterRows = (rows: ReadonlyArray<RenderedRow>, f: AllFundsFilters): ReadonlyArray<RenderedRow> =>
  f.category === undefined && f.familySlug === undefined && f.article107Status === undefined
    ? rows
    : rows.filter(
        (r) =>
          (f.category === undefined || r.category === f.category) &&
          (f.familySlug === undefined || r.familySlug === f.familySlug) &&
          (f.article107Status === undefined || r.article107Status === f.article107Status),
      )

const agfCount = (part: VehiclePart | undefined): number =>
  part === undefined ? 0 : new Set(part.rows.map((r) => r.providerId)).size

const datesOf = (part: VehiclePart | undefined) => ({ date: part?.date ?? null, previousDate: part?.previousDate ?? null })

/** `universe`: the meta.universe word when the request named a universe (without it the answer names none, as before). */
export const allFundsMeta = (requested: RequestedVehicle, parts: ReadonlyArray<VehiclePart>, universe?: string) => {
  const meta = vehicleMeta(requested, parts)
  return universe === undefined ? meta : { ...meta, universe }
}

const vehicleMeta = (requested: RequestedVehicle, parts: ReadonlyArray<VehiclePart>) => {
  const part = (v: Vehicle) => parts.find((p) => p.vehicle === v)
  const count = parts.reduce((n, p) => n + p.rows.length, 0)
  switch (requested) {
    case "mutual_fund":
      return { vehicle: requested, ...datesOf(part("mutual_fund")), agfCount: agfCount(part("mutual_fund")), count }
    case "etf":
      return { vehicle: requested, ...datesOf(part("etf")), agfCount: 0, etfAgfCount: agfCount(part("etf")), count }
    case "investment_fund":
      return {
        vehicle: requested,
        ...datesOf(part("investment_fund")),
        agfCount: 0,
        investmentFundAgfCount: agfCount(part("investment_fund")),
        count,
      }
    case "all":
      return {
        vehicle: requested,
        ...datesOf(part("mutual_fund")),
        agfCount: agfCount(part("mutual_fund")),
        etfAgfCount: agfCount(part("etf")),
        investmentFundAgfCount: agfCount(part("investment_fund")),
        datesByVehicle: {
          mutual_fund: datesOf(part("mutual_fund")),
          etf: datesOf(part("etf")),
          investment_fund: datesOf(part("investment_fund")),
        },
        count,
      }
  }
}

/** The answer's JSON text: rows joined as they are (already JSON), then meta. */
export const allFundsJson = (requested: RequestedVehicle, parts: ReadonlyArray<VehiclePart>, universe?: string): string => {
  const rows = parts.flatMap((p) => p.rows.map((r) => r.json))
  return `{"data":[${rows.join(",")}],"meta":${JSON.stringify(allFundsMeta(requested, parts, universe))}}`
}
