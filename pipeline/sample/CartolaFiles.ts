/** Simulates the daily values of the sample market and writes one cartola file per month. */
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { businessDayOnOrAfter, dayOf, isoOf, monthsBetween, ymdOf } from "./Calendar.ts"
import type { Prng } from "./Prng.ts"
import type { SampleFund, SampleSeries, Universe } from "./Universe.ts"

const HEADER =
  "RUN_ADM;NOM_ADM;RUN_FM;FECHA_INF;ACTIVO_TOT;MONEDA;PARTICIPES_INST;INVERSION_EN_FONDOS;SERIE;" +
  "CUOTAS_APORTADAS;CUOTAS_RESCATADAS;CUOTAS_EN_CIRCULACION;VALOR_CUOTA;PATRIMONIO_NETO;NUM_PARTICIPES;" +
  "NUM_PARTICIPES_INST;FONDO_PEN;REM_FIJA;REM_VARIABLE;GASTOS_AFECTOS;GASTOS_NO_AFECTOS;COMISION_INVERSION;" +
  "COMISION_RESCATE;FACTOR DE AJUSTE;FACTOR DE REPARTO"

const SQRT_DAYS = Math.sqrt(252)

interface SeriesState {
  price: number
  units: number
}

interface DayValues {
  readonly series: SampleSeries
  readonly price: number
  readonly units: number
  readonly subscribed: number
  readonly redeemed: number
  readonly factorReparto: string
}

export interface CartolaFilesWritten {
  readonly files: ReadonlyArray<string>
  readonly rows: number
  /** Rows written twice verbatim (in the same file). */
  readonly duplicateRows: number
}

/** Distribution days: the first business day on or after May 15 and November 15 of each year. */
const distributionDays = (from: number, to: number): ReadonlySet<number> => {
  const days = new Set<number>()
  for (let y = Number(isoOf(from).slice(0, 4)); y <= Number(isoOf(to).slice(0, 4)); y++) {
    days.add(businessDayOnOrAfter(dayOf(`${y}-05-15`)))
    days.add(businessDayOnOrAfter(dayOf(`${y}-11-15`)))
  }
  return days
}

const rowOf = (v: DayValues, day: number, ymd: string, totalAssets: number): string => {
  const { series: s, price, units } = v
  const f = s.fund
  const amount = (x: number) => (f.currency === "$$" ? x.toFixed(0) : x.toFixed(2))
  const patrimony = units * price
  const holders = Math.max(1, Math.round(units / s.unitsPerHolder))
  const institutional = Math.round(holders * s.institutionalShare)
  const label = s.renamed !== null && day >= s.renamed.from ? s.renamed.label : s.label
  const published = day === s.outlierDay ? price * 1.6 : price
  const redemptionFee = v.redeemed * price * 0.001
  return [
    f.admin.rut, f.admin.cartolaName, f.run, ymd, amount(totalAssets), f.currency, institutional > 0 ? "S" : "N", "0",
    label, v.subscribed.toFixed(4), v.redeemed.toFixed(4), units.toFixed(4), published.toFixed(4), amount(patrimony),
    holders, institutional, s.label === "APV" ? "S" : "N", amount((patrimony * s.feeRate) / 365), "0",
    amount((patrimony * 0.0002) / 365), "0", "0", amount(redemptionFee), "", v.factorReparto
  ].join(";")
}

/** Writes `ffmm_todos_<first>_<last>.txt` for every month of the history, latin-1, date-major. */
export const writeCartolaFiles = async (prng: Prng, universe: Universe, out: string, duplicateMonthChance: number): Promise<CartolaFilesWritten> => {
  const { historyStart, endDay, series } = universe
  const states = new Map<SampleSeries, SeriesState>()
  const distributions = distributionDays(historyStart, endDay)
  const files: Array<string> = []
  let rows = 0
  let duplicateRows = 0

  for (const month of monthsBetween(historyStart, endDay)) {
    const lines: Array<string> = [HEADER]
    const duplicateDay = prng.chance(duplicateMonthChance) ? prng.pick(month.businessDays) : null
    for (const day of month.businessDays) {
      const ymd = ymdOf(day)
      const dayLines: Array<string> = []
      let fund: SampleFund | null = null
      let group: Array<DayValues> = []
      let fundReturn = 0
      let factor = 1
      const flush = () => {
        const totalAssets = group.reduce((sum, v) => sum + v.units * v.price, 0) * 1.004
        for (const v of group) dayLines.push(rowOf(v, day, ymd, totalAssets))
        group = []
      }
      for (const s of series) {
        if (day < s.start || day > s.end) continue
        if (s.fund !== fund) {
          if (group.length > 0) flush()
          fund = s.fund
          fundReturn = fund.drift / 252 + (fund.vol / SQRT_DAYS) * prng.normal()
          factor = fund.distributes && distributions.has(day) ? 1.01 + Math.round(prng.next() * 200) / 10000 : 1
        }
        let state = states.get(s)
        let subscribed = 0
        let redeemed = 0
        let factorReparto = ""
        if (state === undefined) {
          state = { price: s.initialPrice, units: s.initialUnits }
          states.set(s, state)
        } else {
          state.price = Math.max(0.01, (state.price * (1 + fundReturn - s.feeRate / 252)) / factor)
          const flow = 0.004 * prng.normal()
          subscribed = state.units * (Math.max(0, flow) + 0.0005 * prng.next())
          redeemed = state.units * (Math.max(0, -flow) + 0.0005 * prng.next())
          state.units = Math.max(1, state.units + subscribed - redeemed)
          if (factor !== 1) factorReparto = factor.toFixed(4)
        }
        group.push({ series: s, price: state.price, units: state.units, subscribed, redeemed, factorReparto })
      }
      if (group.length > 0) flush()
      lines.push(...dayLines)
      rows += dayLines.length
      if (day === duplicateDay && dayLines.length > 0) {
        // CMF files sometimes repeat rows verbatim; here a few rows of this day, right after it.
        const count = Math.min(dayLines.length, prng.int(1, 3))
        const from = prng.int(0, dayLines.length - count)
        lines.push(...dayLines.slice(from, from + count))
        rows += count
        duplicateRows += count
      }
    }
    const name = `ffmm_todos_${ymdOf(month.first)}_${ymdOf(month.last)}.txt`
    await writeFile(join(out, name), Buffer.from(lines.join("\n") + "\n", "latin1"))
    files.push(name)
  }
  return { files, rows, duplicateRows }
}
