/**
 * The market fixture's funds and daily values, chosen by hand (batch 2026-03-04). Dates used:
 *   M = 2026-02-04 (the monthly base: 2026-03-04 minus one month), D1 = 2026-03-02,
 *   D2 = 2026-03-03 (the previous market date), D3 = 2026-03-04 (the market date).
 * Expected answers in the tests are worked out from these numbers by hand (comments there).
 */
import type { FixtureData, FixtureFund, FixtureQuota, FixtureSeries } from "../support/snapshotFixture.ts"
import { testCrc32 } from "../support/snapshotFixture.ts"

export const M = "2026-02-04"
export const D1 = "2026-03-02"
export const D2 = "2026-03-03"
export const D3 = "2026-03-04"

/** RUN check digit, módulo 11, written here independently of schemas/Ids.ts. */
export const dvOf = (run: number): string => {
  let sum = 0
  let factor = 2
  for (const digit of String(run).split("").reverse()) {
    sum += Number(digit) * factor
    factor = factor === 7 ? 2 : factor + 1
  }
  const r = 11 - (sum % 11)
  return r === 11 ? "0" : r === 10 ? "K" : String(r)
}

const q = (date: string, price: number, patrimony: number | null, holders: number | null): FixtureQuota => ({ date, price, patrimony, holders })

const series = (run: number, serie: string, currency: string, quotas: FixtureQuota[]): FixtureSeries => ({
  run,
  serie,
  currency,
  assetId: testCrc32(`fm:${run}:${serie}`),
  quotas,
})

const fund = (
  run: number,
  providerRut: number,
  name: string,
  fundType: number,
  currency: string,
  s: FixtureSeries[],
  endDate: string | null = null,
): FixtureFund => ({
  run,
  dv: dvOf(run),
  providerRut,
  name,
  fundType,
  currency,
  endDate,
  isCurrent: endDate === null,
  conceptId: testCrc32(`fm:${run}`),
  series: s,
})

export const ALFA = 96639280
export const BETA = 97004000
export const GAMMA = 76543210

export const marketFixtureData = (): FixtureData => ({
  batchDate: D3,
  administrators: [
    { rut: ALFA, dv: "0", name: "Alfa AGF S.A.", providerId: testCrc32(`agf:${ALFA}`) },
    { rut: BETA, dv: "5", name: "Beta AGF S.A.", providerId: testCrc32(`agf:${BETA}`) },
    { rut: GAMMA, dv: "0", name: "Gamma AGF S.A.", providerId: testCrc32(`agf:${GAMMA}`) },
  ],
  funds: [
    // X of the three-fund family (Accionario nacional, PESOS); C is absorbed: its last quote is M.
    fund(8043, ALFA, "Fondo Mutuo Alfa Acciones Chile", 5, "$$", [
      series(8043, "A", "$$", [q(D1, 100, 1000e6, 100), q(D2, 102, 1020e6, 100), q(D3, 101, 1010e6, 100)]),
      series(8043, "C", "$$", [q(M, 500, 80e6, 8)]),
    ]),
    // Z of the family: starts on D2.
    fund(8106, ALFA, "Fondo Mutuo Alfa Nuevas Acciones", 5, "$$", [
      series(8106, "B", "$$", [q(D2, 50, 1000e6, 50), q(D3, 51, 1020e6, 50)]),
    ]),
    // Series B renamed BPRIV from D2; its history is stored under the BPRIV id.
    fund(8200, ALFA, "Fondo Mutuo Alfa Caja", 1, "$$", [
      series(8200, "BPRIV", "$$", [q(M, 1000, 500e6, 40), q(D1, 1001, 500e6, 40), q(D2, 1002, 500e6, 40), q(D3, 1003.002, 500e6, 40)]),
    ]),
    // Terminated 2026-02-20: never in the market universe.
    fund(8300, ALFA, "Fondo Mutuo Alfa Antiguo", 3, "$$", [series(8300, "A", "$$", [q(M, 300, 50e6, 5)])], "2026-02-20"),
    // Y of the family (A); I is unclassified.
    fund(9105, BETA, "Fondo Mutuo Beta Acciones", 5, "$$", [
      series(9105, "A", "$$", [q(D1, 200, 3000e6, 300), q(D2, 198, 2970e6, 300), q(D3, 200, 3000e6, 300)]),
      series(9105, "I", "$$", [q(M, 10.1, 100e6, 2), q(D1, 10, 100e6, 2), q(D2, 10, 100e6, 2), q(D3, 10.05, 100e6, 2)]),
    ]),
    // Accionario eeuu: a USD series (DOLAR) and a CLP series (PESOS).
    fund(9106, BETA, "Fondo Mutuo Beta USA", 5, "PROM", [
      series(9106, "A", "PROM", [q(M, 10, 4_000_000, 20), q(D1, 10.5, 5_000_000, 20), q(D2, 10.5, 5_000_000, 20), q(D3, 10.71, 5_100_000, 21)]),
    ]),
    fund(9107, BETA, "Fondo Mutuo Beta USA Pesos", 5, "$$", [
      series(9107, "A", "$$", [q(M, 1000, 1e9, 30), q(D1, 1010, 1e9, 30), q(D2, 1020, 1e9, 30), q(D3, 1009.8, 1e9, 30)]),
    ]),
    // +30 % on D3: an outlier.
    fund(9300, GAMMA, "Fondo Mutuo Gamma Volátil", 6, "$$", [
      series(9300, "A", "$$", [q(M, 100, 200e6, 1000), q(D1, 100, 200e6, 1000), q(D2, 100, 200e6, 1000), q(D3, 130, 200e6, 1000)]),
    ]),
    // Pays a distribution on D3 (FACTOR DE REPARTO, see REPARTO): the −5 % is not a loss.
    fund(9301, GAMMA, "Fondo Mutuo Gamma Reparto", 6, "$$", [
      series(9301, "A", "$$", [q(M, 100, 300e6, 15), q(D1, 100, 300e6, 15), q(D2, 100, 300e6, 15), q(D3, 95, 300e6, 15)]),
    ]),
    // EUR: no rate to CLP in the data.
    fund(9302, GAMMA, "Fondo Mutuo Gamma Euro", 6, "EUR", [
      series(9302, "A", "EUR", [q(M, 19, 100_000, 3), q(D1, 20, 100_000, 3), q(D2, 20, 100_000, 3), q(D3, 20.1, 100_000, 3)]),
    ]),
  ],
})

/** The distribution of 9301-A on D3. */
export const REPARTO = { run: 9301, serie: "A", date: D3, factor: 100 / 95 }

/** Series ids by "RUN:SERIE". */
export const sid = (key: string): number => {
  const [run, serie] = key.split(":") as [string, string]
  return testCrc32(`fm:${run}:${serie}`)
}
