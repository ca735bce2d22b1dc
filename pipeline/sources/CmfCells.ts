/**
 * Effect Schemas for single CMF text cells (already trimmed). A cell schema only validates the
 * string; the parsers put the cells in a `Schema.Tuple` (so a failure's issue path is the column
 * index, which names the CMF column) and convert the whole row in one `decodeTo` step with the
 * converters below (one transformation per row instead of one per cell: ~3× faster).
 */
import { Schema, SchemaGetter, type SchemaIssue } from "effect"

const expectedByCell = new Map<Schema.Top, string>()

/** Registers the human wording of what a cell must contain, used in `CmfFileInvalid` messages. */
export const cell = <S extends Schema.Top>(expected: string, schema: S): S => {
  expectedByCell.set(schema, expected)
  return schema
}

/** What `schema` (one of the cells below) expects, e.g. "a positive number". */
export const expectedOf = (schema: Schema.Top): string => expectedByCell.get(schema) ?? "a valid value"

const pattern = (re: RegExp) => Schema.String.check(Schema.isPattern(re))
const satisfying = (ok: (s: string) => boolean) => Schema.String.check(Schema.makeFilter((s: string) => ok(s)))

// "." is the decimal separator in the real files; "," is accepted too. Thousands separators are not.
const DECIMAL = /^-?(?:\d+(?:[.,]\d*)?|[.,]\d+)$/
const OPTIONAL_DECIMAL = /^(?:-?(?:\d+(?:[.,]\d*)?|[.,]\d+))?$/
const OPTIONAL_UNSIGNED_DECIMAL = /^(?:\d+(?:[.,]\d*)?|[.,]\d+)?$/

export const toNumber = (s: string): number => Number(s.includes(",") ? s.replace(",", ".") : s)
export const toNullableNumber = (s: string): number | null => (s === "" ? null : toNumber(s))
export const toNullableBoolean = (s: string): boolean | null => (s === "" ? null : s === "S")
/** `YYYYMMDD` → `YYYY-MM-DD` */
export const isoFromYmd = (s: string): string => `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`
/** `DD/MM/YYYY` → `YYYY-MM-DD`; blank → null */
export const isoFromDmy = (s: string): string | null =>
  s === "" ? null : `${s.slice(6, 10)}-${s.slice(3, 5)}-${s.slice(0, 2)}`

/** True when `iso` (YYYY-MM-DD) is a real calendar date. */
export const isCalendarDate = (iso: string): boolean => {
  const y = Number(iso.slice(0, 4))
  const m = Number(iso.slice(5, 7))
  const d = Number(iso.slice(8, 10))
  const t = new Date(Date.UTC(y, m - 1, d))
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d
}

/**
 * A number a double holds (a 400-digit cell reads as Infinity, which no JSON answer can carry);
 * counts must be exact integers. Blank passes (the patterns decide whether blank is allowed).
 */
const finite = (s: string): boolean => s === "" || Number.isFinite(toNumber(s))
const exactCount = (s: string): boolean => s === "" || Number.isSafeInteger(Number(s))

export const WholeNumber = cell("a whole number", satisfying((s) => /^\d+$/.test(s) && exactCount(s)))
export const NullableWholeNumber = cell("a whole number or blank", satisfying((s) => /^\d*$/.test(s) && exactCount(s)))
export const NullableDecimal = cell("a number or blank", satisfying((s) => OPTIONAL_DECIMAL.test(s) && finite(s)))
export const PositiveDecimal = cell("a positive number", satisfying((s) => DECIMAL.test(s) && toNumber(s) > 0 && finite(s)))
/** FACTOR DE AJUSTE / DE REPARTO: blank on normal days (CMF writes 0 on some days, meaning 1). */
export const NullableFactor = cell("a non-negative number or blank", satisfying((s) => OPTIONAL_UNSIGNED_DECIMAL.test(s) && finite(s)))
export const Text = cell("a non-empty text", Schema.String.check(Schema.isNonEmpty()))
/**
 * Identifier-like cells (a series label, a currency) and names (administrator, fund): a value far
 * longer than any real one is a row whose separators went missing, not a label to publish. The
 * bounds are several times the longest real value (labels of a few characters, names under 150),
 * so that no real file is refused by them.
 */
export const Code = cell("a non-empty code of at most 100 characters", satisfying((s) => s !== "" && s.length <= 100))
export const Name = cell("a non-empty name of at most 1000 characters", satisfying((s) => s !== "" && s.length <= 1000))
export const AnyText = cell("text", Schema.String)
export const YesNo = cell("S, N or blank", Schema.Literals(["S", "N", ""]))
/** FECHA_INF: `YYYYMMDD`, a real calendar date. */
export const DateYmd = cell(
  "a date YYYYMMDD",
  satisfying((s) => /^\d{8}$/.test(s) && isCalendarDate(isoFromYmd(s)))
)
/** Registry dates: `DD/MM/YYYY`, a real calendar date, or blank. */
export const NullableDateDmy = cell(
  "a date DD/MM/YYYY or blank",
  satisfying((s) => s === "" || (/^\d{2}\/\d{2}\/\d{4}$/.test(s) && isCalendarDate(isoFromDmy(s)!)))
)
/** CMF "Tipo de Fondo Mutuo": 1–8, or blank. */
export const NullableFundType = cell("a fund type 1-8 or blank", pattern(/^[1-8]?$/))

/**
 * A row schema: the tuple of `cells`, then `convert` into `T` (trusted, not re-validated). Rows are
 * only read, never written back, so encoding is refused.
 */
export const cmfRow = <const Cells extends ReadonlyArray<Schema.Top>, T extends object>(
  cells: Cells,
  convert: (cells: Schema.Tuple<Cells>["Type"]) => T
) =>
  Schema.Tuple(cells).pipe(
    Schema.decodeTo(Schema.declare<T>((u): u is T => typeof u === "object" && u !== null), {
      decode: SchemaGetter.transform(convert),
      encode: SchemaGetter.forbidden(() => "CMF rows are only read")
    })
  )

/** The column index an issue from a `Schema.Tuple` of cells points at (the first one if several). */
export const issueColumn = (issue: SchemaIssue.Issue): number | undefined => {
  let current: SchemaIssue.Issue | undefined = issue
  while (current !== undefined) {
    switch (current._tag) {
      case "Pointer": {
        const key = current.path[0]
        return typeof key === "number" ? key : undefined
      }
      case "Composite":
      case "AnyOf":
        current = current.issues[0]
        break
      case "Filter":
      case "Encoding":
        current = current.issue
        break
      default:
        return undefined
    }
  }
  return undefined
}
