/**
 * CSV read back the way a client library does (RFC 4180: quoted fields with doubled quotes, CRLF or
 * LF line ends), rows as records keyed by the header line, as fast-csv's `parse({ headers: true })`
 * gives them. Written here, not taken from the code under test.
 */

/** Every record of `text` (which must end with a line break), keyed by its header line. */
export const parseCsv = (text: string): Array<Record<string, string>> => {
  const rows: string[][] = []
  let row: string[] = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') {
        quoted = false
      } else {
        field += c
      }
    } else if (c === '"' && field === "") {
      quoted = true
    } else if (c === ",") {
      row.push(field)
      field = ""
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++
      row.push(field)
      rows.push(row)
      row = []
      field = ""
    } else {
      field += c
    }
  }
  if (field !== "" || row.length > 0) throw new Error("CSV text does not end with a line break")
  const [header, ...records] = rows
  if (header === undefined) throw new Error("CSV without a header line")
  return records.map((r) => {
    if (r.length !== header.length) throw new Error(`a line of ${r.length} fields under a header of ${header.length}: ${r.join(",")}`)
    return Object.fromEntries(header.map((name, i) => [name, r[i]!]))
  })
}

/** The header line's field names. */
export const csvHeader = (text: string): string[] => text.slice(0, text.search(/\r?\n/)).split(",")
