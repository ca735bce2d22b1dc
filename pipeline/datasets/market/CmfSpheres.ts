/**
 * CMF comparator spheres (our assumed format: CMF publishes no file): `;` text, latin-1,
 * `RUN;SERIE;FAMILIA;TIPO_INVERSIONISTA;ESFERAS;FECHA`, one row per series; ESFERAS 1–5 or blank
 * (CMF shows none), FAMILIA and TIPO_INVERSIONISTA the official labels (non-empty), FECHA `YYYY-MM-DD`.
 */
import { Effect, SchemaParser } from "effect"
import { cmfRow, Text, toNullableNumber, toNumber, WholeNumber } from "../../cmf/CmfCells.ts"
import { startsWithHeader } from "../../cmf/CmfHeaderLine.ts"
import { type CmfTable, readCmfTable } from "../../cmf/CmfTable.ts"
import type { DataSetSource } from "../DataSet.ts"
import { DateIso, NullableSpheres } from "./MarketCells.ts"
import { repairMojibake } from "../../cmf/Mojibake.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"
import type { CmfSpheresTable } from "../../../snapshots/tables/Market.ts"
import { coreOf, knownSeriesId, type StageContext } from "../StageContext.ts"

/* Parsed CMF comparator "esferas" (data set `cmf_spheres`): the official 1–5 rating of a series within its group. */

/** One series as the CMF fund comparator shows it on `date`. */
export interface CmfSpheresRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** Fund RUN without check digit. */
  readonly run: number
  readonly serie: string
  /** Official comparison family (FAMILIA), mojibake repaired, never empty. */
  readonly family: string
  /** Official investor type (TIPO_INVERSIONISTA), mojibake repaired, never empty. */
  readonly investorType: string
  /** 1–5; null when CMF shows no spheres for the series (not rated). */
  readonly spheres: number | null
  /** FECHA: the comparator's cutoff, YYYY-MM-DD. */
  readonly date: string
}

export const CMF_SPHERES_COLUMNS = ["RUN", "SERIE", "FAMILIA", "TIPO_INVERSIONISTA", "ESFERAS", "FECHA"] as const

const cells = [WholeNumber, Text, Text, Text, NullableSpheres, DateIso] as const

type Draft = { -readonly [K in keyof CmfSpheresRecord]: CmfSpheresRecord[K] }

const Row = cmfRow(cells, (c): Draft => ({
  line: 0,
  run: toNumber(c[0]),
  serie: c[1],
  family: repairMojibake(c[2]),
  investorType: repairMojibake(c[3]),
  spheres: toNullableNumber(c[4]),
  date: c[5]
}))

const table: CmfTable<Draft> = {
  dataSet: "cmf_spheres",
  columns: CMF_SPHERES_COLUMNS,
  cells,
  decode: SchemaParser.decodeUnknownResult(Row)
}

/** One row per (RUN, SERIE): identical repeats are skipped and counted, differing ones rejected. */
const parse = Effect.fn("CmfSpheres.parse")(function* (bytes: Uint8Array, file: string) {
  const rows = uniqueRows<CmfSpheresRecord>({
    dataSet: "cmf_spheres",
    file,
    keyOf: (r) => `RUN ${r.run} SERIE ${r.serie}`,
    compared: [
      ["family", "FAMILIA"], ["investorType", "TIPO_INVERSIONISTA"], ["spheres", "ESFERAS"], ["date", "FECHA"]
    ]
  })
  const { footnotesSkipped } = yield* readCmfTable(table, bytes, file, rows.onRow)
  return { records: rows.records, repairs: { duplicatesSkipped: rows.duplicatesSkipped(), footnotesSkipped } }
})

/** CMF spheres of every rated series; one key: the newest file replaces the older ones. */
export const CmfSpheresSource: DataSetSource<CmfSpheresRecord> = {
  name: "cmf_spheres",
  detect: (bytes) => startsWithHeader(bytes, CMF_SPHERES_COLUMNS),
  parse,
  key: () => "cmf_spheres"
}

export const stageSpheres = (
  records: ReadonlyArray<CmfSpheresRecord>,
  known: ReadonlySet<number>,
  aliasOf: ReadonlyMap<number, number>,
) => {
  const rows = new Map<number, CmfSpheresTable>()
  let unknown = 0
  for (const r of records) {
    const id = knownSeriesId(r.run, r.serie, known, aliasOf)
    if (id === null) {
      unknown++
      continue
    }
    rows.set(id, { asset_id: id, family: r.family, investor_type: r.investorType, spheres: r.spheres, as_of: r.date })
  }
  return { rows: [...rows.values()].sort((a, b) => a.asset_id - b.asset_id), repairs: { spheres_unknown_series: unknown } }
}

export const spheresStep = (context: StageContext) =>
  Effect.sync(() => {
    const core = coreOf(context)
    const spheres = stageSpheres(context.records<CmfSpheresRecord>("cmf_spheres"), core.known, core.aliasOf)
    context.put("cmf_spheres", spheres.rows)
    Object.assign(context.repairs, spheres.repairs)
  })
