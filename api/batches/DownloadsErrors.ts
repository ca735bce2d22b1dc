/**
 * The snapshot download's own error, in the one error shape (schemas/ApiError.ts): 416 for a range past the end of
 * the file, with `Content-Range: bytes *\/<size>` (RFC 9110 §15.5.17).
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { errorBody, errorMembers } from "../../schemas/ApiError.ts"

/** 416: the range starts past the end of the file. */
export class RangeNotSatisfiable extends Schema.TaggedError<RangeNotSatisfiable>()("RangeNotSatisfiable", {
  size: Schema.Number,
}) {}
export const RangeNotSatisfiableResponse = RangeNotSatisfiable.pipe(
  HttpApiSchema.encodeToWithHeaders(
    {
      body: errorBody(416, "RangeNotSatisfiableError"),
      headers: { "content-range": Schema.String.annotate({ description: "bytes */<file size>" }) },
    },
    {
      decode: ({ headers }) => new RangeNotSatisfiable({ size: Number(headers["content-range"].split("/")[1]) }),
      encode: (e) => ({
        body: {
          ...errorMembers(
            "range_not_satisfiable",
            416,
            `the range starts past the end of the file (${e.size} bytes); ask for bytes=0-${e.size - 1} or part of it`,
          ),
          status: 416 as const,
        },
        headers: { "content-range": `bytes */${e.size}` },
      }),
    },
  ),
)
