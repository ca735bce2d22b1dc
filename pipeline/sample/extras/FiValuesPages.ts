/**
 * The sample's values tabs (`entidad.php … pestania=7`): one page per fund and calendar year with
 * values, UTF-8, the fund's name and R.U.T. in the heading, "Desde … Hasta …" as queried, rows by
 * date then series. Values follow a random walk (the fund's drift and volatility, minus each series'
 * fee); on about two days a year a series row says "Sin Información" instead. Fund `noValues` gets
 * one page whose table only says "Sin Información".
 */
import { dmyOf, isBusinessDay, isoOf } from "../Calendar.ts"
import type { Prng } from "../Prng.ts"
import { formatRut } from "../../cmf/CmfRut.ts"
import { chilean, escapeHtml, page, row } from "./FiHtml.ts"
import type { SampleFile } from "./FiRegistryPages.ts"
import { FI_EDGE, type FiFund, type FiUniverse } from "./FiUniverse.ts"

const HEADER = [
  "Fecha", "Serie", "Moneda", "Valor Libro", "Valor Económico", "Patrimonio Neto", "Activo Total",
  "N° Aportantes", "N° Aportantes Institucionales", "Agencia"
]
const SQRT_DAYS = Math.sqrt(252)

const yearOf = (day: number): number => Number(isoOf(day).slice(0, 4))
const dayOfYear = (y: number, mmdd: string): number => Date.UTC(y, Number(mmdd.slice(0, 2)) - 1, Number(mmdd.slice(3))) / 86_400_000

const valuesPage = (fund: FiFund, year: number, endDay: number, rows: ReadonlyArray<string>): SampleFile => {
  const to = Math.min(dayOfYear(year, "12-31"), endDay)
  const html = page({
    charset: "utf-8",
    title: `CMF Chile - ${fund.name}`,
    heading: [
      `<h1>${escapeHtml(fund.name)}</h1>`,
      `<p><strong>R.U.T.:</strong> ${formatRut(fund.run)}</p>`,
      `<p>Administradora: ${escapeHtml(fund.admin.name)}</p>`,
      "<h2>Valores Cuota</h2>",
      `<p>Desde: ${dmyOf(dayOfYear(year, "01-01"))} Hasta: ${dmyOf(to)}</p>`
    ].join("\n"),
    header: HEADER,
    rows
  })
  return { name: `fi_valores_${fund.run}_${year}.html`, bytes: Buffer.from(html, "utf8") }
}

/** Simulates and emits every values page of `universe`, fund by fund, year by year. */
export const writeValuesPages = async (prng: Prng, universe: FiUniverse, emit: (file: SampleFile) => Promise<void>): Promise<void> => {
  const { endDay } = universe
  for (const fund of universe.funds) {
    if (fund.index === FI_EDGE.noValues) {
      await emit(valuesPage(fund, yearOf(endDay), endDay, ['<tr><td colspan="10">Sin Información</td></tr>']))
      continue
    }
    if (fund.values === null) continue
    const decimals = fund.currency === "USD" ? 2 : 0
    const state = fund.series.map((s) => ({ value: s.initialValue, units: s.initialUnits }))
    let rows: Array<string> = []
    let year = yearOf(fund.values.first)
    for (let day = fund.values.first; day <= fund.values.last; day++) {
      if (yearOf(day) !== year) {
        if (rows.length > 0) await emit(valuesPage(fund, year, endDay, rows))
        rows = []
        year = yearOf(day)
      }
      if (!isBusinessDay(day)) continue
      const r = fund.drift / 252 + (fund.vol / SQRT_DAYS) * prng.normal()
      const missing = prng.chance(2 / 250)
      const patrimonies = fund.series.map((s, i) => {
        const st = state[i]!
        st.value *= 1 + r - s.feeRate / 252
        st.units *= 1 + 0.002 * prng.normal()
        return st.units * st.value
      })
      const totalAssets = patrimonies.reduce((a, b) => a + b, 0) * 1.012
      fund.series.forEach((s, i) => {
        const st = state[i]!
        if (missing) {
          rows.push(row([dmyOf(day), s.label, '<span class="nd">Sin Información</span>']))
          return
        }
        const holders = Math.max(1, Math.round(st.units / s.unitsPerHolder))
        rows.push(
          row([
            dmyOf(day), s.label, fund.currency, chilean(st.value, 4, false), chilean(st.value * s.economicPremium, 4, false),
            chilean(patrimonies[i]!, decimals), chilean(totalAssets, decimals), chilean(holders, 0),
            chilean(Math.round(holders * s.institutionalShare), 0), ""
          ])
        )
      })
    }
    if (rows.length > 0) await emit(valuesPage(fund, year, endDay, rows))
  }
}
