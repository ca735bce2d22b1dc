/**
 * The errors of the download routes beyond the API's common ones, in the one JSON error shape:
 * 410 for a published batch whose file retention has removed (with its content hash and the
 * command that rebuilds it), 416 for a range past the end of the file (with `Content-Range:
 * bytes *\/<size>`, RFC 9110 §15.5.17).
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"

/** 410: the batch was published, but its snapshot file is no longer kept. */
export class BatchNotRetained extends Schema.TaggedError<BatchNotRetained>()("BatchNotRetained", {
  batchId: Schema.String,
  contentHash: Schema.String,
  rebuild: Schema.String,
}) {}
export const BatchNotRetainedResponse = BatchNotRetained.pipe(
  HttpApiSchema.encodeToWithHeaders(
    {
      body: Schema.Struct({
        error: Schema.Literal("batch_not_retained"),
        status: Schema.Literal(410),
        message: Schema.String,
        parameter: Schema.String,
        content_hash: Schema.String.annotate({ description: "The batch's content hash (snapshots/ContentHash.ts): what a rebuild must match" }),
        rebuild: Schema.String.annotate({ description: "The command that rebuilds the file on the primary" }),
      })
        .annotate({ identifier: "BatchNotRetainedError", description: "The one JSON error shape, with the batch's content hash and how to rebuild it" })
        .pipe(HttpApiSchema.status(410)),
      headers: {},
    },
    {
      decode: ({ body }) => new BatchNotRetained({ batchId: "", contentHash: body.content_hash, rebuild: body.rebuild }),
      encode: (e) => ({
        body: {
          error: "batch_not_retained" as const,
          status: 410 as const,
          message: `batch ${e.batchId} was published but its snapshot file is no longer kept (retention); it can be rebuilt: ${e.rebuild}`,
          parameter: "batch_id",
          content_hash: e.contentHash,
          rebuild: e.rebuild,
        },
        headers: {},
      }),
    },
  ),
)

/** 416: the range starts past the end of the file. */
export class RangeNotSatisfiable extends Schema.TaggedError<RangeNotSatisfiable>()("RangeNotSatisfiable", {
  size: Schema.Number,
}) {}
export const RangeNotSatisfiableResponse = RangeNotSatisfiable.pipe(
  HttpApiSchema.encodeToWithHeaders(
    {
      body: Schema.Struct({
        error: Schema.Literal("range_not_satisfiable"),
        status: Schema.Literal(416),
        message: Schema.String,
      })
        .annotate({ identifier: "RangeNotSatisfiableError", description: "The one JSON error shape" })
        .pipe(HttpApiSchema.status(416)),
      headers: { "content-range": Schema.String.annotate({ description: "bytes */<file size>" }) },
    },
    {
      decode: ({ headers }) => new RangeNotSatisfiable({ size: Number(headers["content-range"].split("/")[1]) }),
      encode: (e) => ({
        body: {
          error: "range_not_satisfiable" as const,
          status: 416 as const,
          message: `the range starts past the end of the file (${e.size} bytes); ask for bytes=0-${e.size - 1} or part of it`,
        },
        headers: { "content-range": `bytes */${e.size}` },
      }),
    },
  ),
)
