/**
 * AFM categories (our format; AFM publishes no stable download): `;` text, latin-1,
 * `RUN;SERIE;CATEGORIA_AFM;MONEDA;FECHA`, one row per series, category codes of AFM Circular N°7
 * (2025) or `S/C` (not yet classified), MONEDA `PESOS`/`DOLAR`, FECHA `YYYY-MM-DD`.
 */
import { Effect, Schema, SchemaParser } from "effect"
import { type AfmCategoryCode, afmFamilyOf } from "../../../schemas/AfmFamilies.ts"
import { cmfRow, Text, toNumber, WholeNumber } from "../../cmf/CmfCells.ts"
import { startsWithHeader } from "../../cmf/CmfHeaderLine.ts"
import { type CmfTable, readCmfTable } from "../../cmf/CmfTable.ts"
import type { DataSetSource } from "../DataSet.ts"
import { AfmCategoryCell, AfmCurrencyCell, DateIso } from "./MarketCells.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"
import type { AfmCategoriesTable } from "../../../snapshots/tables/Market.ts"
import { coreOf, knownSeriesId, type StageContext } from "../StageContext.ts"

/** AFM's currency of the series: PESOS (CLP) or DOLAR (USD). */
export const AfmCurrency = Schema.Literals(["PESOS", "DOLAR"])
export type AfmCurrency = typeof AfmCurrency.Type

/** One series of the AFM export. */
export interface AfmCategoryRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** Fund RUN without check digit. */
  readonly run: number
  readonly serie: string
  /** Null when AFM lists the series as not yet classified (`S/C`). */
  readonly category: AfmCategoryCode | null
  readonly currency: AfmCurrency
  /** FECHA: the classification's date, YYYY-MM-DD. */
  readonly date: string
}

export const AFM_CATEGORIES_COLUMNS = ["RUN", "SERIE", "CATEGORIA_AFM", "MONEDA", "FECHA"] as const

const cells = [WholeNumber, Text, AfmCategoryCell, AfmCurrencyCell, DateIso] as const

type Draft = { -readonly [K in keyof AfmCategoryRecord]: AfmCategoryRecord[K] }

const Row = cmfRow(cells, (c): Draft => ({
  line: 0,
  run: toNumber(c[0]),
  serie: c[1],
  category: c[2] === "S/C" ? null : (c[2] as AfmCategoryCode),
  currency: c[3] as AfmCurrency,
  date: c[4]
}))

const table: CmfTable<Draft> = {
  dataSet: "afm_categories",
  columns: AFM_CATEGORIES_COLUMNS,
  cells,
  decode: SchemaParser.decodeUnknownResult(Row)
}

/** Rows of one (RUN, SERIE) must agree: identical repeats are skipped and counted, others rejected. */
const parse = Effect.fn("AfmCategories.parse")(function* (bytes: Uint8Array, file: string) {
  const rows = uniqueRows<AfmCategoryRecord>({
    dataSet: "afm_categories",
    file,
    keyOf: (r) => `RUN ${r.run} SERIE ${r.serie}`,
    compared: [
      ["category", "CATEGORIA_AFM"], ["currency", "MONEDA"], ["date", "FECHA"]
    ],
    nullAs: "S/C"
  })
  const { footnotesSkipped } = yield* readCmfTable(table, bytes, file, rows.onRow)
  return { records: rows.records, repairs: { duplicatesSkipped: rows.duplicatesSkipped(), footnotesSkipped } }
})

/** AFM categories of every series; one key: the newest file replaces the older ones. */
export const AfmCategoriesSource: DataSetSource<AfmCategoryRecord> = {
  name: "afm_categories",
  detect: (bytes) => startsWithHeader(bytes, AFM_CATEGORIES_COLUMNS),
  parse,
  key: () => "afm_categories"
}

export const stageAfm = (
  records: ReadonlyArray<AfmCategoryRecord>,
  known: ReadonlySet<number>,
  aliasOf: ReadonlyMap<number, number>,
) => {
  const rows = new Map<number, AfmCategoriesTable>()
  const repairs = { afm_unclassified: 0, afm_unknown_series: 0 }
  // the classification's date (FECHA): the latest of the rows kept, null when none is kept
  let reportDate: string | null = null
  for (const r of records) {
    const family = afmFamilyOf(r.category)
    if (family === null || r.category === null) {
      repairs.afm_unclassified++
      continue
    }
    const id = knownSeriesId(r.run, r.serie, known, aliasOf)
    if (id === null) {
      repairs.afm_unknown_series++
      continue
    }
    rows.set(id, { asset_id: id, category: r.category, family_rar: family.familyRar, family_slug: family.slug, currency: r.currency })
    if (reportDate === null || r.date > reportDate) reportDate = r.date
  }
  return { rows: [...rows.values()].sort((a, b) => a.asset_id - b.asset_id), repairs, reportDate }
}

export const afmStep = (context: StageContext) =>
  Effect.sync(() => {
    const core = coreOf(context)
    const afm = stageAfm(context.records<AfmCategoryRecord>("afm_categories"), core.known, core.aliasOf)
    if (afm.reportDate !== null) context.meta.afm_report_date = afm.reportDate
    context.put("afm_categories", afm.rows)
    Object.assign(context.repairs, afm.repairs)
  })
