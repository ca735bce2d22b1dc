/**
 * Builds the FI test snapshot: fixture A's FM data (test/support/snapshotFixture.ts) plus the FI
 * tables of fiData.ts / fiHoldingsData.ts, written with the real SnapshotWriter, its manifest and
 * CURRENT, in a fresh data directory. `fi` chooses what the batch says about FI data; with
 * `computed`, the market computations run on it as in a pipeline build (ready all-funds answers
 * included), else the API renders those answers live.
 */
import { writeManifest } from "../../snapshots/Manifest.ts"
import { publishCurrent } from "../../snapshots/Pointer.ts"
import { SnapshotWriter } from "../../snapshots/Writer.ts"
import { MARKET_COMPUTATIONS } from "../../pipeline/compute/MarketComputations.ts"
import { type FixtureDir, fixtureA, fixtureRows, makeDataDir, manifestFor } from "../support/snapshotFixture.ts"
import { ARTICLE107, EPSILON, FACT_SHEETS, INSTRUMENTS, PRICES, SERIES } from "./fiData.ts"
import { HOLDINGS } from "./fiHoldingsData.ts"

export type FiState =
  /** meta fi_status = available, FI tables filled. */
  | "available"
  /** meta fi_status = unavailable with a reason, FI tables empty (what the pipeline writes). */
  | { readonly unavailable: string }

export const BATCH_DATE = "2026-02-06"

export const publishFiSnapshot = (snapshotsDir: string, fi: FiState, computed = false): string => {
  const rows = fixtureRows(fixtureA())
  const writer = new SnapshotWriter(snapshotsDir)
  try {
    writer.insertMeta(
      fi === "available" ? { fi_status: "available" } : { fi_status: "unavailable", fi_unavailable_reason: fi.unavailable },
    )
    writer.insertAdministrators([
      ...rows.administrators,
      { provider_id: EPSILON.providerId, rut: EPSILON.rut, name: EPSILON.name },
    ])
    writer.insertFunds(rows.funds)
    writer.insertSeries(rows.series)
    writer.insertQuotas(rows.quotas)
    writer.insertRows("article107", [...ARTICLE107])
    if (fi === "available") {
      writer.insertRows("fi_instruments", [...INSTRUMENTS])
      writer.insertRows("fi_series", [...SERIES])
      writer.insertRows("fi_prices", [...PRICES])
      writer.insertRows("fi_holdings", [...HOLDINGS])
      writer.insertRows("fi_fact_sheets", [...FACT_SHEETS])
    }
    if (computed) for (const c of MARKET_COMPUTATIONS) c.run(writer.db, BATCH_DATE)
    const finished = writer.finish(BATCH_DATE)
    writeManifest(snapshotsDir, manifestFor(finished, BATCH_DATE))
    publishCurrent(snapshotsDir, finished.file)
    return finished.file
  } catch (e) {
    writer.abort()
    throw e
  }
}

/** A fresh data directory with the FI snapshot published. */
export const makeFiFixture = (fi: FiState = "available", computed = false): FixtureDir & { readonly file: string } => {
  const dir = makeDataDir()
  return { ...dir, file: publishFiSnapshot(dir.snapshotsDir, fi, computed) }
}
