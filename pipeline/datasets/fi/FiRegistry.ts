/**
 * The CMF lists of investment funds (`consulta.php?mercado=V&entidad=FIRES|FINRE&Estado=VI|NV`): an
 * HTML table `R.U.T. | Entidad | Administradora [| Estado]`. Which of the four lists a page is,
 * only its URL says; a saved page says it in its title/heading ("Fondos de Inversión Rescatables -
 * Vigentes"), or else in its rows' links (`tipoentidad=FIRES…&vig=VI`).
 */
import { Effect, Schema } from "effect"
import type { DataSetSource } from "../DataSet.ts"
import type { CmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import { AnyText, nullableText, RutCell, Text } from "../../cmf/CmfHtmlCells.ts"
import {
  type HtmlPage,
  type HtmlRow,
  type HtmlTableSpec,
  pageProblem,
  readHtmlHead,
  readHtmlPageOf,
  readHtmlTable,
  tableProblem,
  tableStartingWith
} from "../../cmf/CmfHtmlTable.ts"
import { readRut } from "../../cmf/CmfRut.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"

/* One investment fund (FI/ETF) of a CMF list page (`consulta.php?entidad=FIRES|FINRE&Estado=VI|NV`). */

/** CMF register of the fund: FIRES = rescatable (redeemable), FINRE = no rescatable. */
export const FiRegulatoryType = Schema.Literals(["FIRES", "FINRE"]).annotate({
  description: "CMF register of an investment fund: FIRES (rescatable) or FINRE (no rescatable)"
})
export type FiRegulatoryType = typeof FiRegulatoryType.Type

/** Which list the row came from: `Estado=VI` (vigentes) is active, `Estado=NV` inactive. */
export const FiListStatus = Schema.Literals(["active", "inactive"]).annotate({
  description: "active when listed as vigente (VI), inactive when listed as no vigente (NV)"
})
export type FiListStatus = typeof FiListStatus.Type

export interface FiRegistryRecord {
  /** Row of the list table (1 = its header row). */
  readonly line: number
  /** Fund RUN without check digit (the check digit was verified). */
  readonly run: number
  /** Fund name ("Entidad"), mojibake repaired. */
  readonly name: string
  /** Administrator name as the list writes it (no RUT on these pages). */
  readonly agfName: string
  readonly regulatoryType: FiRegulatoryType
  /**
   * From the list, not the row: a RUN can be on both the VI and the NV list of the same type (real
   * RUN 9251); deciding which wins is staging's job.
   */
  readonly status: FiListStatus
  /** The row's own state cell ("Estado") on pages that have one, as written; null otherwise. */
  readonly stateText: string | null
}

const COLUMNS = [["R.U.T.", RutCell], ["Entidad", Text], ["Administradora", Text]] as const
const spec3: HtmlTableSpec = { dataSet: "fi_registry", label: "the funds table", columns: COLUMNS }
const spec4: HtmlTableSpec = { ...spec3, columns: [...COLUMNS, ["Estado", AnyText]] }

export interface FiListIdentity {
  readonly entidad: FiRegulatoryType
  readonly estado: "VI" | "NV"
}

const LIST_TITLE = /Fondos de Inversi[oó]n\s+(No\s+)?Rescatables?\s*[-–:|]?\s*(No\s+)?Vigentes?\b/i

/** Which list the page is: from its heading, else from its rows' links when they all agree. */
export const listIdentity = (page: HtmlPage, rows: ReadonlyArray<HtmlRow>): FiListIdentity | undefined => {
  const m = LIST_TITLE.exec(page.heading)
  if (m !== null) return { entidad: m[1] === undefined ? "FIRES" : "FINRE", estado: m[2] === undefined ? "VI" : "NV" }
  const seen = new Set(
    rows.flatMap((r) => r.links).flatMap((href) => {
      const t = /tipoentidad=(FIRES|FINRE)\b/i.exec(href)?.[1]
      const v = /[?&]vig=(VI|NV)\b/i.exec(href)?.[1]
      return t === undefined || v === undefined ? [] : [`${t.toUpperCase()}-${v.toUpperCase()}`]
    })
  )
  const [only] = seen
  if (seen.size !== 1 || only === undefined) return undefined
  const [entidad, estado] = only.split("-") as [FiRegulatoryType, "VI" | "NV"]
  return { entidad, estado }
}

const fundsTable = (page: HtmlPage) => tableStartingWith(page, "R.U.T.")

/** The list's identity from the head of the page (its heading, or the links of its first rows). */
const identityOf = (bytes: Uint8Array): FiListIdentity | undefined => {
  const head = readHtmlHead(bytes, /R\.U\.T\./, 3)
  const rows = head === undefined ? undefined : fundsTable(head)
  return head === undefined || rows === undefined ? undefined : listIdentity(head, rows)
}

const parse = Effect.fn("FiRegistry.parse")(function* (bytes: Uint8Array, file: string) {
  const page = yield* readHtmlPageOf("fi_registry", file, bytes)
  const rows = fundsTable(page)
  if (rows === undefined) return yield* pageProblem("fi_registry", file, "R.U.T.", 'no table whose first header is "R.U.T."')
  const identity = listIdentity(page, rows)
  if (identity === undefined) {
    return yield* pageProblem(
      "fi_registry",
      file,
      "list",
      'cannot tell which list this is: no title like "Fondos de Inversión Rescatables - Vigentes" and no tipoentidad/vig links'
    )
  }
  const spec = (rows[0]?.cells.length ?? 0) === 4 ? spec4 : spec3
  const status: FiListStatus = identity.estado === "VI" ? "active" : "inactive"
  const unique = uniqueRows<FiRegistryRecord>({
    dataSet: "fi_registry",
    file,
    keyOf: (r) => `RUN ${r.run}`,
    compared: [["name", "Entidad"], ["agfName", "Administradora"], ["stateText", "Estado"]],
    // As `tableProblem` places a cell.
    where: (row, column) => `line ${row} field ${column}: row ${row} of ${spec.label} (row 1 = its header)`
  })

  const onRow = (cells: ReadonlyArray<string>, line: number): CmfFileInvalid | undefined => {
    const rut = readRut(cells[0]!)!
    if (!rut.valid) return tableProblem(spec, file, line, "R.U.T.", `wrong check digit in "${cells[0]}"`)
    return unique.onRow(
      {
        line,
        run: rut.body,
        name: cells[1]!,
        agfName: cells[2]!,
        regulatoryType: identity.entidad,
        status,
        stateText: cells[3] === undefined ? null : nullableText(cells[3])
      },
      line
    )
  }

  const read = yield* readHtmlTable(spec, rows, file, onRow)
  return {
    records: unique.records,
    repairs: { duplicatesSkipped: unique.duplicatesSkipped(), noteRows: read.noteRows, sinInformacionRows: read.sinInformacionRows, mojibakeRepaired: page.mojibakeRepaired }
  }
})

/** The supersession key of a list page: `FIRES-VI`, `FIRES-NV`, `FINRE-VI` or `FINRE-NV`. */
const key = (_name: string, bytes: Uint8Array, sha256: string): string => {
  const identity = identityOf(bytes)
  return identity === undefined ? `unknown-${sha256}` : `${identity.entidad}-${identity.estado}`
}

/** Data set 5: the four CMF lists of investment funds. */
export const FiRegistrySource: DataSetSource<FiRegistryRecord> = {
  name: "fi_registry",
  detect: (bytes) => identityOf(bytes) !== undefined,
  parse,
  key
}
