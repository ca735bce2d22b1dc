/**
 * A batch's Parquet files, written from its finished snapshot into the folder beside it
 * (ParquetFiles.ts), for readers that fetch a column or a row group over HTTP ranges (hyparquet,
 * DuckDB's httpfs, pyarrow) instead of the whole SQLite file:
 *
 * - `days-<YYYY>.parquet`: the mutual fund series' daily values of that year (quotas), sorted by
 *   asset_id then date: asset_id INT64, date DATE, price DOUBLE, total_net_assets DOUBLE,
 *   shareholders INT64 (the last two null when CMF gave none). Row groups of ROW_GROUP_ROWS rows
 *   with min/max statistics, so a reader finds one series' group from the footer.
 * - `series.parquet`: the catalog, as series.csv's mutual fund lines: asset_id, run (with check
 *   digit), fund, series, administrator, currency, first_date, last_date.
 * - `returns.parquet`: returns_latest, one row per series, valuation, basis and window.
 * - `tac.parquet`: the monthly TAC history (tac; tac_fixed, tac_variable, tac_expenses when split).
 * - `holdings.parquet`: the monthly mutual fund portfolios (fm_holdings).
 * - `fi_series.parquet`: the investment funds' and ETFs' series (fi_series) with their instrument
 *   (fi_instruments): serie_id, instrument_id, run (with check digit, as the FI routes show it),
 *   serie, currency, name, administrator, regulatory_type, is_etf BOOLEAN, ticker; by serie_id.
 * - `fi_values.parquet`: their CMF daily values (fi_prices), sorted by serie_id then date:
 *   serie_id, date DATE, book_value, economic_value, patrimony, total_assets, holders,
 *   institutional_holders (all but the book value null when CMF gave none). Row groups of
 *   ROW_GROUP_ROWS rows: a reader finds one series' group from the footer's serie_id min/max.
 * - `fi_holdings.parquet`: their quarterly portfolios (fi_holdings), sorted by run, period, market,
 *   position: the table's columns, the instrument's fields the portfolio and holders routes read
 *   out of `body` (nemotecnico, isin, issuer_rut without check digit, issuer_name, issuer_country,
 *   maturity_date), and `body` itself, the whole JSON of the reported record.
 *
 * Every file is written whatever its rows: a table with none (a batch without its FI part, whose
 * FI tables are empty) gives a file with the schema and zero rows, as an empty tac or holdings
 * table always has; a snapshot without an FI table at all is read as one without rows.
 *
 * One pass over quotas feeds every year's file at once. The files are written into a temporary
 * folder, each fsynced, and the folder renamed into place: a folder under the batch's name is
 * whole. A batch that has its folder keeps it (its release may list those bytes already).
 */
import { existsSync, mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { currencyOf } from "../../schemas/FundClass.ts"
import { formatRun } from "../../schemas/Ids.ts"
import { fsyncPath, renameDurably } from "../Files.ts"
import { parquetDir } from "./ParquetFiles.ts"
import { type ParquetColumn, ParquetTable } from "./ParquetTable.ts"

const col = (name: string, kind: ParquetColumn["kind"], nullable = true): ParquetColumn => ({ name, kind, nullable })
const split = (c: ParquetColumn): ParquetColumn => ({ ...c, encoding: "BYTE_STREAM_SPLIT" })

/** The days-<YYYY> files' columns. */
const DAYS: ParquetColumn[] = [
  col("asset_id", "int64", false),
  col("date", "date", false),
  split(col("price", "double", false)),
  split(col("total_net_assets", "double")),
  col("shareholders", "int64"),
]

/** The other files: their columns, and the query giving them in that order, sorted. */
const TABLES: ReadonlyArray<{
  readonly file: string
  readonly columns: ParquetColumn[]
  readonly sql: string
  readonly map?: (row: unknown[]) => unknown[]
  /** The table read, when a snapshot may lack it (the FI tables): no table, no rows. */
  readonly table?: string
}> = [
  {
    file: "series.parquet",
    columns: [
      col("asset_id", "int64", false),
      col("run", "string", false),
      col("fund", "string"),
      col("series", "string", false),
      col("administrator", "string"),
      col("currency", "string"),
      col("first_date", "date", false),
      col("last_date", "date", false),
    ],
    sql: `SELECT s.asset_id, s.run, f.name, s.serie, a.name, s.currency, s.first_date, s.last_date
      FROM series s LEFT JOIN funds f ON f.concept_id = s.concept_id LEFT JOIN administrators a ON a.provider_id = f.provider_id
      ORDER BY s.asset_id`,
    map: (r) => [r[0], formatRun(r[1] as number), r[2], r[3], r[4], currencyOf(r[5] as string | null), r[6], r[7]],
  },
  {
    file: "returns.parquet",
    columns: [
      col("asset_id", "int64", false),
      col("valuation", "string", false),
      col("return_basis", "string", false),
      col("period", "string", false),
      col("as_of_date", "date"),
      col("value", "double"),
      col("reason", "string"),
      col("target_start_date", "date"),
      col("target_end_date", "date"),
      col("effective_start_date", "date"),
      col("effective_end_date", "date"),
      col("start_price", "double"),
      col("end_price", "double"),
      col("distribution_multiplier", "double"),
      col("exchange_multiplier", "double"),
    ],
    sql: `SELECT asset_id, valuation, return_basis, period, as_of_date, value, reason, target_start_date, target_end_date,
        effective_start_date, effective_end_date, start_price, end_price, distribution_multiplier, exchange_multiplier
      FROM returns_latest ORDER BY asset_id, valuation, return_basis, period`,
  },
  {
    file: "tac.parquet",
    columns: [
      col("asset_id", "int64", false),
      col("month", "string", false),
      col("tac", "double", false),
      col("tac_fixed", "double"),
      col("tac_variable", "double"),
      col("tac_expenses", "double"),
    ],
    sql: "SELECT asset_id, month, tac, tac_fixed, tac_variable, tac_expenses FROM tac ORDER BY asset_id, month",
  },
  {
    file: "holdings.parquet",
    columns: [
      col("run", "string", false),
      col("month", "string", false),
      col("market", "string", false),
      col("position", "int32", false),
      col("instrument_code", "string", false),
      col("issuer_rut", "int64"),
      col("issuer_name", "string"),
      col("issuer_country", "string"),
      col("instrument_type", "string", false),
      col("maturity_date", "string"),
      col("valuation_thousands", "double", false),
      col("pct_fund_assets", "double", false),
    ],
    sql: `SELECT run, month, market, position, instrument_code, issuer_rut, issuer_name, issuer_country, instrument_type,
        maturity_date, valuation_thousands, pct_fund_assets FROM fm_holdings ORDER BY run, month, market, position`,
    map: (r) => [formatRun(r[0] as number), ...r.slice(1)],
  },
  {
    file: "fi_series.parquet",
    table: "fi_series",
    columns: [
      col("serie_id", "string", false),
      col("instrument_id", "string", false),
      col("run", "string", false),
      col("serie", "string", false),
      col("currency", "string"),
      col("name", "string"),
      col("administrator", "string"),
      col("regulatory_type", "string"),
      col("is_etf", "boolean"),
      col("ticker", "string"),
    ],
    sql: `SELECT s.serie_id, s.instrument_id, s.run, s.serie, s.currency, i.name, i.agf_name, i.regulatory_type, i.is_etf, i.ticker
      FROM fi_series s LEFT JOIN fi_instruments i ON i.instrument_id = s.instrument_id ORDER BY s.serie_id`,
    map: (r) => [r[0], r[1], formatRun(r[2] as number), ...r.slice(3)],
  },
  {
    file: "fi_values.parquet",
    table: "fi_prices",
    columns: [
      col("serie_id", "string", false),
      col("date", "date", false),
      split(col("book_value", "double", false)),
      split(col("economic_value", "double")),
      split(col("patrimony", "double")),
      split(col("total_assets", "double")),
      col("holders", "int64"),
      col("institutional_holders", "int64"),
    ],
    sql: `SELECT serie_id, date, book_value, economic_value, patrimony, total_assets, holders, institutional_holders
      FROM fi_prices ORDER BY serie_id, date`,
  },
  {
    file: "fi_holdings.parquet",
    table: "fi_holdings",
    columns: [
      col("run", "string", false),
      col("period", "string", false),
      col("market", "string", false),
      col("position", "int32", false),
      col("instrument_type", "string", false),
      col("valuation_thousands", "double", false),
      col("pct_fund_assets", "double"),
      col("nemotecnico", "string"),
      col("isin", "string"),
      col("issuer_rut", "int64"),
      col("issuer_name", "string"),
      col("issuer_country", "string"),
      col("maturity_date", "string"),
      col("body", "string", false),
    ],
    // the broken-out fields are the JSON keys api/fi/FiHolding.ts and api/holders/Holders.ts read
    sql: `SELECT run, period, market, position, instrument_type, valuation_thousands, pct_fund_assets,
        json_extract(body, '$.nemotecnico'), json_extract(body, '$.isin'), json_extract(body, '$.issuerRut'),
        json_extract(body, '$.issuerName'), json_extract(body, '$.issuerCountry'), json_extract(body, '$.maturityDate'), body
      FROM fi_holdings ORDER BY run, period, market, position`,
    map: (r) => [formatRun(r[0] as number), ...r.slice(1)],
  },
]

/** What was written: each file and its rows. */
export type ParquetWritten = ReadonlyArray<{ readonly file: string; readonly rows: number }>

/**
 * The days-<YYYY> files of the snapshot open in `db`, written into `out` in one pass over quotas
 * (every year's file at once), each with the key-value metadata `meta`. Not fsynced: the caller
 * does. Returns the files written, by year (also used by test/bench/parquetWriters.ts).
 */
export const writeDaysFiles = (db: Database.Database, out: string, meta: ReadonlyArray<{ key: string; value: string }>): ParquetWritten => {
  const years = new Map<number, ParquetTable>()
  for (const row of db.prepare("SELECT asset_id, date, price, patrimony, holders FROM quotas ORDER BY asset_id, date").raw(true).iterate()) {
    const year = Math.floor(((row as unknown[])[1] as number) / 10000)
    let table = years.get(year)
    if (table === undefined) {
      table = new ParquetTable(join(out, `days-${year}.parquet`), DAYS, meta)
      years.set(year, table)
    }
    table.add(row as unknown[])
  }
  const written: Array<{ file: string; rows: number }> = []
  for (const [year, table] of [...years].sort(([a], [b]) => a - b)) {
    table.finish()
    written.push({ file: `days-${year}.parquet`, rows: table.total })
  }
  return written
}

/**
 * Writes the Parquet files of `batchId` (its snapshot `<batchId>.sqlite` in `snapshotsDir`) into
 * their folder; nothing when the folder is there. Returns the files written (empty when kept).
 */
export const writeParquet = (snapshotsDir: string, batchId: string): ParquetWritten => {
  const dir = parquetDir(snapshotsDir, batchId)
  if (existsSync(dir)) return []
  const temp = `${dir}.${process.pid}.tmp`
  rmSync(temp, { recursive: true, force: true })
  mkdirSync(temp)
  const meta = [{ key: "fds.batch_id", value: batchId }]
  const db = new Database(join(snapshotsDir, `${batchId}.sqlite`), { readonly: true, fileMustExist: true })
  try {
    const written = [...writeDaysFiles(db, temp, meta)]
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
    for (const t of TABLES) {
      const table = new ParquetTable(join(temp, t.file), t.columns, meta)
      if (t.table === undefined || hasTable.get(t.table) !== undefined) {
        for (const row of db.prepare(t.sql).raw(true).iterate()) table.add(t.map === undefined ? (row as unknown[]) : t.map(row as unknown[]))
      }
      table.finish()
      written.push({ file: t.file, rows: table.total })
    }
    for (const { file } of written) fsyncPath(join(temp, file))
    renameDurably(temp, dir)
    return written
  } catch (e) {
    rmSync(temp, { recursive: true, force: true })
    throw e
  } finally {
    db.close()
  }
}
