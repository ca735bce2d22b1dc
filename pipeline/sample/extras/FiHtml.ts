/** How the sample writes CMF HTML: Chilean numbers, escaped text, a page around a heading and a table. */

/** `x` with `decimals` decimals, "," as decimal mark and, when `grouped`, "." between thousands. */
export const chilean = (x: number, decimals: number, grouped = true): string => {
  const [int, frac] = Math.abs(x).toFixed(decimals).split(".") as [string, string | undefined]
  const body = grouped ? int.replace(/\B(?=(\d{3})+(?!\d))/g, ".") : int
  const sign = x < 0 && Number(x.toFixed(decimals)) !== 0 ? "-" : ""
  return `${sign}${body}${frac === undefined ? "" : `,${frac}`}`
}

export const escapeHtml = (s: string): string => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")

export const row = (cells: ReadonlyArray<string>, tag: "td" | "th" = "td"): string =>
  `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join("")}</tr>`

export interface PageParts {
  /** The `<meta>` charset declared, or null for none. */
  readonly charset: string | null
  readonly title: string
  /** HTML before the table (headings, paragraphs). */
  readonly heading: string
  readonly header: ReadonlyArray<string>
  /** Data rows, already `<tr>…</tr>`. */
  readonly rows: ReadonlyArray<string>
}

export const page = (p: PageParts): string =>
  [
    "<!DOCTYPE html>",
    '<html lang="es">',
    "<head>",
    p.charset === null ? "" : `<meta http-equiv="Content-Type" content="text/html; charset=${p.charset}">`,
    `<title>${escapeHtml(p.title)}</title>`,
    '<script type="text/javascript">var menu = "<table><tr><td>R.U.T.</td></tr></table>";</script>',
    "</head>",
    "<body>",
    '<div id="contenido">',
    p.heading,
    '<table class="tabla">',
    `<thead>${row(p.header.map(escapeHtml), "th")}</thead>`,
    "<tbody>",
    ...p.rows,
    "</tbody>",
    "</table>",
    "</div>",
    "</body>",
    "</html>",
    ""
  ].join("\n")
