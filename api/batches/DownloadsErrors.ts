/**
 * The snapshot download's own error, in the one JSON error shape: 416 for a range past the end of
 * the file, with `Content-Range: bytes *\/<size>` (RFC 9110 §15.5.17).
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"

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
