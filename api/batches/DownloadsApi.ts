/**
 * Bulk downloads of a published batch: its SQLite snapshot file as it is (resumable, with its
 * SHA-256), its Parquet files the same way (snapshots/parquet/), every series' daily values as gzip-compressed CSV (all, or from a date on), and the
 * series' catalog beside them (series.csv). docs/snapshot-format.md describes the file and the
 * CSV files; api/batches/Downloads.ts answers.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BatchNotRetainedResponse, dataErrors, NotFoundResponse } from "../../schemas/ApiErrors.ts"
import { BatchId } from "../../schemas/Batches.ts"
import { IsoDate } from "../../schemas/Dates.ts"
import { ApiKeyAuth } from "../security/Security.ts"
import { RangeNotSatisfiableResponse } from "./DownloadsErrors.ts"

export const SNAPSHOT_MEDIA_TYPE = "application/vnd.sqlite3"
/** Parquet's registered media type (IANA, 2024). */
export const PARQUET_MEDIA_TYPE = "application/vnd.apache.parquet"

const SnapshotFile = HttpApiSchema.StreamUint8Array({ contentType: SNAPSHOT_MEDIA_TYPE }).annotate({
  description: "The snapshot file, byte for byte (docs/snapshot-format.md)",
})
const ParquetFile = HttpApiSchema.StreamUint8Array({ contentType: PARQUET_MEDIA_TYPE }).annotate({
  description: "The Parquet file, byte for byte (README, \"Bulk downloads\")",
})
const ParquetFileName = Schema.String.annotate({
  description:
    "`days-<YYYY>.parquet` (one per year of daily values), `series.parquet`, `returns.parquet`, `tac.parquet`, `holdings.parquet`, `fi_series.parquet`, `fi_values.parquet` or `fi_holdings.parquet`; any other name: 404",
  examples: ["days-2026.parquet", "returns.parquet"],
})
const DaysCsvGz = HttpApiSchema.StreamUint8Array({ contentType: "application/gzip" }).annotate({
  description:
    "gzip of CSV: id,date,price,total_net_assets,shareholders; every series of the batch (from from_date on), by id and date; id is `fm-<decimal id>` or `fi-<UUID>`",
})
const SeriesCsv = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })).annotate({
  description:
    "CSV: id,vehicle,run,fund,series,administrator,currency,first_date,last_date; one line per series of the batch, in the order of days.csv.gz",
})

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
type Json = Record<string, any>

const header = (description: string, schema: Json = { type: "string" }) => ({ description, schema })


/** The Range and If-Range request headers of a resumable download; `validator` names what If-Range takes. */
const rangeParameters = (validator: string): Json[] => [
  {
    name: "Range",
    in: "header",
    required: false,
    description: "One byte range, `bytes=<first>-[<last>]` or `bytes=-<suffix length>`; several ranges, or another unit, get the whole file",
    schema: { type: "string" },
  },
  {
    name: "If-Range",
    in: "header",
    required: false,
    description: `${validator} of the file the first part came from: the range is sent only while the file is that one, else the whole file`,
    schema: { type: "string" },
  },
]
/** What effect's document cannot say of the snapshot download: its headers, Range, the 206 and If-Range. */
const documentSnapshotDownload = (op: Json): Json => {
  const fileHeaders = {
    "Content-Length": header("Bytes in this answer (the whole file on 200, the range on 206)", { type: "integer" }),
    "Repr-Digest": header("SHA-256 of the whole file (RFC 9530), e.g. `sha-256=:<base64>:`, on 200 and 206 alike"),
    "Accept-Ranges": header("`bytes`: a cut download resumes with `Range: bytes=<bytes received>-`"),
    ETag: header("Strong validator of the file: its SHA-256 in hex, quoted; send it back in If-Range when resuming"),
    "Last-Modified": header("When the file was written"),
    "Content-Disposition": header("attachment; filename=\"<batch_id>.sqlite\""),
  }
  const ok = op.responses["200"]
  ok.headers = { ...ok.headers, ...fileHeaders }
  op.responses["206"] = {
    description:
      "Partial Content: the one range asked for; a range that starts past byte 0 of a download the key started today is not counted against its quota",
    headers: {
      ...ok.headers,
      "Content-Range": header("bytes <first>-<last>/<file size>"),
    },
    content: { [SNAPSHOT_MEDIA_TYPE]: ok.content[SNAPSHOT_MEDIA_TYPE] },
  }
  op.parameters = [...(op.parameters ?? []), ...rangeParameters("The ETag (or Last-Modified date)")]
  return op
}

/** A Parquet file's headers, Range, the 206 and If-Range: the snapshot's. */
const documentParquetDownload = (op: Json): Json => {
  const fileHeaders = {
    "Content-Length": header("Bytes in this answer (the whole file on 200, the range on 206)", { type: "integer" }),
    "Repr-Digest": header("SHA-256 of the whole file (RFC 9530), e.g. `sha-256=:<base64>:`, on 200 and 206 alike"),
    "Accept-Ranges": header("`bytes`: a reader fetches the footer, then the row groups and columns it needs"),
    ETag: header("Strong validator of the file: its SHA-256 in hex, quoted"),
    "Last-Modified": header("When the file was written"),
    "Content-Disposition": header("attachment; filename=\"<batch_id>-<file>\""),
  }
  const ok = op.responses["200"]
  ok.headers = { ...ok.headers, ...fileHeaders }
  op.responses["206"] = {
    description: "Partial Content: the one range asked for; a range past byte 0 of a file the key started today is not counted (8 of them per start)",
    headers: { ...ok.headers, "Content-Range": header("bytes <first>-<last>/<file size>") },
    content: { [PARQUET_MEDIA_TYPE]: ok.content[PARQUET_MEDIA_TYPE] },
  }
  op.parameters = [...(op.parameters ?? []), ...rangeParameters("The ETag (or Last-Modified date)")]
  return op
}

/** series.csv's headers, Range, the 206 and If-Range, as the snapshot's (a strong ETag, no Last-Modified). */
const documentSeriesCsv = (op: Json): Json => {
  const fileHeaders = {
    "Content-Length": header("Bytes in this answer (the whole file on 200, the range on 206)", { type: "integer" }),
    "Repr-Digest": header("SHA-256 of the whole file (RFC 9530), e.g. `sha-256=:<base64>:`, on 200 and 206 alike"),
    "Accept-Ranges": header("`bytes`"),
    ETag: header("Strong validator of the file: its SHA-256 in hex, quoted; send it back in If-Range when resuming"),
    "Content-Disposition": header("attachment; filename=\"<batch_id>-series.csv\""),
  }
  const ok = op.responses["200"]
  ok.headers = { ...ok.headers, ...fileHeaders }
  op.responses["206"] = {
    description: "Partial Content: the one range asked for (each request counts against the quota)",
    headers: { ...ok.headers, "Content-Range": header("bytes <first>-<last>/<file size>") },
    content: ok.content,
  }
  op.parameters = [...(op.parameters ?? []), ...rangeParameters("The ETag")]
  return op
}

/** days.csv.gz's own headers. */
const documentDaysCsv = (op: Json): Json => {
  const ok = op.responses["200"]
  ok.headers = {
    ...ok.headers,
    ETag: header("Weak validator: the batch's content hash, and `-from-<from_date>` with from_date (the gzip bytes may differ between two answers)"),
    "Content-Disposition": header("attachment; filename=\"<batch_id>-days.csv.gz\" (`<batch_id>-days-from-<from_date>.csv.gz` with from_date)"),
  }
  return op
}

export class DownloadsApi extends HttpApiGroup.make("downloads")
  .add(
    HttpApiEndpoint.get("batchSnapshot", "/api/batches/:batch_id/snapshot", {
      params: { batch_id: BatchId },
      success: SnapshotFile,
      error: dataErrors(NotFoundResponse, BatchNotRetainedResponse, RangeNotSatisfiableResponse),
    })
      .annotate(OpenApi.Summary, "The batch's SQLite snapshot file, resumable, with its SHA-256 (Repr-Digest)")
      .annotate(
        OpenApi.Description,
        "Streams the file itself (docs/snapshot-format.md). One request of quota per download: a range that resumes a download the same key started today is not counted. Unknown batch: 404; a published batch whose file retention removed: 410 with its content hash and the command that rebuilds it.",
      )
      .annotate(OpenApi.Transform, documentSnapshotDownload),
    HttpApiEndpoint.get("batchParquet", "/api/batches/:batch_id/parquet/:file", {
      params: { batch_id: BatchId, file: ParquetFileName },
      success: ParquetFile,
      error: dataErrors(NotFoundResponse, BatchNotRetainedResponse, RangeNotSatisfiableResponse),
    })
      .annotate(OpenApi.Summary, "One of the batch's Parquet files (daily values by year, series, returns, TAC, holdings), by byte ranges")
      .annotate(
        OpenApi.Description,
        "Streams the file itself, written by the pipeline beside the snapshot and listed, with its size and SHA-256, in the batch's signed release (`<batch_id>.parquet/<file>`). `days-<YYYY>.parquet`: asset_id, date, price, total_net_assets, shareholders, sorted by asset_id then date, row groups of 65,536 rows with min/max statistics, so a reader fetches the footer and the one row group of a series. Served as the snapshot: ETag and Repr-Digest (SHA-256), Last-Modified, one range per request (206, 416, If-Range), HEAD; one request of quota per download (a range past byte 0 of a file the key started today is free, 8 per start). Unknown batch or file: 404; a batch whose files retention removed: 410.",
      )
      .annotate(OpenApi.Transform, documentParquetDownload),
    HttpApiEndpoint.get("batchDaysCsv", "/api/batches/:batch_id/days.csv.gz", {
      params: { batch_id: BatchId },
      query: {
        from_date: Schema.optionalKey(
          IsoDate.annotate({ description: "Only the values dated on or after this date (YYYY-MM-DD); without it, every date" }),
        ),
      },
      success: DaysCsvGz,
      error: dataErrors(NotFoundResponse, BatchNotRetainedResponse),
    })
      .annotate(OpenApi.Summary, "Every series' daily values of the batch, as gzip-compressed CSV")
      .annotate(
        OpenApi.Description,
        "One line per series per date: mutual fund series then FI/ETF series (CMF book values), by id and date; `id` is the API's id behind its domain's prefix (`fm-123456789`, `fi-<UUID>`: text in every row, so DuckDB and pandas read it as text), ISO dates, `.` decimals with a decimal point always in price and total_net_assets (`1000.0`), empty for a missing value. series.csv names every id. `from_date` keeps the dates on or after it (a client that holds a batch fetches what is new). Streamed (no Content-Length, no Range); a weak ETag. One request of quota.",
      )
      .annotate(OpenApi.Transform, documentDaysCsv),
    HttpApiEndpoint.get("batchSeriesCsv", "/api/batches/:batch_id/series.csv", {
      params: { batch_id: BatchId },
      success: SeriesCsv,
      error: dataErrors(NotFoundResponse, BatchNotRetainedResponse, RangeNotSatisfiableResponse),
    })
      .annotate(OpenApi.Summary, "The catalog of the batch's series, beside days.csv.gz, as CSV")
      .annotate(
        OpenApi.Description,
        "One line per series of the batch, with the id days.csv.gz uses: id, vehicle (`mutual_fund`, `investment_fund`, `etf`), run (with check digit), fund, series (label), administrator, currency, first_date and last_date (its first and last daily value, ISO; empty when it has none). Content-Length, a strong ETag and Repr-Digest (SHA-256), one byte range per request (206, 416, If-Range). One request of quota per request. Unknown batch: 404; a file retention removed: 410.",
      )
      .annotate(OpenApi.Transform, documentSeriesCsv),
  )
  .middleware(ApiKeyAuth)
  .annotateMerge(OpenApi.annotations({ title: "Downloads", description: "A batch's snapshot file, its Parquet files, its daily values in bulk and its series' catalog" })) {}
