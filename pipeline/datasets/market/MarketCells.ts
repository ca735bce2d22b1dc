/**
 * Cell schemas and number readers of the market data sets (indicators, AFM categories, benchmarks,
 * spheres): ISO dates, Chilean number strings, the formats' small vocabularies.
 */
import { Schema } from "effect"
import { AFM_CATEGORY_CODES } from "../../../schemas/AfmFamilies.ts"
import { cell } from "../../cmf/CmfCells.ts"

/** True for a real calendar date written YYYY-MM-DD. */
export const isIsoDate = (s: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (m === null) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const t = new Date(Date.UTC(y, mo - 1, d))
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d
}

/** `DD-MM-YYYY` (SIETE's indexDateString) → `YYYY-MM-DD`, or null when it is not a calendar date. */
export const isoFromDashedDmy = (s: string): string | null => {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(s)
  if (m === null) return null
  const iso = `${m[3]}-${m[2]}-${m[1]}`
  return isIsoDate(iso) ? iso : null
}

/** A Chilean number string ("39.500,00", "872,22", "1.012"): `.` thousands, `,` decimals. Null if not one. */
export const chileanNumber = (s: string): number | null =>
  /^(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?$/.test(s) ? Number(s.replaceAll(".", "").replace(",", ".")) : null

/** A plain decimal with `.` ("39123.45"), as SIETE and market-data CSVs write them. Null if not one. */
export const dotNumber = (s: string): number | null => (/^\d+(?:\.\d+)?$/.test(s) ? Number(s) : null)

const satisfying = (ok: (s: string) => boolean) => Schema.String.check(Schema.makeFilter((s: string) => ok(s)))

export const DateIso = cell("a date YYYY-MM-DD", satisfying(isIsoDate))
export const PositiveDotDecimal = cell("a positive number with . decimals", satisfying((s) => (dotNumber(s) ?? 0) > 0))
export const WholeVolume = cell("a whole number", Schema.String.check(Schema.isPattern(/^\d+$/)))
export const AfmCategoryCell = cell(
  "an AFM Circular N°7 category code or S/C",
  Schema.Literals([...AFM_CATEGORY_CODES, "S/C"])
)
export const AfmCurrencyCell = cell("PESOS or DOLAR", Schema.Literals(["PESOS", "DOLAR"]))
export const NullableSpheres = cell("spheres 1-5 or blank", Schema.String.check(Schema.isPattern(/^[1-5]?$/)))
export const BenchmarkCurrencyCell = cell("USD or CLP", Schema.Literals(["USD", "CLP"]))
export const AssetClassCell = cell(
  "equity, fixed_income, money_market or balanced",
  Schema.Literals(["equity", "fixed_income", "money_market", "balanced"])
)
/** Market symbols: `VOO`, `BRK.B`, `^IPSA`, `CFMITNIPSA`. */
export const SYMBOL = /^[A-Z0-9^][A-Z0-9.^_=-]*$/
export const SymbolCell = cell("a market symbol (A-Z, 0-9, . ^ _ = -)", Schema.String.check(Schema.isPattern(SYMBOL)))
