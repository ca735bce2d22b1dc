/**
 * The catalog beside a batch's days.csv.gz: one line per series of the batch, with the `id` the
 * export uses (DownloadsDaysCsv.ts: `fm-<decimal id>`, `fi-<UUID>`), mutual fund series first,
 * then FI/ETF series, each by the API's id, as the export orders them:
 *
 *   id,vehicle,run,fund,series,administrator,currency,first_date,last_date
 *   fm-123456789,mutual_fund,8043-8,FONDO MUTUO EJEMPLO,A,ADMINISTRADORA EJEMPLO S.A.,CLP,2019-01-02,2026-11-20
 *
 * `vehicle` is `mutual_fund`, `investment_fund` or `etf` (the API's vehicles), `run` the fund's RUN
 * with its check digit, `fund` and `administrator` their names, `series` the label, `currency` as
 * the catalog routes give it (FM: CLP, USD, EUR; FI/ETF: the code of CMF's lists), `first_date` and
 * `last_date` the series' first and last daily value in the batch (ISO; empty for a series with
 * none). Text is quoted only when it holds a comma, a quote or a line break (RFC 4180). A few
 * thousand lines: built once per snapshot and kept with it, with its SHA-256.
 */
import { createHash } from "node:crypto"
import { intToDate } from "../../schemas/Dates.ts"
import { currencyOf } from "../../schemas/FundClass.ts"
import { formatRun } from "../../schemas/Ids.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { csvField } from "../catalog/DaysCsv.ts"
import { seriesCsvId } from "./DownloadsDaysCsv.ts"

export const SERIES_CSV_HEADER = "id,vehicle,run,fund,series,administrator,currency,first_date,last_date\n"

type Row = [
  id: number | string,
  run: number,
  fund: string | null,
  serie: string,
  administrator: string | null,
  currency: string | null,
  isEtf: number | null,
  first: number | null,
  last: number | null,
]

const FM = `SELECT s.asset_id, s.run, f.name, s.serie, a.name, s.currency, NULL, s.first_date, s.last_date
  FROM series s LEFT JOIN funds f ON f.concept_id = s.concept_id LEFT JOIN administrators a ON a.provider_id = f.provider_id
  ORDER BY s.asset_id`
// min and max apart: each is one step down the (serie_id, date) key
const FI = `SELECT s.serie_id, s.run, i.name, s.serie, i.agf_name, s.currency, i.is_etf,
    (SELECT min(date) FROM fi_prices p WHERE p.serie_id = s.serie_id), (SELECT max(date) FROM fi_prices p WHERE p.serie_id = s.serie_id)
  FROM fi_series s LEFT JOIN fi_instruments i ON i.instrument_id = s.instrument_id
  ORDER BY s.serie_id`

const text = (value: string | null): string => (value === null ? "" : csvField(value))
const date = (value: number | null): string => (value === null ? "" : intToDate(value))

const line = (r: Row, vehicle: string, currency: string | null): string =>
  `${seriesCsvId(r[0])},${vehicle},${formatRun(r[1])},${text(r[2])},${text(r[3])},${text(r[4])},${text(currency)},${date(r[7])},${date(r[8])}\n`

export interface SeriesCsv {
  readonly bytes: Buffer
  /** SHA-256 of `bytes`. */
  readonly digest: Buffer
}

/** The batch's series.csv. */
export const seriesCsv = (reader: SnapshotReader): SeriesCsv => {
  let csv = SERIES_CSV_HEADER
  for (const r of reader.db.prepare(FM).raw(true).all() as Row[]) csv += line(r, "mutual_fund", currencyOf(r[5]))
  for (const r of reader.db.prepare(FI).raw(true).all() as Row[]) csv += line(r, r[6] === 1 ? "etf" : "investment_fund", r[5])
  const bytes = Buffer.from(csv, "utf8")
  return { bytes, digest: createHash("sha256").update(bytes).digest() }
}
