/**
 * The sample's monthly TAC tables (`fm_tac_YYYYMM.txt`), written as the XLS converted to `;` text:
 * three title lines, our 18-column header, one row per series, a block of notes.
 */
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { businessDayOnOrBefore, ymdOf } from "../Calendar.ts"
import type { Prng } from "../Prng.ts"
import type { SampleSeries } from "../Universe.ts"
import type { ExtrasContext } from "./ExtrasContext.ts"
import { closedMonths } from "./FmMonths.ts"

const HEADER =
  "Periodo;Administradora;Nombre Fondo;Tipo Fondo;Moneda;Serie;Características;Remuneración Fija;Remuneración Variable;" +
  "Gastos de Operación;TAC Remuneración Fija;TAC Remuneración Variable;TAC Gastos de Operación;TAC Total;" +
  "Condición Comisión Colocación;Comisión Colocación;Condición Comisión Diferida;Comisión Diferida"
const EMPTY_CELLS = ";".repeat(17)
const NOTES = [
  "Notas:",
  "(1) TAC: Tasa Anual de Costos, expresada en porcentaje anual sobre el patrimonio promedio de la serie.",
  `(2) Las remuneraciones y gastos incluyen IVA cuando corresponde.${EMPTY_CELLS}`,
  "(3) NA: no aplica o no informado por la administradora.",
  "(4) La remuneración variable se informa según lo efectivamente cobrado en el periodo.",
  `(5) Los gastos de operación corresponden a los cargados a la serie en los últimos doce meses.${EMPTY_CELLS}`,
  "(6) Fondos con nombre repetido se distinguen con un número entre paréntesis.",
  "(7) Información proporcionada por las administradoras, sin verificación de la Comisión.",
  "(8) Fuente: Comisión para el Mercado Financiero."
]
const MONTH_NAMES = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"]

interface TacState {
  fixed: number
  ops: number
  readonly variable: boolean
}

const round2 = (x: number): number => Math.round(x * 100) / 100

const characteristicsOf = (s: SampleSeries): string => {
  const local = s.fund.currency === "$$"
  if (s.label === "APV") return "Ahorro previsional voluntario"
  if (["I", "INST", "F"].includes(s.label)) return local ? "Inversionistas institucionales, aporte mínimo $500.000.000" : "Inversionistas institucionales, aporte mínimo 500.000"
  if (["ALTO", "BPRIV", "P"].includes(s.label)) return local ? "Aporte mínimo $100.000.000" : "Aporte mínimo 100.000"
  if (s.label === "DIGITAL") return "Aportes solo por canales digitales"
  return "Sin monto mínimo"
}

/**
 * Writes the TAC of the last 24 closed months (small) or of every month since 2020-01 (full),
 * published on day 5 of the next month. Each series starts near its fee rate plus expenses (IVA
 * included), kept in 0.3–4 %, and moves now and then; a few series are NA, a few are missing.
 */
export const writeTacFiles = async (ctx: ExtrasContext, prng: Prng): Promise<Array<string>> => {
  const { universe, out } = ctx
  const months = ctx.scale === "small" ? closedMonths("2019-01", ctx.endDay, 5, 24) : closedMonths("2020-01", ctx.endDay, 5)
  const seriesOf = (index: number) => universe.series.filter((s) => s.fund.index === index)
  // Series without TAC: one NA whatever the seed (fund 4's first), one missing (fund 6's last), and a few more.
  const notAvailable = new Set<SampleSeries>([seriesOf(4)[0]!])
  const missing = new Set<SampleSeries>([seriesOf(6).at(-1)!])
  for (const s of universe.series) {
    const u = prng.next()
    if (u < 0.03) notAvailable.add(s)
    else if (u < 0.06) missing.add(s)
  }
  const states = new Map<SampleSeries, TacState>()
  const files: Array<string> = []

  for (const [i, { month, last }] of months.entries()) {
    const decimal = i % 6 === 5 ? "." : ","
    const pct = (x: number) => x.toFixed(2).replace(".", decimal)
    const period = ymdOf(last) + (i % 4 === 1 ? ".0" : "")
    const closing = businessDayOnOrBefore(last)
    const rows: Array<{ sort: string; line: string }> = []
    for (const s of universe.series) {
      if (s.start > closing || s.end < closing || missing.has(s)) continue
      const f = s.fund
      let state = states.get(s)
      if (state === undefined) {
        const ops = f.type <= 2 ? 0.01 + 0.05 * prng.next() : 0.03 + 0.25 * prng.next()
        const fixed = Math.max(0.15, s.feeRate * 100 * 1.19 * (0.9 + 0.2 * prng.next()))
        state = { fixed: round2(Math.min(fixed, 3.6)), ops: round2(ops), variable: (f.type === 5 || f.type === 6) && prng.chance(0.1) }
        states.set(s, state)
      } else {
        if (prng.chance(0.05)) state.fixed = round2(Math.max(0.15, state.fixed + (prng.chance(0.5) ? 1 : -1) * (0.05 + 0.3 * prng.next())))
        if (prng.chance(0.15)) state.ops = round2(Math.max(0.01, state.ops + 0.02 * prng.normal()))
      }
      const variable = state.variable ? round2(0.4 * prng.next()) : 0
      // Keep the total in 0.3–4 %: expenses fill a gap below, the fixed fee gives way above.
      const fixed = round2(Math.min(state.fixed, 4 - variable - state.ops))
      const ops = round2(Math.max(state.ops, 0.3 - fixed - variable))
      const label = s.renamed !== null && closing >= s.renamed.from ? s.renamed.label : s.label
      let fundName = f.index === 2 ? `${f.name} (2)` : f.name
      if (f.index === 0) fundName = Buffer.from(fundName, "utf8").toString("latin1")
      const na = notAvailable.has(s)
      const placement = f.type >= 3 && label !== "APV"
      const cells = [
        period, f.admin.name, fundName, f.type, f.currency, label, characteristicsOf(s),
        `Hasta ${pct(fixed * 1.1)}% anual IVA incluido`,
        state.variable ? "Hasta 20% del exceso de rentabilidad sobre su comparador" : "NA",
        `Hasta ${pct(Math.max(0.1, ops * 1.5))}% anual`,
        na ? "NA" : pct(fixed), na ? "NA" : pct(variable), na ? "NA" : pct(ops), na ? "NA" : pct(fixed + variable + ops),
        placement ? "Permanencia menor a 30 días" : "NA", placement ? `1${decimal}19% IVA incluido` : "NA", "NA", "NA"
      ]
      rows.push({ sort: `${f.admin.name}|${f.name}|${label}`, line: cells.join(";") })
    }
    rows.sort((a, b) => (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0))
    const [y, m] = [month.slice(0, 4), Number(month.slice(5, 7))]
    const lines = [
      `Comisión para el Mercado Financiero${EMPTY_CELLS}`,
      "Tasa Anual de Costos (TAC) por serie de Fondos Mutuos",
      `Periodo: ${MONTH_NAMES[m - 1]} de ${y}`,
      HEADER,
      ...rows.map((r) => r.line),
      "",
      ...NOTES
    ]
    const name = `fm_tac_${month.replace("-", "")}.txt`
    await writeFile(join(out, name), Buffer.from(lines.join("\r\n") + "\r\n", "latin1"))
    files.push(join(out, name))
  }
  return files
}
