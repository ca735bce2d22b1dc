/**
 * The sample's quarterly IFRS portfolio pages (`ifrs_cartera_nac.php` / `ifrs_cartera_ext.php`),
 * latin-1 without a charset declaration: the heading gives the fund, "R.U.T.: 7003-5",
 * "Período: 03/2025" and "Cifras expresadas en miles de: PESOS"; the table has CMF's headers and a
 * TOTAL row (valuations and % of fund assets summed). Maturities carry " 00:00:00" from 2024-06 on,
 * as CMF's do; some issuer RUTs come without check digit. A fund's `emptyForeignPeriod` gets a
 * foreign page with no positions (only the TOTAL row, zero).
 */
import type { Prng } from "../Prng.ts"
import { formatRut } from "../../cmf/CmfRut.ts"
import { chilean, escapeHtml, page, row } from "./FiHtml.ts"
import type { SampleFile } from "./FiRegistryPages.ts"
import type { FiFund, FiUniverse } from "./FiUniverse.ts"

const N_HEADER = [
  "Clasif. del Instr. en ESF", "Nemotécnico", "Rut Emisor", "Cod. País", "Tipo Instrumento", "Fecha Vencimiento",
  "Situación del Instr.", "Clasif. De Riesgo", "Grupo Empresarial", "Cant Unidades", "Tipo Unidades", "TIR, Valor par o Precio",
  "Código Valolización", "Base tasa", "Tipo de interés", "Valolización al Cierre", "Cód. Moneda Liquidación",
  "Cód. Pais Transacción", "% Capital del Emisor", "% Tot. Activo del Emisor", "% Tot. Activo del Fondo"
]
const E_HEADER = [
  "Clasif del Instrumento en ESF", "Código ISIN o CUSIP", "Nemotecnico", "Nombre del emisor", ...N_HEADER.slice(3, 8),
  "Nombre Grupo Empr.", ...N_HEADER.slice(9)
]

// [nemotécnico, issuer RUT body, type, rating, group, years to maturity (0: none)]
const NATIONAL: ReadonlyArray<readonly [string, number, string, string, string, number]> = [
  ["SQM-B", 93007000, "ACC", "Primera Clase Nivel 1", "SQM", 0], ["BSANTANDER", 97036000, "ACC", "Primera Clase Nivel 1", "SANTANDER", 0],
  ["COPEC", 90690000, "ACC", "Primera Clase Nivel 1", "ANGELINI", 0], ["FALABELLA", 90749000, "ACC", "Primera Clase Nivel 1", "FALABELLA", 0],
  ["CENCOSUD", 93834000, "ACC", "Primera Clase Nivel 1", "CENCOSUD", 0], ["BCHI-B0122", 97004000, "BB", "AAA", "LUKSIC", 4],
  ["BSTDP50719", 97036000, "BB", "AAA", "SANTANDER", 6], ["FNBCI-150927", 97006000, "DPF", "N-1+", "BCI", 1],
  ["BTU0300334", 60805000, "BTU", "AAA", "", 8], ["CFIETFIPSA", 96639280, "CFI", "", "", 0]
]
// [ISIN, nemotécnico, issuer, country, type]
const FOREIGN: ReadonlyArray<readonly [string, string, string, string, string]> = [
  ["US0378331005", "AAPL", "APPLE INC", "US", "ACE"], ["US5949181045", "MSFT", "MICROSOFT CORP", "US", "ACE"],
  ["US78462F1030", "SPY", "SPDR S&P 500 ETF TRUST", "US", "CFME"], ["IE00B4L5Y983", "IWDA", "ISHARES CORE MSCI WORLD", "IE", "CFME"],
  ["US4642872349", "EEM", "ISHARES MSCI EMERGING MARKETS", "US", "CFME"], ["US0231351067", "AMZN", "AMAZON.COM INC", "US", "ACE"],
  ["LU0996182563", "AMUNDI", "AMUNDI INDEX MSCI EUROPE", "LU", "CFME"], ["US02079K3059", "GOOGL", "ALPHABET INC", "US", "ACE"]
]

const ESF = "A valor razonable con efecto en resultados"

const periodEnd = (period: string): string => {
  const month = period.slice(5)
  return `${month === "06" || month === "09" ? "30" : "31"}/${month}/${period.slice(0, 4)}`
}

const portfolioPage = (fund: FiFund, period: string, market: "N" | "E", rows: ReadonlyArray<string>): SampleFile => {
  const html = page({
    charset: null,
    title: "CMF Chile - Estados Financieros IFRS - Cartera de Inversiones",
    heading: [
      `<h2>${escapeHtml(fund.name)}</h2>`,
      `<p>R.U.T.: ${formatRut(fund.run)}</p>`,
      `<p>Período: ${period.slice(5)}/${period.slice(0, 4)}</p>`,
      `<p>Cartera de Inversiones ${market === "N" ? "Nacional" : "Extranjera"}</p>`,
      `<p>Cifras expresadas en miles de: ${fund.functionalCurrency}</p>`
    ].join("\n"),
    header: market === "N" ? N_HEADER : E_HEADER,
    rows
  })
  const kind = market === "N" ? "nac" : "ext"
  return { name: `fi_cartera_${kind}_${fund.run}_${period.replace("-", "")}.html`, bytes: Buffer.from(html, "latin1") }
}

/** Emits the N and E pages of every fund's portfolio periods. */
export const writePortfolioPages = async (prng: Prng, universe: FiUniverse, emit: (file: SampleFile) => Promise<void>): Promise<void> => {
  for (const fund of universe.funds) {
    const assets = (fund.currency === "CLP" ? 2e6 : fund.currency === "USD" ? 2e3 : 5e7) * (1 + 100 * prng.next() ** 2)
    for (const period of fund.portfolioPeriods) {
      const withTime = period >= "2024-06" ? " 00:00:00" : ""
      const year = Number(period.slice(0, 4))
      for (const market of ["N", "E"] as const) {
        const count = market === "E" && fund.emptyForeignPeriod === period ? 0 : market === "N" ? prng.int(3, 10) : prng.int(1, 6)
        const rows: Array<string> = []
        let total = 0
        let totalPct = 0
        for (let i = 0; i < count; i++) {
          const value = Math.round(assets * (0.02 + 0.15 * prng.next()))
          const pct = Math.round((value / assets) * 1e6) / 1e4
          total += value
          totalPct += pct
          const units = value * (1 + 9 * prng.next())
          const common = [chilean(units, 4), fund.currency === "CLP" ? "$$" : fund.currency, chilean(value / units * 1000, 4)]
          const tail = [chilean(value, 0), fund.currency === "CLP" ? "CLP" : fund.currency, market === "N" ? "CL" : "US", chilean(0.05 * prng.next(), 4), chilean(0.2 * prng.next(), 4), chilean(pct, 4)]
          if (market === "N") {
            const [nemo, rut, type, rating, group, years] = prng.pick(NATIONAL)
            const maturity = years === 0 ? "" : `${periodEnd(period).slice(0, 6)}${year + years}${withTime}`
            const rutText = prng.chance(0.2) ? String(rut) : formatRut(rut)
            rows.push(row([ESF, nemo, rutText, "CL", type, maturity, "1", rating, group, ...common, "3", years === 0 ? "" : "365", years === 0 ? "" : "NL", ...tail].map(escapeHtml)))
          } else {
            const [isin, nemo, issuer, country, type] = prng.pick(FOREIGN)
            rows.push(row([ESF, isin, nemo, issuer, country, type, "", "1", "", "", ...common, "3", "", "", ...tail].map(escapeHtml)))
          }
        }
        const width = market === "N" ? N_HEADER.length : E_HEADER.length
        const totalCells = Array.from({ length: width }, (_, i) => (i === 0 ? "TOTAL" : i === width - 6 ? chilean(total, 0) : i === width - 1 ? chilean(totalPct, 4) : ""))
        rows.push(row(totalCells))
        await emit(portfolioPage(fund, period, market, rows))
      }
    }
  }
}
