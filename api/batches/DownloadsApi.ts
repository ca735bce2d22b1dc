/**
 * Bulk downloads of a published batch: its SQLite snapshot file as it is (resumable, with its
 * SHA-256), and every series' daily values as gzip-compressed CSV. docs/snapshot-format.md
 * describes the file; api/batches/Downloads.ts answers.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BatchNotRetainedResponse, dataErrors, NotFoundResponse } from "../../schemas/ApiErrors.ts"
import { BatchId } from "../../schemas/Batches.ts"
import { ApiKeyAuth } from "../security/Security.ts"
import { RangeNotSatisfiableResponse } from "./DownloadsErrors.ts"

export const SNAPSHOT_MEDIA_TYPE = "application/vnd.sqlite3"

const SnapshotFile = HttpApiSchema.StreamUint8Array({ contentType: SNAPSHOT_MEDIA_TYPE }).annotate({
  description: "The snapshot file, byte for byte (docs/snapshot-format.md)",
})
const DaysCsvGz = HttpApiSchema.StreamUint8Array({ contentType: "application/gzip" }).annotate({
  description: "gzip of CSV: asset_id,date,price,total_net_assets,shareholders; every series of the batch, by id and date",
})

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
type Json = Record<string, any>

const header = (description: string, schema: Json = { type: "string" }) => ({ description, schema })

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
  op.parameters = [
    ...(op.parameters ?? []),
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
      description: "The ETag (or Last-Modified date) of the file the first part came from: the range is sent only while the file is that one, else the whole file",
      schema: { type: "string" },
    },
  ]
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
    HttpApiEndpoint.get("batchDaysCsv", "/api/batches/:batch_id/days.csv.gz", {
      params: { batch_id: BatchId },
      success: DaysCsvGz,
      error: dataErrors(NotFoundResponse, BatchNotRetainedResponse),
    })
      .annotate(OpenApi.Summary, "Every series' daily values of the batch, as gzip-compressed CSV")
      .annotate(
        OpenApi.Description,
        "One line per series per date: mutual fund series (decimal ids) then FI/ETF series (UUIDs, CMF book values), by id and date; ISO dates, `.` decimals, empty for a missing value. Streamed (no Content-Length).",
      ),
  )
  .middleware(ApiKeyAuth)
  .annotateMerge(OpenApi.annotations({ title: "Downloads", description: "A batch's snapshot file and its daily values in bulk" })) {}
