/**
 * What every raw data set plugs into the pipeline: how to recognise its bytes (never by file
 * name), how to parse them into records, and which supersession key an observation has (a later
 * observation with the same key replaces an earlier one when the ledger is folded into a batch).
 */
import type { Effect } from "effect"
import type { DataSetName } from "../../schemas/CmfRecords.ts"
import type { CmfFileInvalid } from "./CmfFileInvalid.ts"

export interface Parsed<R> {
  readonly records: ReadonlyArray<R>
  /** Normal quirks repaired or skipped (duplicate rows, footnotes, "Sin información" rows, …), counted. */
  readonly repairs: Readonly<Record<string, number>>
}

export interface DataSetSource<R> {
  readonly name: DataSetName
  /** True when the bytes are this data set (a header line, a JSON shape, an HTML table's headers). */
  readonly detect: (bytes: Uint8Array) => boolean
  readonly parse: (bytes: Uint8Array, file: string) => Effect.Effect<Parsed<R>, CmfFileInvalid>
  /**
   * The supersession key: e.g. one key for a registry (the newest replaces the older), the period
   * for monthly files (`2026-10`), the instrument and period for per-fund files. `name` is only a
   * hint (it may be any dropped file's name); prefer what the content says.
   */
  readonly key: (name: string, bytes: Uint8Array, sha256: string) => string
}
