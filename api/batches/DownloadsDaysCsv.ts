/**
 * Every series' daily values of one batch as gzip-compressed CSV, streamed in bounded memory.
 * One header line, then one line per series per date: mutual fund series (the `quotas` table)
 * first, then FI/ETF series (their CMF book values in `fi_prices`), each ascending by the API's id
 * and date, as the tables' primary keys keep them; with `from`, only the dates on or after it:
 *
 *   id,date,price,total_net_assets,shareholders
 *   fm-123456789,2026-11-20,1234.5678,98765432.1,4321
 *   fi-0b6f0c4e-6a43-5b8e-9d5c-3f1d2f7c9a10,2026-11-20,10250.0,5250000000.0,12
 *
 * The `id` is the series' API id behind its id domain's prefix (`fm-` decimal, `fi-` UUID;
 * seriesCsvId): every value of the column is text, so a reader's type detection never takes it for
 * a number, whichever rows it samples (DuckDB types a column from its first 20,480 rows and failed
 * at the first UUID; pandas types each chunk apart). For the same reason `price` and
 * `total_net_assets` always carry a decimal point (`10250.0`): an integral value in a sample is
 * never typed an integer that a later `10250.5` is rounded into. Dates are ISO, decimals are the
 * values /days gives (`.`), an empty field is a missing value. The rows are read on a read-only connection of the export's own with a
 * prepared statement's iterator: it is paused between chunks for as long as the client takes (a
 * shared connection could run no other statement meanwhile), and closed when the stream ends, fails
 * or is dropped. Memory is one chunk of text and zlib's buffers, whatever the batch's size.
 */
import { pipeline, Readable } from "node:stream"
import { createGzip, type Gzip } from "node:zlib"
import Database from "better-sqlite3"
import { intToDate } from "../../schemas/Dates.ts"

export const DAYS_CSV_HEADER = "id,date,price,total_net_assets,shareholders\n"

/** The CSV exports' id of a series: `fm-<decimal id>` (mutual funds) or `fi-<UUID>` (FI and ETF). */
export const seriesCsvId = (id: number | string): string => (typeof id === "number" ? `fm-${id}` : `fi-${id}`)

/** A decimal as JSON writes it, with a decimal point even when it is integral (`1000.0`). */
export const csvDecimal = (n: number): string => {
  const text = String(n)
  // 1e+21 and up are written with an exponent already
  return Number.isInteger(n) && !text.includes("e") ? `${text}.0` : text
}

type Row = [id: number | string, date: number, price: number, patrimony: number | null, holders: number | null]

const PARTS = [
  "SELECT asset_id, date, price, patrimony, holders FROM quotas WHERE date >= ? ORDER BY asset_id, date",
  "SELECT serie_id, date, book_value, patrimony, holders FROM fi_prices WHERE date >= ? ORDER BY serie_id, date",
]

/** About this much CSV text goes to zlib at a time. */
const CHUNK_CHARS = 64 * 1024

const line = (r: Row): string =>
  `${seriesCsvId(r[0])},${intToDate(r[1])},${csvDecimal(r[2])},${r[3] === null ? "" : csvDecimal(r[3])},${r[4] ?? ""}\n`

/** The CSV text of a snapshot's daily values, pulled chunk by chunk (the consumer's pace). */
class DaysCsvRows extends Readable {
  private readonly db: Database.Database
  private rows: Iterator<Row> | null = null
  private part = 0
  private headed = false
  private readonly from: number

  /** `from`: the first date (YYYYMMDD) exported; 0 for all. */
  constructor(path: string, from: number) {
    super({ highWaterMark: CHUNK_CHARS })
    this.db = new Database(path, { readonly: true, fileMustExist: true })
    this.from = from
  }

  override _read(): void {
    try {
      let chunk = this.headed ? "" : DAYS_CSV_HEADER
      this.headed = true
      while (chunk.length < CHUNK_CHARS) {
        if (this.rows === null) {
          const sql = PARTS[this.part]
          if (sql === undefined) {
            if (chunk !== "") this.push(chunk)
            this.push(null)
            return
          }
          this.rows = this.db.prepare(sql).raw(true).iterate(this.from) as Iterator<Row>
        }
        const next = this.rows.next()
        if (next.done === true) {
          this.rows = null
          this.part++
          continue
        }
        chunk += line(next.value)
      }
      this.push(chunk)
    } catch (e) {
      this.destroy(e as Error)
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    let failure = error
    try {
      this.rows?.return?.()
      this.rows = null
      if (this.db.open) this.db.close()
    } catch (e) {
      failure ??= e as Error
    }
    callback(failure)
  }
}

export interface DaysCsvExport {
  /** The gzip stream to send. */
  readonly body: Gzip
  /** Ends the export and closes its connection (idempotent); the stream's own end does the same. */
  readonly close: () => void
}

/** Opens the export of the snapshot file at `path` from date `from` (YYYYMMDD; 0 for all); throws when the file cannot be opened. */
export const openDaysCsv = (path: string, from = 0): DaysCsvExport => {
  const rows = new DaysCsvRows(path, from)
  // level 4: 1.5 % larger than the default 6 on this CSV, in half the time
  const body = createGzip({ level: 4 })
  // an error or a premature close on either side destroys both (and so closes the connection)
  pipeline(rows, body, () => {})
  return { body, close: () => rows.destroy() }
}
