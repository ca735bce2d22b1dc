/**
 * 400 for the FI portfolio routes: a malformed `month` (the spec asks 400 there, not the 422 of
 * schema validation). Same JSON error shape and encoding style as schemas/ApiErrors.ts.
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { ValidationIssue } from "./ApiErrors.ts"

export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", {
  message: Schema.String,
  parameter: Schema.String,
}) {}

const BadRequestBody = Schema.Struct({
  error: Schema.String,
  status: Schema.Literal(400),
  message: Schema.String,
  parameter: Schema.optionalKey(Schema.String),
  issues: Schema.optionalKey(Schema.Array(ValidationIssue)),
})
  .annotate({ identifier: "FiBadRequestError", description: "The one JSON error shape of this API" })
  .pipe(HttpApiSchema.status(400))

export const BadRequestResponse = BadRequest.pipe(
  HttpApiSchema.encodeToWithHeaders(
    { body: BadRequestBody, headers: {} },
    {
      decode: ({ body }) => new BadRequest({ message: body.message, parameter: body.parameter ?? "" }),
      encode: (e) => ({
        body: { error: "bad_request", status: 400 as const, message: e.message, parameter: e.parameter },
        headers: {},
      }),
    },
  ),
)
