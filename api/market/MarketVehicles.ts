/**
 * Where /api/all-funds gets each vehicle's rows: one source per vehicle. Mutual funds are served
 * from the snapshot's market tables; ETFs and investment funds from its FI tables
 * (snapshots/readers/FiAllFunds.ts), at the FI/ETF data's one shared cutoff. When the batch has
 * no FI data, the ETF and investment-fund sources answer `fi_unavailable` (so the whole request
 * is a 503, FM rows included: spec rule 4).
 */

import { dateToInt } from "../../schemas/Dates.ts"
import type { SnapshotData } from "../../snapshots/Reader.ts"
import { type FiVehicle, fiVehiclePart } from "../../snapshots/readers/FiAllFunds.ts"
import { fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import {
  type AllFundsFilters,
  allFundsJson,
  type RequestedVehicle,
  VEHICLES,
  type Vehicle,
  type VehiclePart,
} from "../../snapshots/readers/MarketAllFunds.ts"
import { type Universe, universeWord } from "../../schemas/MarketUniverse.ts"
import { mutualFundPart } from "./MarketLatest.ts"

export interface VehicleRequest {
  /** YYYYMMDD, null for the latest data. */
  readonly cutoff: number | null
  readonly filters: AllFundsFilters
  /** FDS_SERIES_GRACE_DAYS: which mutual-fund series are in the universe. */
  readonly graceWeekdays: number
  /** The `universe` parameter as given (undefined: current, and the answer names none); as_of covers mutual funds only. */
  readonly universe?: Universe
}

/** Why a vehicle's rows cannot be served now (the request then answers 503 with this reason). */
export interface VehicleUnavailable {
  readonly unavailable: string
  readonly message: string
}

export interface VehicleSource {
  readonly vehicle: Vehicle
  readonly part: (reader: SnapshotData, request: VehicleRequest) => VehiclePart | VehicleUnavailable
}

/** Why an FI vehicle's rows cannot be given on this batch, or null when they can. */
export const fiUnavailable = (reader: SnapshotData, vehicle: FiVehicle): VehicleUnavailable | null => {
  const availability = fiCatalog(reader).availability
  return availability.available
    ? null
    : {
        unavailable: "fi_unavailable",
        message: `${vehicle} rows need investment fund and ETF data, unavailable in the published batch (${availability.reason}); vehicle=mutual_fund is served`,
      }
}

const fiSource = (vehicle: FiVehicle): VehicleSource => ({
  vehicle,
  part: (reader, request) => fiUnavailable(reader, vehicle) ?? fiVehiclePart(reader, vehicle, request.cutoff, request.filters),
})

export const VEHICLE_SOURCES: Readonly<Record<Vehicle, VehicleSource>> = {
  mutual_fund: {
    vehicle: "mutual_fund",
    part: (reader, request) =>
      mutualFundPart(reader.db, dateToInt(reader.batchDate), request.graceWeekdays, request.cutoff, request.filters, request.universe),
  },
  etf: fiSource("etf"),
  investment_fund: fiSource("investment_fund"),
}

export const isUnavailable = (x: VehiclePart | VehicleUnavailable): x is VehicleUnavailable => "unavailable" in x

/** The all-funds answer of the `requested` vehicles for `request` on one snapshot, or why a vehicle cannot be served. */
export const renderAllFunds = (
  reader: SnapshotData,
  requested: RequestedVehicle,
  request: VehicleRequest,
): string | VehicleUnavailable => {
  const parts: VehiclePart[] = []
  for (const vehicle of requested === "all" ? VEHICLES : [requested]) {
    const part = VEHICLE_SOURCES[vehicle].part(reader, request)
    if (isUnavailable(part)) return part
    parts.push(part)
  }
  return allFundsJson(requested, parts, request.universe === undefined ? undefined : universeWord(request.universe))
}
