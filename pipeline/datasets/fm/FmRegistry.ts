/**
 * The FM registry (`fm_ident2.php`): one row per mutual fund, 11 `;` columns, latin-1, dates
 * DD/MM/YYYY. CMF repeats each fund 2–3 times; the repeats are dropped here.
 */
import { Effect, SchemaParser } from "effect"
import {
  AnyText,
  cmfRow,
  isoFromDmy,
  NullableDateDmy,
  NullableFundType,
  Code,
  Name,
  toNullableNumber,
  toNumber,
  WholeNumber
} from "../../cmf/CmfCells.ts"
import type { CmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import { type CmfTable, readCmfTable, startsWithHeader } from "../../cmf/CmfTable.ts"
import type { DataSetSource } from "../DataSet.ts"
import { repairMojibake } from "../../cmf/Mojibake.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"

/** One fund of the FM registry (`fm_ident2.php`), deduplicated by RUN. */
export interface FmRegistryRecord {
  /** 1-based line in the file of the first occurrence. */
  readonly line: number
  /** Administrator RUT without check digit. */
  readonly agfRut: number
  readonly agfName: string
  /** Fund RUN without check digit. */
  readonly run: number
  readonly fundName: string
  readonly shortName: string
  /** CMF fund type 1–8 ("Tipo de Fondo Mutuo"); null when blank. */
  readonly fundType: number | null
  /** Fecha Inicio Operaciones, YYYY-MM-DD. */
  readonly startDate: string | null
  /** Fecha Término Operaciones, YYYY-MM-DD; null while the fund is active. */
  readonly endDate: string | null
  /** Raw CMF code: "$$" (CLP), "PROM" (USD), "EUR", ... */
  readonly currencyCode: string
}

/** The exact registry header. */
export const FM_REGISTRY_COLUMNS = [
  "RUT Administradora", "Raz. Social Administradora", "RUN Fondo", "Nombre Fondo", "Nombre Corto",
  "Fecha Res. Aprobación del RI", "Nro. Res. Aprobación del RI", "Tipo de Fondo Mutuo",
  "Fecha Inicio Operaciones", "Fecha Término Operaciones", "Moneda"
] as const

const cells = [
  WholeNumber, Name, WholeNumber, Name, AnyText, NullableDateDmy, AnyText, NullableFundType,
  NullableDateDmy, NullableDateDmy, Code
] as const

// The parser sets `line` in place before handing it out as an FmRegistryRecord.
type FmRegistryDraft = { -readonly [K in keyof FmRegistryRecord]: FmRegistryRecord[K] }

const FmRegistryRow = cmfRow(cells, (c): FmRegistryDraft => ({
  line: 0,
  agfRut: toNumber(c[0]),
  agfName: repairMojibake(c[1]),
  run: toNumber(c[2]),
  fundName: repairMojibake(c[3]),
  shortName: repairMojibake(c[4]),
  fundType: toNullableNumber(c[7]),
  startDate: isoFromDmy(c[8]),
  endDate: isoFromDmy(c[9]),
  currencyCode: c[10]
}))

const table: CmfTable<FmRegistryDraft> = {
  dataSet: "fm_registry",
  columns: FM_REGISTRY_COLUMNS,
  cells,
  decode: SchemaParser.decodeUnknownResult(FmRegistryRow)
}

// The RI resolution columns are validated but not kept, so they do not take part in the comparison.
const COMPARED: ReadonlyArray<readonly [Exclude<keyof FmRegistryRecord, "line">, string]> = [
  ["agfRut", "RUT Administradora"], ["agfName", "Raz. Social Administradora"], ["fundName", "Nombre Fondo"],
  ["shortName", "Nombre Corto"], ["fundType", "Tipo de Fondo Mutuo"], ["startDate", "Fecha Inicio Operaciones"],
  ["endDate", "Fecha Término Operaciones"], ["currencyCode", "Moneda"]
]

export interface FmRegistryParsed {
  /** One record per RUN, at its first line, in file order. */
  readonly records: Array<FmRegistryRecord>
  /** Repeats of a RUN identical to its first row. */
  readonly duplicatesSkipped: number
  /** Text-only lines after the header (notes). */
  readonly footnotesSkipped: number
}

/**
 * Parses the registry file. Fails with `CmfFileInvalid` on a missing or wrong header, a wrong
 * column count, a bad cell, or a RUN repeated with different values (the message names both lines).
 */
export const parseFmRegistry: (
  bytes: Uint8Array,
  file: string
) => Effect.Effect<FmRegistryParsed, CmfFileInvalid> = Effect.fn("parseFmRegistry")(function* (bytes, file) {
  const unique = uniqueRows<FmRegistryDraft>({
    dataSet: "fm_registry",
    file,
    keyOf: (r) => `RUN ${r.run}`,
    compared: COMPARED,
  })
  const onRow = unique.onRow
  const { footnotesSkipped } = yield* readCmfTable(table, bytes, file, onRow)
  return { records: unique.records, duplicatesSkipped: unique.duplicatesSkipped(), footnotesSkipped }
})

/** The registry as a data set: recognised by its header; one key, so the newest file replaces the older. */
export const FmRegistrySource: DataSetSource<FmRegistryRecord> = {
  name: "fm_registry",
  detect: (bytes) => startsWithHeader(bytes, FM_REGISTRY_COLUMNS),
  parse: (bytes, file) =>
    Effect.map(parseFmRegistry(bytes, file), (p) => ({
      records: p.records,
      repairs: { repeated_rows: p.duplicatesSkipped, footnote_rows: p.footnotesSkipped },
    })),
  key: () => "fm_ident2",
}
