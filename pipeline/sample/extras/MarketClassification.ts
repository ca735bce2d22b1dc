/**
 * Sample AFM categories (`afm_categorias.txt`) and CMF spheres (`cmf_esferas.txt`) for the active
 * series of the universe, consistent with each fund's type, theme and currency.
 */
import type { AfmCategoryCode } from "../../../schemas/AfmFamilies.ts"
import { businessDayOnOrBefore, dayOf, isoOf } from "../Calendar.ts"
import type { Prng } from "../Prng.ts"
import type { SampleFund, SampleSeries, Universe } from "../Universe.ts"

/** A series still reporting at the end of the sample, under its label current at the end. */
export interface ActiveSeries {
  readonly series: SampleSeries
  readonly label: string
}

export const activeSeries = (universe: Universe): Array<ActiveSeries> => {
  const last = businessDayOnOrBefore(universe.endDay)
  return universe.series
    .filter((s) => s.fund.end === null && s.end === last)
    .map((series) => ({
      series,
      label: series.renamed !== null && series.renamed.from <= last ? series.renamed.label : series.label
    }))
}

const EQUITY_BY_THEME: ReadonlyArray<readonly [string, AfmCategoryCode]> = [
  ["ACCIONES CHILE", "FDOACCNACLC"], ["SMALL CAP", "FDOACCNACLC"], ["ACCIONES EEUU", "FDOACCEEUU"],
  ["GLOBAL EQUITY", "FDOACCDES"], ["EUROPA", "FDOACCEUR"], ["LATAM", "FDOACCALAT"], ["ASIA", "FDOACCAEME"],
  ["EMERGENTES", "FDOACCEME"]
]

/** An AFM code consistent with the fund's CMF type, theme and currency; "S/C" for some; null: not in AFM's export. */
const categoryOf = (prng: Prng, fund: SampleFund): AfmCategoryCode | "S/C" | null => {
  if (fund.currency === "EUR") return null
  // Fund 7 (the first without a fixed edge case) is always unclassified, so every seed has one.
  if (prng.chance(0.08) || fund.index === 7) return "S/C"
  const usd = fund.currency === "PROM"
  switch (fund.type) {
    case 1:
      return usd ? "RF<90INTUSD" : "RF<90NAC"
    case 2:
      return usd ? "RF<365INT" : prng.pick(["RF<365NCLP", "RF<365NUF"] as const)
    case 3:
      return usd
        ? prng.pick(["RF>365INTMINT", "RF>365INTMEMER"] as const)
        : prng.pick(["RF>365NCLP", "RF>365NUF<3", "RF>365NUF>3<5", "RF>365NUF>5"] as const)
    case 4:
      return prng.pick(["FDOBALCON", "FDOBALMOD", "FDOBALAGR"] as const)
    case 5:
      return EQUITY_BY_THEME.find(([theme]) => fund.shortName.startsWith(theme))?.[1] ?? "FDOACCDES"
    case 6:
      return prng.pick(["FDOBALMOD", "FDOBALAGR", "RF>365OF"] as const)
    case 7:
      return "FDOESTNOACC"
    default:
      return "FDOICALDEU"
  }
}

/** Sample sphere families (the real CMF labels are unknown: see CMF-SOURCES.md #11). */
const sphereFamilyOf = (fund: SampleFund): string => {
  switch (fund.type) {
    case 1:
      return fund.currency === "$$" ? "Deuda Corto Plazo Nacional" : "Deuda Corto Plazo Internacional"
    case 2:
    case 3:
      return fund.currency === "$$" ? "Deuda Mediano y Largo Plazo Nacional" : "Deuda Mediano y Largo Plazo Internacional"
    case 4:
    case 6:
      return "Balanceado"
    case 5:
      return fund.shortName.startsWith("ACCIONES CHILE") ? "Accionario Nacional" : "Accionario Internacional"
    case 7:
      return "Estructurado"
    default:
      return "Inversionistas Calificados"
  }
}

const investorTypeOf = (label: string): string =>
  label === "APV" ? "APV" : ["I", "INST", "F"].includes(label) ? "Institucional" : ["ALTO", "BPRIV"].includes(label) ? "Alto patrimonio" : "Público general"

/** The last day of the month before `day`'s month: the classification's date. */
const previousMonthEnd = (day: number): number => dayOf(`${isoOf(day).slice(0, 8)}01`) - 1

/** `afm_categorias.txt` (CRLF): every active CLP/USD series, a few `S/C`, one row repeated verbatim. */
export const afmCategoriesText = (prng: Prng, universe: Universe): string => {
  const date = isoOf(previousMonthEnd(universe.endDay))
  const byFund = new Map<SampleFund, AfmCategoryCode | "S/C" | null>()
  for (const fund of universe.funds) byFund.set(fund, categoryOf(prng, fund))
  const rows: Array<string> = []
  for (const { series, label } of activeSeries(universe)) {
    const category = byFund.get(series.fund)
    if (category === null || category === undefined) continue
    rows.push(`${series.fund.run};${label};${category};${series.fund.currency === "PROM" ? "DOLAR" : "PESOS"};${date}`)
  }
  if (rows.length > 0) rows.push(rows[prng.int(0, rows.length - 1)]!)
  return ["RUN;SERIE;CATEGORIA_AFM;MONEDA;FECHA", ...rows].join("\r\n") + "\r\n"
}

/** `cmf_esferas.txt` (latin-1): ~90% of active series; blank spheres for series younger than a year and a few more. */
export const cmfSpheresText = (prng: Prng, universe: Universe): string => {
  const cutoff = businessDayOnOrBefore(previousMonthEnd(universe.endDay))
  const rows: Array<string> = []
  for (const { series, label } of activeSeries(universe)) {
    if (prng.chance(0.1)) continue
    const rated = series.start <= cutoff - 365 && !prng.chance(0.05)
    const spheres = rated ? String(prng.int(1, 5)) : ""
    rows.push(`${series.fund.run};${label};${sphereFamilyOf(series.fund)};${investorTypeOf(label)};${spheres};${isoOf(cutoff)}`)
  }
  return ["RUN;SERIE;FAMILIA;TIPO_INVERSIONISTA;ESFERAS;FECHA", ...rows].join("\n") + "\n"
}
