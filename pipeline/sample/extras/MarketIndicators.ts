/**
 * Sample UF and dólar observado files: SIETE JSON per year (`siete_<series>_<YYYY>.json`) and, for
 * the last year's dólar, the CMF API answer (`cmf_dolar_YYYY.json`), so both formats are read.
 */
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { dayOf, isBusinessDay, isoOf } from "../Calendar.ts"
import type { Prng } from "../Prng.ts"

const UF_SERIES = "F073.UFF.PRE.Z.D"
const USD_SERIES = "F073.TCO.PRE.Z.D"
const DESCRIPTIONS: Readonly<Record<string, readonly [string, string]>> = {
  [UF_SERIES]: ["Unidad de fomento (UF)", "Unidad de fomento (UF)"],
  [USD_SERIES]: ["Tipo de cambio nominal (dólar observado $CLP/USD)", "Nominal exchange rate (observed dollar CLP/USD)"]
}

/** UF on 2019-01-01 (real value); other starts are reached by 0.28 %/month steps (~3.4 %/year). */
const UF_2019 = 27565.79
const MONTHLY_INFLATION = 0.0028

export interface IndicatorPaths {
  /** Value by day number: UF every calendar day, USD on business days only. */
  readonly uf: ReadonlyMap<number, number>
  readonly usd: ReadonlyMap<number, number>
}

/**
 * UF indexes daily from the 10th of a month to the 9th of the next by that period's inflation
 * (as the real UF does with the previous month's CPI); USD mean-reverts around 820 within 650–1,000.
 * Only `+`, `*` and `/` are used, so the values are bit-identical on every machine.
 */
export const indicatorPaths = (prng: Prng, from: number, to: number): IndicatorPaths => {
  const uf = new Map<number, number>()
  const usd = new Map<number, number>()
  const startYear = Number(isoOf(from).slice(0, 4))
  let value = UF_2019
  for (let m = 0; m < Math.abs(2019 - startYear) * 12; m++) {
    value = startYear < 2019 ? value / (1 + MONTHLY_INFLATION) : value * (1 + MONTHLY_INFLATION)
  }
  // Mid-2021 to mid-2023 ran hot (as in reality), which takes the UF from ~27,500 in 2019 to ~40,000 in 2026.
  const drawInflation = (iso: string) => {
    const mean = iso >= "2021-07" && iso < "2023-07" ? MONTHLY_INFLATION + 0.005 : MONTHLY_INFLATION
    return Math.min(0.015, Math.max(-0.004, mean + 0.0018 * prng.normal()))
  }
  let daily = 1 + drawInflation(isoOf(from)) / 30
  let dollar = 690 + 20 * prng.next()
  for (let day = from; day <= to; day++) {
    const iso = isoOf(day)
    if (iso.endsWith("-10")) {
      const next = dayOf(`${iso.slice(0, 8)}01`) + 40
      const periodDays = dayOf(`${isoOf(next).slice(0, 8)}10`) - day
      daily = 1 + drawInflation(iso) / periodDays
    }
    value *= daily
    uf.set(day, value)
    if (!isBusinessDay(day)) continue
    dollar *= 1 + 0.0015 * (820 / dollar - 1) + 0.0055 * prng.normal()
    if (dollar < 650) dollar = 1300 - dollar
    if (dollar > 1000) dollar = 2000 - dollar
    usd.set(day, dollar)
  }
  return { uf, usd }
}

const fixed2 = (v: number): string => (Math.round(v * 100) / 100).toFixed(2)

/** "1012.35" → "1.012,35" */
export const chileanString = (v: number): string => {
  const [int, dec] = fixed2(v).split(".") as [string, string]
  return `${int.replace(/\B(?=(\d{3})+(?!\d))/g, ".")},${dec}`
}

const sieteJson = (seriesId: string, days: ReadonlyArray<number>, values: ReadonlyMap<number, number>): string => {
  const [descripEsp, descripIng] = DESCRIPTIONS[seriesId]!
  const Obs = days.map((day) => {
    const v = values.get(day)
    const indexDateString = isoOf(day).split("-").reverse().join("-")
    return v === undefined
      ? { indexDateString, value: "NaN", statusCode: "ND" }
      : { indexDateString, value: fixed2(v), statusCode: "OK" }
  })
  return JSON.stringify({ Codigo: 0, Descripcion: "Success", Series: { descripEsp, descripIng, seriesId, Obs }, SeriesInfos: [] })
}

/** Writes one SIETE file per year for UF and USD (USD's last year as a CMF API answer); returns the paths. */
export const writeIndicatorFiles = async (out: string, prng: Prng, historyStart: number, endDay: number): Promise<Array<string>> => {
  const from = dayOf(`${isoOf(historyStart).slice(0, 4)}-01-01`)
  const paths = indicatorPaths(prng, from, endDay)
  const lastYear = Number(isoOf(endDay).slice(0, 4))
  const files: Array<[string, string]> = []
  for (let year = Number(isoOf(from).slice(0, 4)); year <= lastYear; year++) {
    const days: Array<number> = []
    for (let d = dayOf(`${year}-01-01`); d <= Math.min(endDay, dayOf(`${year}-12-31`)); d++) days.push(d)
    files.push([`siete_${UF_SERIES}_${year}.json`, sieteJson(UF_SERIES, days, paths.uf)])
    if (year < lastYear) {
      files.push([`siete_${USD_SERIES}_${year}.json`, sieteJson(USD_SERIES, days, paths.usd)])
    } else {
      const Dolares = days.flatMap((d) => {
        const v = paths.usd.get(d)
        return v === undefined ? [] : [{ Valor: chileanString(v), Fecha: isoOf(d) }]
      })
      files.push([`cmf_dolar_${year}.json`, JSON.stringify({ Dolares })])
    }
  }
  const written: Array<string> = []
  for (const [name, text] of files) {
    await writeFile(join(out, name), text, "utf8")
    written.push(join(out, name))
  }
  return written
}
