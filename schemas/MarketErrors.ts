/**
 * 400: a parameter that is malformed rather than out of range (a `month` that is not YYYY-MM on
 * the portfolio routes, as the spec has it for the FI portfolio routes). Same one JSON error shape
 * as schemas/ApiErrors.ts.
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { ValidationIssue } from "./ApiErrors.ts"

const body = Schema.Struct({
  error: Schema.String,
  status: Schema.Literal(400),
  message: Schema.String,
  parameter: Schema.optionalKey(Schema.String),
  issues: Schema.optionalKey(Schema.Array(ValidationIssue)),
})
  .annotate({ identifier: "BadRequestError", description: "The one JSON error shape of this API" })
  .pipe(HttpApiSchema.status(400))

export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", {
  message: Schema.String,
  parameter: Schema.String,
}) {}

export const BadRequestResponse = BadRequest.pipe(
  HttpApiSchema.encodeToWithHeaders(
    { body, headers: {} },
    {
      decode: ({ body }) => new BadRequest({ message: body.message, parameter: body.parameter ?? "" }),
      encode: (e) => ({
        body: { error: "bad_request", status: 400 as const, message: e.message, parameter: e.parameter },
        headers: {},
      }),
    },
  ),
)
