/**
 * Where /api/all-funds gets each vehicle's rows: one source per vehicle. Mutual funds are served
 * from the snapshot's market tables; the ETF and investment-fund sources answer `fi_not_ready`
 * until their rows exist (the FI work plugs its builders in here: a source returns its rows, as
 * JSON text with the filter keys, at its own cutoff date).
 */
import type { AllFundsFilters, Vehicle, VehiclePart } from "../../snapshots/readers/MarketAllFunds.ts"
import { mutualFundPart } from "../../snapshots/readers/MarketLatest.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { dateToInt } from "../../schemas/Dates.ts"

export interface VehicleRequest {
  /** YYYYMMDD, null for the latest data. */
  readonly cutoff: number | null
  readonly filters: AllFundsFilters
}

/** Why a vehicle's rows cannot be served now (the request then answers 503 with this reason). */
export interface VehicleUnavailable {
  readonly unavailable: string
  readonly message: string
}

export interface VehicleSource {
  readonly vehicle: Vehicle
  readonly part: (reader: SnapshotReader, request: VehicleRequest) => VehiclePart | VehicleUnavailable
}

const fiNotReady = (vehicle: Vehicle): VehicleSource => ({
  vehicle,
  part: () => ({
    unavailable: "fi_not_ready",
    message: `${vehicle} rows are not available yet in /api/all-funds; retry later (vehicle=mutual_fund is served)`,
  }),
})

export const VEHICLE_SOURCES: Readonly<Record<Vehicle, VehicleSource>> = {
  mutual_fund: {
    vehicle: "mutual_fund",
    part: (reader, request) => mutualFundPart(reader.db, dateToInt(reader.batchDate), request.cutoff, request.filters),
  },
  etf: fiNotReady("etf"),
  investment_fund: fiNotReady("investment_fund"),
}

export const isUnavailable = (x: VehiclePart | VehicleUnavailable): x is VehicleUnavailable => "unavailable" in x
