/**
 * Builds and publishes the market fixture snapshot: the hand-made facts of fixtureFunds.ts and
 * fixtureExtras.ts written with the real SnapshotWriter, then (unless `computed: false`) the
 * market computations run on it exactly as in a pipeline build.
 */
import { writeManifest } from "../../snapshots/Manifest.ts"
import { publishCurrent } from "../../snapshots/Pointer.ts"
import { SnapshotWriter } from "../../snapshots/Writer.ts"
import { MARKET_COMPUTATIONS } from "../../pipeline/compute/MarketComputations.ts"
import { ReturnsComputation } from "../../pipeline/compute/ReturnsComputation.ts"
import { type FixtureDir, fixtureRows, makeDataDir, manifestFor, testCrc32 } from "../support/snapshotFixture.ts"
import { AFM, ALIASES, ARTICLE107, BENCHMARK_PRICES, BENCHMARKS, FI_INSTRUMENTS, HOLDINGS, INDICATORS, TAC } from "./fixtureExtras.ts"
import { marketFixtureData, REPARTO } from "./fixtureFunds.ts"

export interface MarketSnapshotOptions {
  /** Run the market computations (default true). */
  readonly computed?: boolean
  /** Also run the returns computation, after the market ones (default false). */
  readonly returns?: boolean
  /** Inserts more rows, before the computations run. */
  readonly extra?: (writer: SnapshotWriter) => void
}

export const publishMarketSnapshot = (snapshotsDir: string, options: MarketSnapshotOptions = {}): string => {
  const data = marketFixtureData()
  const rows = fixtureRows(data)
  const repartoId = testCrc32(`fm:${REPARTO.run}:${REPARTO.serie}`)
  const repartoDate = Number(REPARTO.date.replaceAll("-", ""))
  const quotas = rows.quotas.map((q) =>
    q.asset_id === repartoId && q.date === repartoDate ? { ...q, factor_reparto: REPARTO.factor } : q,
  )
  const writer = new SnapshotWriter(snapshotsDir)
  try {
    writer.insertAdministrators(rows.administrators)
    writer.insertFunds(rows.funds)
    writer.insertSeries(rows.series)
    writer.insertQuotas(quotas)
    writer.insertRows("tac", TAC)
    writer.insertRows("fm_holdings", HOLDINGS)
    writer.insertRows("series_aliases", ALIASES)
    writer.insertRows("article107", ARTICLE107)
    writer.insertRows("indicators", INDICATORS)
    writer.insertRows("afm_categories", AFM)
    writer.insertMeta({ afm_report_date: "2026-02-27" })
    writer.insertRows("benchmarks", BENCHMARKS)
    writer.insertRows("benchmark_prices", BENCHMARK_PRICES)
    writer.insertRows("fi_instruments", FI_INSTRUMENTS)
    options.extra?.(writer)
    if (options.computed !== false) for (const c of MARKET_COMPUTATIONS) c.run(writer.db, data.batchDate)
    if (options.returns === true) ReturnsComputation.run(writer.db, data.batchDate)
    const finished = writer.finish(data.batchDate)
    writeManifest(snapshotsDir, manifestFor(finished, data.batchDate))
    publishCurrent(snapshotsDir, finished.file)
    return finished.file
  } catch (e) {
    writer.abort()
    throw e
  }
}

/** A fresh data directory with the market fixture published. */
export const makeMarketFixture = (options: MarketSnapshotOptions = {}): FixtureDir => {
  const dir = makeDataDir()
  publishMarketSnapshot(dir.snapshotsDir, options)
  return dir
}
