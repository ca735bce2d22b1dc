/**
 * An XLSX checked against the parse limits before the workbook library reads it. The library
 * inflates every ZIP part whole and lays each row out up to its last cell, so ~100 KB holding one
 * cell at column XFD on 20,000 rows became 327 million cells and ended the process out of memory.
 * Here each part is inflated with a ceiling on its output, and each worksheet's `<dimension>` and
 * cell references are read as text, without building a cell, so such a file is refused in
 * milliseconds and a few megabytes.
 */
import { inflateRawSync } from "node:zlib"
import {
  MAX_CELLS,
  MAX_COLUMNS,
  MAX_ROWS,
  MAX_SHEETS,
  MAX_XLSX_INFLATED_BYTES,
  ParseLimitExceeded,
  withinLimit,
} from "./ParseLimits.ts"
import { printableName } from "./PrintableName.ts"

const END_OF_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06])
const DIRECTORY_ENTRY = 0x02014b50
// A worksheet by its content, not its name: the workbook's relationships may put it anywhere.
const SHEET_DATA = /<(?:\w+:)?sheetData[\s>/]/

/** "XFD" → 16384 (1-based, as a spreadsheet numbers columns). */
const columnNumber = (letters: string): number => {
  let n = 0
  for (const ch of letters.toUpperCase()) n = n * 26 + ch.charCodeAt(0) - 64
  return n
}

const REF = /^([A-Za-z]{0,4})(\d{0,9})$/

/**
 * The worksheet's extent as the library would lay it out: rows, the last column of each row, and
 * the cells of all rows up to their last one. A cell or row without `r` follows the one before it,
 * as the library reads it.
 */
const scanSheet = (part: string, xml: string): void => {
  const where = `sheet part "${printableName(part)}"`
  const dimension = /<(?:\w+:)?dimension\s[^>]*\bref="([^"]*)"/.exec(xml)?.[1]
  for (const end of dimension?.split(":") ?? []) {
    const [, letters = "", digits = ""] = REF.exec(end) ?? []
    withinLimit(where, "MAX_COLUMNS", MAX_COLUMNS, columnNumber(letters), (n) => `its dimension ${dimension} reaches column ${letters} (${n})`)
    withinLimit(where, "MAX_ROWS", MAX_ROWS, Number(digits), (n) => `its dimension ${dimension} reaches row ${n}`)
  }
  const tag = /<(?:\w+:)?(row|c)(?=[\s>/])([^>]*)>/g
  let row = 0
  let column = 0
  let width = 0
  let laid = 0
  for (let m = tag.exec(xml); m !== null; m = tag.exec(xml)) {
    const ref = /\sr="([^"]*)"/.exec(m[2]!)?.[1]
    if (m[1] === "row") {
      laid += width
      row = ref === undefined ? row + 1 : Number(ref)
      column = 0
      width = 0
      withinLimit(where, "MAX_ROWS", MAX_ROWS, row, (n) => `a row numbered ${n}`)
      continue
    }
    const [, letters = "", digits = ""] = (ref === undefined ? undefined : REF.exec(ref)) ?? []
    column = letters === "" ? column + 1 : columnNumber(letters)
    if (digits !== "") row = Math.max(row, Number(digits))
    width = Math.max(width, column)
    const cell = ref === undefined ? "a cell" : `a cell at ${ref}`
    withinLimit(where, "MAX_COLUMNS", MAX_COLUMNS, column, (n) => `${cell} (column ${n})`)
    withinLimit(where, "MAX_ROWS", MAX_ROWS, row, (n) => `${cell} (row ${n})`)
    withinLimit(where, "MAX_CELLS", MAX_CELLS, laid + width, (n) => `${n} cells laid out by row ${row}`)
  }
}

/**
 * Throws `ParseLimitExceeded` when the XLSX is over a limit. A ZIP this walk cannot follow is left
 * to the library, which says how it is damaged; each part is inflated from its local header to the
 * end of its deflate stream, as the library does, whatever size the directory declares.
 */
export const checkXlsx = (bytes: Uint8Array): void => {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const end = zip.lastIndexOf(END_OF_DIRECTORY)
  if (end < 0 || end + 22 > zip.length) return
  const entries = zip.readUInt16LE(end + 10)
  let at = zip.readUInt32LE(end + 16)
  let inflated = 0
  let sheets = 0
  for (let i = 0; i < entries && at + 46 <= zip.length && zip.readUInt32LE(at) === DIRECTORY_ENTRY; i++) {
    const method = zip.readUInt16LE(at + 10)
    const nameBytes = zip.readUInt16LE(at + 28)
    const local = zip.readUInt32LE(at + 42)
    const name = zip.toString("latin1", at + 46, at + 46 + nameBytes)
    at += 46 + nameBytes + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
    if (local + 30 > zip.length) return
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    const left = MAX_XLSX_INFLATED_BYTES - inflated
    let part: Buffer
    if (method === 8) {
      try {
        part = inflateRawSync(zip.subarray(dataAt), { maxOutputLength: Math.max(1, left) })
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
          throw new ParseLimitExceeded(`ZIP part "${printableName(name)}"`, "MAX_XLSX_INFLATED_BYTES", MAX_XLSX_INFLATED_BYTES, "the parts inflate past it")
        }
        return
      }
    } else {
      part = zip.subarray(dataAt, dataAt + zip.readUInt32LE(local + 18))
    }
    inflated += part.length
    withinLimit(`ZIP part "${printableName(name)}"`, "MAX_XLSX_INFLATED_BYTES", MAX_XLSX_INFLATED_BYTES, inflated, (n) => `the parts inflate to ${n} bytes`)
    if (!/\.xml$/i.test(name)) continue
    const xml = part.toString("latin1")
    if (!SHEET_DATA.test(xml)) continue
    sheets++
    withinLimit(`ZIP part "${printableName(name)}"`, "MAX_SHEETS", MAX_SHEETS, sheets, (n) => `worksheet number ${n}`)
    scanSheet(name, xml)
  }
}
