/**
 * UF and dólar observado as JSON, in either real API answer:
 * - Central Bank SIETE `GetSeries`: `{"Codigo":0,"Descripcion":"Success","Series":{"seriesId":"F073.UFF.PRE.Z.D",
 *   "Obs":[{"indexDateString":"DD-MM-YYYY","value":"39123.45","statusCode":"OK"}]}}`; a day without a value
 *   is `"value":"NaN","statusCode":"ND"` (skipped, counted).
 * - CMF API (ex-SBIF): `{"UFs":[{"Valor":"39.500,00","Fecha":"2025-01-01"}]}` or `{"Dolares":[…]}`,
 *   Chilean number strings.
 * A problem names the JSON path as the field and the array index as the "line".
 */
import { Effect, Schema } from "effect"
import type { IndicatorProvider } from "../../fetch/IndicatorFetch.ts"
import { CmfFileInvalid, cmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import type { DataSetSource } from "../DataSet.ts"
import { chileanNumber, dotNumber, isIsoDate, isoFromDashedDmy } from "./MarketCells.ts"
import type { Parsed } from "../Parsed.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"
import { dateToInt } from "../../../schemas/Dates.ts"
import type { IndicatorsTable } from "../../../snapshots/tables/Market.ts"
import type { StageContext } from "../StageContext.ts"

/* Parsed UF and observed-dollar values (data set `indicators`): what `real_uf` and `clp` valuations deflate or convert with. */

/** `UF` (unidad de fomento, CLP per UF) or `USD` (dólar observado, CLP per USD). */
export const IndicatorName = Schema.Literals(["UF", "USD"]).annotate({
  description: "UF (CLP per unidad de fomento) or USD (dólar observado, CLP per US dollar)",
})
export type IndicatorName = typeof IndicatorName.Type


/** One published value of an indicator on one calendar day. */
export interface IndicatorRecord {
  readonly indicator: IndicatorName
  /** YYYY-MM-DD */
  readonly date: string
  /** Pesos per unit, always > 0. */
  readonly value: number
  readonly provider: IndicatorProvider
}

/** The two SIETE series we read. */
export const SIETE_SERIES: Readonly<Record<string, IndicatorName>> = {
  "F073.UFF.PRE.Z.D": "UF",
  "F073.TCO.PRE.Z.D": "USD"
}

/** The array of a CMF API answer, by indicator. */
export const CMF_API_ARRAYS: Readonly<Record<string, IndicatorName>> = { UFs: "UF", Dolares: "USD" }

const HEAD_BYTES = 8 * 1024
const utf8 = new TextDecoder("utf-8")
const jsonText = (bytes: Uint8Array): string => {
  const text = utf8.decode(bytes)
  return text.startsWith("\ufeff") ? text.slice(1) : text
}

const SIETE_SIGNATURE = /^\s*\{\s*"Codigo"\s*:\s*-?\d+\s*,\s*"Descripcion"\s*:[\s\S]*"Series"\s*:/
const CMF_API_SIGNATURE = /^\s*\{\s*"(?:UFs|Dolares)"\s*:\s*\[/

/** Any SIETE answer (another series or an error code is rejected by `parse`, clearly), or a CMF API UF/dólar answer. */
const detect = (bytes: Uint8Array): boolean => {
  const head = jsonText(bytes.subarray(0, HEAD_BYTES))
  return SIETE_SIGNATURE.test(head) || CMF_API_SIGNATURE.test(head)
}

type Obj = Readonly<Record<string, unknown>>
const isObj = (u: unknown): u is Obj => typeof u === "object" && u !== null && !Array.isArray(u)
const show = (u: unknown): string => {
  const text = typeof u === "string" ? `"${u}"` : (JSON.stringify(u) ?? "nothing")
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

interface Read extends Parsed<IndicatorRecord> {
  readonly indicator: IndicatorName
  /** The earliest date the file covers (a "ND" day included). */
  readonly firstDate: string | null
}

/** Parses the whole answer synchronously (shared by `parse` and `key`). */
export const readIndicators = (bytes: Uint8Array, file: string): Read | CmfFileInvalid => {
  const problem = (line: number, field: string, detail: string) =>
    cmfFileInvalid({ dataSet: "indicators", file, line, field, detail })
  const text = jsonText(bytes)
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (e) {
    const at = /position (\d+)/.exec(String(e))
    const line = at === null ? 1 : text.slice(0, Number(at[1])).split("\n").length
    return problem(line, "JSON", `not valid JSON (line ${line} is the text line): ${(e as Error).message}`)
  }
  if (!isObj(doc)) return problem(0, "JSON", `expected a JSON object, got ${show(doc)}`)
  const arrayName = Object.keys(CMF_API_ARRAYS).find((k) => k in doc)
  if ("Series" in doc || "Codigo" in doc) return readSiete(doc, file, problem)
  if (arrayName !== undefined) return readCmfApi(doc, arrayName, file, problem)
  return problem(0, "JSON", "neither a SIETE answer (Codigo, Series) nor a CMF API answer (UFs, Dolares)")
}

type Problem = (line: number, field: string, detail: string) => CmfFileInvalid

/** A record with its index in the answer's array, which UniqueRows names; records carry no line. */
type Draft = IndicatorRecord & { line: number }

/** Collects values by date: an identical repeat is skipped and counted, a different one rejected. */
const collector = (indicator: IndicatorName, provider: IndicatorProvider, file: string, array: string, column: string) => {
  const unique = uniqueRows<Draft>({ dataSet: "indicators", file, keyOf: (r) => r.date, compared: [["value", column]], array })
  let firstDate: string | null = null
  const cover = (date: string) => {
    if (firstDate === null || date < firstDate) firstDate = date
  }
  const add = (index: number, date: string, value: number): CmfFileInvalid | undefined => {
    cover(date)
    return unique.onRow({ line: index, indicator, date, value, provider }, index)
  }
  const done = (repairs: Record<string, number>): Read => ({
    indicator,
    firstDate,
    records: unique.records.map(({ line: _, ...record }) => record),
    repairs: { duplicatesSkipped: unique.duplicatesSkipped(), ...repairs }
  })
  return { add, cover, done }
}

const readSiete = (doc: Obj, file: string, problem: Problem): Read | CmfFileInvalid => {
  if (doc.Codigo !== 0) {
    return problem(0, "Codigo", `SIETE answered Codigo ${show(doc.Codigo)} (${show(doc.Descripcion)}), expected 0`)
  }
  const series = doc.Series
  if (!isObj(series)) return problem(0, "Series", `expected an object, got ${show(series)}`)
  const indicator = typeof series.seriesId === "string" ? SIETE_SERIES[series.seriesId] : undefined
  if (indicator === undefined) {
    return problem(0, "Series.seriesId", `expected F073.UFF.PRE.Z.D (UF) or F073.TCO.PRE.Z.D (USD), got ${show(series.seriesId)}`)
  }
  const obs = series.Obs
  if (!Array.isArray(obs)) return problem(0, "Series.Obs", `expected an array of observations, got ${show(obs)}`)
  const values = collector(indicator, "bcentral_siete", file, "Series.Obs", "value")
  let notTradingDaysSkipped = 0
  for (let i = 0; i < obs.length; i++) {
    const at = (field: string, detail: string) =>
      problem(i, `Series.Obs[${i}]${field}`, `${detail} (line ${i} is the index in Series.Obs)`)
    const o: unknown = obs[i]
    if (!isObj(o)) return at("", `expected an observation object, got ${show(o)}`)
    const date = typeof o.indexDateString === "string" ? isoFromDashedDmy(o.indexDateString) : null
    if (date === null) return at(".indexDateString", `expected a date DD-MM-YYYY, got ${show(o.indexDateString)}`)
    if (o.statusCode === "ND") {
      if (o.value !== "NaN") return at(".value", `expected "NaN" on a day without value (statusCode ND), got ${show(o.value)}`)
      values.cover(date)
      notTradingDaysSkipped++
      continue
    }
    if (o.statusCode !== "OK") return at(".statusCode", `expected "OK" or "ND", got ${show(o.statusCode)}`)
    const value = typeof o.value === "string" ? dotNumber(o.value) : null
    if (value === null || value <= 0) return at(".value", `expected a positive number with . decimals, got ${show(o.value)}`)
    const error = values.add(i, date, value)
    if (error !== undefined) return error
  }
  return values.done({ notTradingDaysSkipped })
}

const readCmfApi = (doc: Obj, arrayName: string, file: string, problem: Problem): Read | CmfFileInvalid => {
  const indicator = CMF_API_ARRAYS[arrayName]!
  const items = doc[arrayName]
  if (!Array.isArray(items)) return problem(0, arrayName, `expected an array, got ${show(items)}`)
  const values = collector(indicator, "cmf_api", file, arrayName, "Valor")
  for (let i = 0; i < items.length; i++) {
    const at = (field: string, detail: string) =>
      problem(i, `${arrayName}[${i}]${field}`, `${detail} (line ${i} is the index in ${arrayName})`)
    const item: unknown = items[i]
    if (!isObj(item)) return at("", `expected an object with Valor and Fecha, got ${show(item)}`)
    if (typeof item.Fecha !== "string" || !isIsoDate(item.Fecha)) {
      return at(".Fecha", `expected a date YYYY-MM-DD, got ${show(item.Fecha)}`)
    }
    const value = typeof item.Valor === "string" ? chileanNumber(item.Valor) : null
    if (value === null || value <= 0) {
      return at(".Valor", `expected a positive Chilean number like "39.500,00", got ${show(item.Valor)}`)
    }
    const error = values.add(i, item.Fecha, value)
    if (error !== undefined) return error
  }
  return values.done({})
}

/**
 * UF and dólar observado values. Key `<UF|USD>:from_<first date covered>`: a later, longer answer
 * starting on the same day (this year so far, fetched again) replaces the shorter one.
 */
export const IndicatorsSource: DataSetSource<IndicatorRecord> = {
  name: "indicators",
  detect,
  parse: (bytes, file) =>
    Effect.suspend(() => {
      const read = readIndicators(bytes, file)
      if (read instanceof CmfFileInvalid) return Effect.fail(read)
      return Effect.succeed({ records: read.records, repairs: read.repairs })
    }).pipe(Effect.withSpan("Indicators.parse")),
  key: (name, bytes, sha256) => {
    const read = readIndicators(bytes, name)
    if (read instanceof CmfFileInvalid) return sha256
    return `${read.indicator}:${read.firstDate === null ? sha256 : `from_${read.firstDate}`}`
  }
}

/** Later files win for a repeated (indicator, date): files arrive oldest observation first. */
export const stageIndicators = (records: ReadonlyArray<IndicatorRecord>, cutoff: number): IndicatorsTable[] => {
  const rows = new Map<string, IndicatorsTable>()
  for (const r of records) {
    const date = dateToInt(r.date)
    if (date > cutoff) continue
    rows.set(`${r.indicator}|${date}`, { indicator: r.indicator, date, value: r.value })
  }
  return [...rows.values()].sort((a, b) => (a.indicator < b.indicator ? -1 : a.indicator > b.indicator ? 1 : a.date - b.date))
}

export const indicatorsStep = (context: StageContext) =>
  Effect.sync(() => void context.put("indicators", stageIndicators(context.records<IndicatorRecord>("indicators"), context.cutoff)))
