/**
 * The daily cartola (`cfm_download.php`, e.g. `ffmm_todos_20260101_20260131.txt`): every series of
 * every mutual fund, one row per series and business day, 25 `;` columns, latin-1.
 */
import { Effect, type Schema, SchemaParser } from "effect"
import {
  cmfRow,
  DateYmd,
  fastRow,
  isoFromYmd,
  NullableDecimal,
  NullableFactor,
  NullableWholeNumber,
  PositiveDecimal,
  Code,
  Name,
  toNullableBoolean,
  toNullableNumber,
  toNumber,
  WholeNumber,
  YesNo
} from "../../cmf/CmfCells.ts"
import { type CmfFileInvalid, cmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import { type CmfTable, isBareSinInformacion, readCmfTable, startsWithHeader } from "../../cmf/CmfTable.ts"
import type { DataSetSource } from "../DataSet.ts"
import { repairMojibake } from "../../cmf/Mojibake.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"

/**
 * One row of the daily cartola: one series of one fund on one date.
 * Amounts are in the fund's currency; the cost columns are daily amounts, not rates.
 */
export interface CartolaRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** RUN_ADM: administrator RUT without check digit. */
  readonly agfRut: number
  /** NOM_ADM, mojibake repaired. */
  readonly agfName: string
  /** RUN_FM: fund RUN without check digit. */
  readonly run: number
  /** FECHA_INF as YYYY-MM-DD. */
  readonly date: string
  readonly serie: string
  /** MONEDA, raw: "$$" | "PROM" | "EUR" | ... */
  readonly currencyCode: string
  /** ACTIVO_TOT (fund level, repeated on each series row). */
  readonly totalAssets: number | null
  /** VALOR_CUOTA, always > 0. */
  readonly price: number
  /** PATRIMONIO_NETO of the series. */
  readonly patrimony: number | null
  /** NUM_PARTICIPES. */
  readonly holders: number | null
  /** NUM_PARTICIPES_INST. */
  readonly institutionalHolders: number | null
  /** CUOTAS_EN_CIRCULACION. */
  readonly unitsOutstanding: number | null
  /** CUOTAS_APORTADAS (subscribed that day). */
  readonly unitsSubscribed: number | null
  /** CUOTAS_RESCATADAS (redeemed that day). */
  readonly unitsRedeemed: number | null
  /** FACTOR DE AJUSTE; null when blank (normal days: treat as 1). */
  readonly factorAjuste: number | null
  /** FACTOR DE REPARTO; null when blank. FR = dividend per unit / VALOR_CUOTA + 1. */
  readonly factorReparto: number | null
  /** REM_FIJA: fixed management fee charged that day. */
  readonly fixedFee: number | null
  /** REM_VARIABLE: variable management fee charged that day. */
  readonly variableFee: number | null
  /** GASTOS_AFECTOS: expenses subject to VAT. */
  readonly expensesSubjectToVat: number | null
  /** GASTOS_NO_AFECTOS: expenses exempt from VAT. */
  readonly expensesExemptFromVat: number | null
  /** COMISION_INVERSION: subscription commissions charged that day. */
  readonly subscriptionFee: number | null
  /** COMISION_RESCATE: redemption commissions charged that day. */
  readonly redemptionFee: number | null
  /** INVERSION_EN_FONDOS. */
  readonly investmentInFunds: number | null
  /** PARTICIPES_INST (S/N); null when blank. */
  readonly hasInstitutionalHolders: boolean | null
  /** FONDO_PEN (S/N); null when blank. */
  readonly pensionFund: boolean | null
}

/** The exact cartola header (the last two names contain spaces). */
export const CARTOLA_COLUMNS = [
  "RUN_ADM", "NOM_ADM", "RUN_FM", "FECHA_INF", "ACTIVO_TOT", "MONEDA", "PARTICIPES_INST",
  "INVERSION_EN_FONDOS", "SERIE", "CUOTAS_APORTADAS", "CUOTAS_RESCATADAS", "CUOTAS_EN_CIRCULACION",
  "VALOR_CUOTA", "PATRIMONIO_NETO", "NUM_PARTICIPES", "NUM_PARTICIPES_INST", "FONDO_PEN", "REM_FIJA",
  "REM_VARIABLE", "GASTOS_AFECTOS", "GASTOS_NO_AFECTOS", "COMISION_INVERSION", "COMISION_RESCATE",
  "FACTOR DE AJUSTE", "FACTOR DE REPARTO"
] as const

const cells = [
  WholeNumber, Name, WholeNumber, DateYmd, NullableDecimal, Code, YesNo,
  NullableDecimal, Code, NullableDecimal, NullableDecimal, NullableDecimal,
  PositiveDecimal, NullableDecimal, NullableWholeNumber, NullableWholeNumber, YesNo, NullableDecimal,
  NullableDecimal, NullableDecimal, NullableDecimal, NullableDecimal, NullableDecimal,
  NullableFactor, NullableFactor
] as const

// Filled in place by the parser (line, repaired name) before it is handed out as a CartolaRecord.
type CartolaDraft = { -readonly [K in keyof CartolaRecord]: CartolaRecord[K] }

const toDraft = (c: Schema.Tuple<typeof cells>["Type"]): CartolaDraft => ({
  line: 0,
  agfRut: toNumber(c[0]),
  agfName: c[1],
  run: toNumber(c[2]),
  date: isoFromYmd(c[3]),
  serie: c[8],
  currencyCode: c[5],
  totalAssets: toNullableNumber(c[4]),
  price: toNumber(c[12]),
  patrimony: toNullableNumber(c[13]),
  holders: toNullableNumber(c[14]),
  institutionalHolders: toNullableNumber(c[15]),
  unitsOutstanding: toNullableNumber(c[11]),
  unitsSubscribed: toNullableNumber(c[9]),
  unitsRedeemed: toNullableNumber(c[10]),
  factorAjuste: toNullableNumber(c[23]),
  factorReparto: toNullableNumber(c[24]),
  fixedFee: toNullableNumber(c[17]),
  variableFee: toNullableNumber(c[18]),
  expensesSubjectToVat: toNullableNumber(c[19]),
  expensesExemptFromVat: toNullableNumber(c[20]),
  subscriptionFee: toNullableNumber(c[21]),
  redemptionFee: toNullableNumber(c[22]),
  investmentInFunds: toNullableNumber(c[7]),
  hasInstitutionalHolders: toNullableBoolean(c[6]),
  pensionFund: toNullableBoolean(c[16])
})

const CartolaRow = cmfRow(cells, toDraft)

const table: CmfTable<CartolaDraft> = {
  dataSet: "cartola_diaria",
  columns: CARTOLA_COLUMNS,
  cells,
  decode: SchemaParser.decodeUnknownResult(CartolaRow),
  fast: fastRow(cells, toDraft)
}

/** Record fields compared when a (RUN_FM, SERIE, FECHA_INF) key repeats, with their CMF column. */
const COMPARED: ReadonlyArray<readonly [Exclude<keyof CartolaRecord, "line">, string]> = [
  ["agfRut", "RUN_ADM"], ["agfName", "NOM_ADM"], ["totalAssets", "ACTIVO_TOT"], ["currencyCode", "MONEDA"],
  ["hasInstitutionalHolders", "PARTICIPES_INST"], ["investmentInFunds", "INVERSION_EN_FONDOS"],
  ["unitsSubscribed", "CUOTAS_APORTADAS"], ["unitsRedeemed", "CUOTAS_RESCATADAS"],
  ["unitsOutstanding", "CUOTAS_EN_CIRCULACION"], ["price", "VALOR_CUOTA"], ["patrimony", "PATRIMONIO_NETO"],
  ["holders", "NUM_PARTICIPES"], ["institutionalHolders", "NUM_PARTICIPES_INST"], ["pensionFund", "FONDO_PEN"],
  ["fixedFee", "REM_FIJA"], ["variableFee", "REM_VARIABLE"], ["expensesSubjectToVat", "GASTOS_AFECTOS"],
  ["expensesExemptFromVat", "GASTOS_NO_AFECTOS"], ["subscriptionFee", "COMISION_INVERSION"],
  ["redemptionFee", "COMISION_RESCATE"], ["factorAjuste", "FACTOR DE AJUSTE"], ["factorReparto", "FACTOR DE REPARTO"]
]

export interface CartolaParsed {
  /** Data rows in file order, exact duplicates removed. */
  readonly records: Array<CartolaRecord>
  /** Rows identical to an earlier row of the same RUN_FM, SERIE and FECHA_INF. */
  readonly duplicatesSkipped: number
  /** Text-only lines after the header (notes). */
  readonly footnotesSkipped: number
}

/**
 * The dates a cartola's name says it holds (`ffmm_todos_20261101_20261120.txt`, as the CMF names
 * a download and the collector saves it), YYYY-MM-DD; null for a name without them.
 */
const rangeOfName = (file: string): { readonly from: string; readonly to: string } | null => {
  const m = /ffmm_todos_(\d{4})(\d{2})(\d{2})_(\d{4})(\d{2})(\d{2})(?!\d)/iu.exec(file.split(/[\\/]/).pop() ?? file)
  if (m === null) return null
  const from = `${m[1]}-${m[2]}-${m[3]}`
  const to = `${m[4]}-${m[5]}-${m[6]}`
  return from <= to ? { from, to } : null
}

/**
 * Parses one cartola file. Fails with `CmfFileInvalid` on a missing or wrong header, a wrong column
 * count (including a truncated last line), a bad cell, a row dated outside the dates the file's
 * name gives, or a repeated (RUN_FM, SERIE, FECHA_INF) whose values differ. A body that is only "Sin información" gives zero rows.
 */
export const parseCartola: (
  bytes: Uint8Array,
  file: string
) => Effect.Effect<CartolaParsed, CmfFileInvalid> = Effect.fn("parseCartola")(function* (bytes, file) {
  const names = new Map<string, string>()
  const range = rangeOfName(file)
  const unique = uniqueRows<CartolaDraft>({
    dataSet: "cartola_diaria",
    file,
    keyOf: (r) => `${r.run}|${r.serie}|${r.date}`,
    describe: (r) => `RUN_FM ${r.run} SERIE ${r.serie} FECHA_INF ${r.date.replaceAll("-", "")}`,
    compared: COMPARED,
  })

  const onRow = (record: CartolaDraft, line: number): CmfFileInvalid | undefined => {
    if (range !== null && (record.date < range.from || record.date > range.to)) {
      return cmfFileInvalid({
        dataSet: "cartola_diaria",
        file,
        line,
        field: "FECHA_INF",
        detail: `${record.date.replaceAll("-", "")} is outside the dates the file's name gives (${range.from} to ${range.to})`
      })
    }
    let agfName = names.get(record.agfName)
    if (agfName === undefined) {
      agfName = repairMojibake(record.agfName)
      names.set(record.agfName, agfName)
    }
    record.agfName = agfName
    return unique.onRow(record, line)
  }

  const { footnotesSkipped } = yield* readCmfTable(table, bytes, file, onRow)
  return { records: unique.records, duplicatesSkipped: unique.duplicatesSkipped(), footnotesSkipped }
})

const CARTOLA_NAME = /ffmm_todos_(\d{8})_(\d{8})/

/**
 * The cartola as a data set: recognised by its header (a bare "Sin información" answer counts as an
 * empty range); a range is keyed by its first day, so a later, longer fetch of a month replaces the
 * shorter one.
 */
export const CartolaSource: DataSetSource<CartolaRecord> = {
  name: "cartola_diaria",
  detect: (bytes) => startsWithHeader(bytes, CARTOLA_COLUMNS) || isBareSinInformacion(bytes),
  parse: (bytes, file) =>
    Effect.map(parseCartola(bytes, file), (p) => ({
      records: p.records,
      repairs: { duplicate_rows: p.duplicatesSkipped, footnote_rows: p.footnotesSkipped },
    })),
  key: (name, _bytes, sha) => {
    const m = CARTOLA_NAME.exec(name)
    return m === null ? sha : `from_${m[1]}`
  },
}
