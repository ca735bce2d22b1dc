/**
 * What a fund's CMF page says outside its tables: the fund's R.U.T. (the URL's `rut=` is not in a
 * saved page, so the heading is the only trustworthy source), the queried date range, the IFRS
 * period and the functional currency.
 */
import type { DataSetName } from "../DataSetName.ts"
import type { CmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import { type HtmlPage, pageProblem } from "../../cmf/CmfHtmlTable.ts"
import { readRut } from "../../cmf/CmfRut.ts"

// "R.U.T.: 9251-7", "RUT Fondo: 9.251-7", "R.U.N. del fondo 9251-7".
const FUND_RUT = /\bR\.?\s?U\.?\s?[TN]\.?(?:\s+(?:del\s+)?fondo)?\s*:?\s*((?:\d{1,3}(?:\.\d{3})+|\d+)-[0-9kK])(?![\w-])/i

/** The fund's RUN (without check digit), which must be in the heading with a correct check digit. */
export const fundRunInHeading = (page: HtmlPage, dataSet: DataSetName, file: string): number | CmfFileInvalid => {
  const m = FUND_RUT.exec(page.heading)
  if (m === null) {
    return pageProblem(dataSet, file, "R.U.T.", 'no fund R.U.T. in the page heading (like "R.U.T.: 9251-7"): the page cannot be attributed to a fund')
  }
  const rut = readRut(m[1]!)!
  if (!rut.valid) {
    return pageProblem(dataSet, file, "R.U.T.", `wrong check digit in "${m[1]}" (the heading's fund R.U.T.)`)
  }
  return rut.body
}

const iso = (dmy: string): string => `${dmy.slice(6, 10)}-${dmy.slice(3, 5)}-${dmy.slice(0, 2)}`

/** "Desde: 01/01/2025 Hasta: 31/12/2025" (the range the values were queried for), as ISO dates. */
export const dateRangeInHeading = (page: HtmlPage): { readonly from: string; readonly to: string } | null => {
  const m = /Desde:?\s*(\d{2}\/\d{2}\/\d{4})\s*(?:[-–]\s*)?Hasta:?\s*(\d{2}\/\d{2}\/\d{4})/i.exec(page.heading)
  return m === null ? null : { from: iso(m[1]!), to: iso(m[2]!) }
}

/**
 * "Período: 03/2025", "Período: 202503" or "Período: 2025-03" → "2025-03"; undefined when absent,
 * "invalid" when it is not a quarter end (IFRS portfolios are quarterly: March, June, September,
 * December).
 */
export const periodInHeading = (page: HtmlPage): string | "invalid" | undefined => {
  const m = /Per[ií]odo:?\s*(?:(\d{2})\/(\d{4})|(\d{4})-?(\d{2}))(?!\d)/i.exec(page.heading)
  if (m === null) return undefined
  const month = m[1] ?? m[4]!
  const year = m[2] ?? m[3]!
  return ["03", "06", "09", "12"].includes(month) ? `${year}-${month}` : "invalid"
}

/** "Cifras expresadas en miles de: PESOS" → "PESOS"; null when the page does not say. */
export const functionalCurrencyInHeading = (page: HtmlPage): string | null => {
  const m = /Cifras expresadas en miles de:?\s*((?:[A-ZÁÉÍÓÚÑ]+(?=[\s.,;)]|$) ?)+)/.exec(page.heading)
  return m === null ? null : m[1]!.trim()
}
