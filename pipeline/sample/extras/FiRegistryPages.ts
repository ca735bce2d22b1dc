/**
 * The four CMF list pages of the sample (`consulta.php?entidad=FIRES|FINRE&Estado=VI|NV`), each
 * naming its list in the title and headings. Encodings differ on purpose: FIRES-VI latin-1 as
 * declared; FIRES-NV UTF-8 bytes under a latin-1 declaration (mojibake, repaired by the parser);
 * FINRE-VI UTF-8 as declared; FINRE-NV latin-1 with no declaration. NV pages have an Estado column.
 */
import { formatRut } from "../../cmf/CmfRut.ts"
import { escapeHtml, page, row } from "./FiHtml.ts"
import type { FiUniverse } from "./FiUniverse.ts"

export interface SampleFile {
  readonly name: string
  readonly bytes: Buffer
}

const LISTS = [
  { entidad: "FIRES", estado: "VI", charset: "iso-8859-1", encoding: "latin1" },
  { entidad: "FIRES", estado: "NV", charset: "iso-8859-1", encoding: "utf8" },
  { entidad: "FINRE", estado: "VI", charset: "utf-8", encoding: "utf8" },
  { entidad: "FINRE", estado: "NV", charset: null, encoding: "latin1" }
] as const

export const registryPages = (universe: FiUniverse): Array<SampleFile> =>
  LISTS.map(({ entidad, estado, charset, encoding }) => {
    const kind = entidad === "FIRES" ? "Rescatables" : "No Rescatables"
    const state = estado === "VI" ? "Vigentes" : "No Vigentes"
    const funds = universe.funds
      .filter((f) => f.regulatoryType === entidad && f.lists.includes(estado))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.run - b.run))
    const rows = funds.map((f) => {
      const href = `entidad.php?mercado=V&amp;rut=${f.run}&amp;grupo=&amp;tipoentidad=${entidad}&amp;vig=${estado}&amp;control=svs&amp;pestania=1`
      const cells = [`<a href="${href}">${formatRut(f.run)}</a>`, escapeHtml(f.name), escapeHtml(f.admin.name)]
      return row(estado === "NV" ? [...cells, "No Vigente"] : cells)
    })
    const html = page({
      charset,
      title: `CMF Chile - Fondos de Inversión ${kind} - ${state}`,
      heading: `<h1>Fondos de Inversión ${kind}</h1>\n<h2>${state}</h2>`,
      header: estado === "NV" ? ["R.U.T.", "Entidad", "Administradora", "Estado"] : ["R.U.T.", "Entidad", "Administradora"],
      rows
    })
    return { name: `fi_consulta_${entidad}_${estado}.html`, bytes: Buffer.from(html, encoding) }
  })
