/**
 * A market snapshot with daily quotas long enough for the risk figures (batch 2026-03-04), built
 * as the pipeline builds one: the facts with the real SnapshotWriter, then every computation in
 * pipeline order (returns and risk first, then the market answers that join them).
 *   8043-8 A "LONG":  every weekday from 2022-12-01: 12m and 36m figures, a ≈ 30 % fall in 2024;
 *   8043-8 B "MID":   every weekday from 2025-01-02: 12m figures only;
 *   9105-7 A "SHORT": every weekday from 2026-01-05: too young for any figure.
 * Prices follow a fixed formula (no randomness), rounded to 4 decimals as CMF publishes them.
 */
import { COMPUTATIONS } from "../../pipeline/compute/Computations.ts"
import {
  type FixtureData,
  type FixtureDir,
  type FixtureQuota,
  makeDataDir,
  publishSnapshot,
  testCrc32,
  weekdays,
} from "../support/snapshotFixture.ts"

export const BATCH = "2026-03-04"

/** A quota path from 1000: a fast and a slow wave, plus a 30-day fall from day `fallAt` when given. */
const path = (dates: ReadonlyArray<string>, amplitude: number, fallAt: number | null): FixtureQuota[] => {
  let p = 1000
  return dates.map((date, i) => {
    if (i > 0) {
      const fall = fallAt !== null && i >= fallAt && i < fallAt + 30 ? -0.012 : 0
      p *= 1 + amplitude * Math.sin(0.9 * i) + 0.0005 * Math.sin(0.05 * i) + fall
    }
    return { date, price: Math.round(p * 1e4) / 1e4, patrimony: 1e9, holders: 100 }
  })
}

export const LONG = { run: 8043, serie: "A", assetId: testCrc32("fm:8043:A"), quotas: path(weekdays("2022-12-01", BATCH), 0.006, 400) }
export const MID = { run: 8043, serie: "B", assetId: testCrc32("fm:8043:B"), quotas: path(weekdays("2025-01-02", BATCH), 0.002, null) }
export const SHORT = { run: 9105, serie: "A", assetId: testCrc32("fm:9105:A"), quotas: path(weekdays("2026-01-05", BATCH), 0.01, null) }

const ALFA = 96639280
const BETA = 97004000

const data = (): FixtureData => ({
  batchDate: BATCH,
  administrators: [
    { rut: ALFA, dv: "0", name: "Alfa AGF S.A.", providerId: testCrc32(`agf:${ALFA}`) },
    { rut: BETA, dv: "5", name: "Beta AGF S.A.", providerId: testCrc32(`agf:${BETA}`) },
  ],
  funds: [
    {
      run: 8043,
      dv: "8",
      providerRut: ALFA,
      name: "Fondo Mutuo Alfa Acciones Chile",
      fundType: 5,
      currency: "$$",
      endDate: null,
      isCurrent: true,
      conceptId: testCrc32("fm:8043"),
      series: [LONG, MID].map((s) => ({ ...s, currency: "$$" })),
    },
    {
      run: 9105,
      dv: "7",
      providerRut: BETA,
      name: "Fondo Mutuo Beta Renta",
      fundType: 1,
      currency: "$$",
      endDate: null,
      isCurrent: true,
      conceptId: testCrc32("fm:9105"),
      series: [{ ...SHORT, currency: "$$" }],
    },
  ],
})

/** A fresh data directory with the snapshot published (caller cleans up). */
export const makeRiskFixture = (): FixtureDir => {
  const dir = makeDataDir()
  try {
    publishSnapshot(dir.snapshotsDir, data(), (writer) => {
      for (const c of COMPUTATIONS) c.run(writer.db, BATCH)
    })
    return dir
  } catch (e) {
    dir.cleanup()
    throw e
  }
}
