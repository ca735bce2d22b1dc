/**
 * The factory of the API's errors (schemas/ApiErrors.ts): one declaration gives the class handlers
 * fail with and the schema of its answer, the one error shape, an RFC 9457 problem document
 * (`application/problem+json`, schemas/Problem.ts)
 *   { "type": "/docs#error-<code>", "title": "<fixed per code>", "status": <http status>,
 *     "detail": "<for people>", "instance": "urn:fds:request:<X-Request-Id>",
 *     "error": "<code>", "message": "<= detail>", "parameter"?: "<name>",
 *     "issues"?: [{ "path": [...], "message": "..." }], "request_id"?: "<X-Request-Id>" (5xx) }
 * plus its headers. `instance` is added to every error answer on its way out, where the request
 * id is known (api/http/ServerErrors.ts); the schema's own encoding leaves it out.
 */
import type { Cause } from "effect"
import { Schema, SchemaAST } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { PROBLEM_CONTENT_TYPE, problemTitle, problemType } from "./Problem.ts"

export const ValidationIssue = Schema.Struct({
  path: Schema.Array(Schema.Union([Schema.String, Schema.Number])),
  message: Schema.String,
}).annotate({ identifier: "ValidationIssue" })

/** The members RFC 9457 defines, then the API's own (kept from before it: `error`, `message`, …). */
const bodyFields = <S extends number>(status: S) => ({
  type: Schema.String.annotate({
    description: "RFC 9457 problem type: the error code's entry on /docs (`/docs#error-<error>`), resolved against the URL called",
    format: "uri-reference",
  }),
  title: Schema.String.annotate({ description: "RFC 9457 title: a short summary, fixed per error code" }),
  status: Schema.Literal(status).annotate({ description: "The HTTP status of the answer" }),
  detail: Schema.String.annotate({ description: "RFC 9457 detail: what went wrong with this request (the same text as `message`)" }),
  instance: Schema.optionalKey(
    Schema.String.annotate({
      description: "RFC 9457 instance: this answer's X-Request-Id as `urn:fds:request:<id>`; on every HTTP answer",
      format: "uri",
    }),
  ),
  error: Schema.String.annotate({ description: "The error code (the `<code>` of `type`); kept from the API's error shape before RFC 9457" }),
  message: Schema.String.annotate({ description: "The same text as `detail`; kept from the API's error shape before RFC 9457" }),
  parameter: Schema.optionalKey(Schema.String),
  issues: Schema.optionalKey(Schema.Array(ValidationIssue)),
})

/** A 5xx body also carries the id the answer was sent with (X-Request-Id), the one the server's log knows it by. */
const requestIdField = {
  request_id: Schema.optionalKey(
    Schema.String.annotate({ description: "The X-Request-Id of the answer: quote it when reporting the failure" }),
  ),
}

type BodyFields<S extends number> = ReturnType<typeof bodyFields<S>> & (S extends 500 | 502 | 503 | 504 ? typeof requestIdField : {})

/** The body of an error answer of `status`, as the OpenAPI component `component`, sent as `application/problem+json`. */
export const errorBody = <S extends number>(status: S, component: string) =>
  Schema.Struct({ ...bodyFields(status), ...(status >= 500 ? requestIdField : {}) } as BodyFields<S>)
    .annotate({ identifier: component, description: "The one error shape of this API: an RFC 9457 problem document" })
    .pipe(HttpApiSchema.status(status), HttpApiSchema.asJson({ contentType: PROBLEM_CONTENT_TYPE }))

/** The body members of an error answer, in their order (the RFC 9457 ones first). */
export const errorMembers = (error: string, status: number, message: string) => ({
  type: problemType(error),
  title: problemTitle(error, status),
  status,
  detail: message,
  error,
  message,
})

/** A part of the answer taken from one of the error's fields, and read back into it by a client. */
export interface From<K extends string> {
  readonly from: K
}
export const from = <const K extends string>(field: K): From<K> => ({ from: field })
const isFrom = (u: unknown): u is From<string> => typeof u === "object" && u !== null && "from" in u

/** The names of the fields whose values are `T`. */
type FieldsOf<F extends Schema.Struct.Fields, T> = { [K in keyof F]: F[K]["Type"] extends T ? K : never }[keyof F] & string

/** Headers: a fixed value, or a number field (sent in decimal). */
type Headers<F extends Schema.Struct.Fields> = Readonly<Record<string, string | number | From<FieldsOf<F, number>>>>
type HeaderSchemas<H> = { readonly [K in keyof H]: H[K] extends string ? Schema.String : Schema.NumberFromString }

export interface Answer<F extends Schema.Struct.Fields, S extends number, H extends Headers<F>> {
  readonly status: S
  /** The body's `error`: a fixed code, or the field that holds it. */
  readonly code: string | From<FieldsOf<F, string>>
  /** The body's OpenAPI component. */
  readonly component: string
  readonly headers?: H
}

type ErrorClass<Self, Tag extends string, F extends Schema.Struct.Fields> = Schema.Class<
  Self,
  Schema.TaggedStruct<Tag, { readonly message: Schema.String } & F>,
  Cause.YieldableError
>

/**
 * `class X extends apiError<X>()(tag, fields, answer) {}` declares an error class (a
 * `Schema.TaggedError` with `message` plus `fields`) whose static `Response` is the schema that
 * encodes it to its answer: the status, the body (`error` from `answer.code`; `parameter` and
 * `issues` when the class has them) and `answer.headers`. A client decodes the answer back into X.
 */
export const apiError =
  <Self = never>() =>
  <const Tag extends string, const F extends Schema.Struct.Fields, const S extends number, const H extends Headers<F> = {}>(
    tag: Tag,
    fields: F,
    answer: Answer<F, S, H>,
  ): [Self] extends [never]
    ? "apiError<Self>(): name the class"
    : ErrorClass<Self, Tag, F> & {
        readonly Response: HttpApiSchema.encodeToWithHeaders<ErrorClass<Self, Tag, F>, Schema.Struct<BodyFields<S>>, HeaderSchemas<H>>
      } => {
    const Class = Schema.TaggedError<Self>()(tag, { message: Schema.String, ...fields })
    const body = errorBody(answer.status, answer.component)
    const headers = Object.entries(answer.headers ?? {})
    const headerSchemas = Object.fromEntries(
      headers.map(([name, value]) => [name, typeof value === "string" ? Schema.String : Schema.NumberFromString]),
    )
    const inBody = (["parameter", "issues"] as const).filter((key) => key in fields)
    // a body without the `parameter` the class requires (not one of ours) still decodes
    const parameterDefault = "parameter" in fields && !SchemaAST.isOptional(fields.parameter.ast) ? { parameter: "" } : {}

    type Value = Readonly<Record<string, unknown>>
    const encode = (e: Value) => {
      const error = String(isFrom(answer.code) ? e[answer.code.from] : answer.code)
      return {
        body: {
          ...errorMembers(error, answer.status, String(e.message)),
          ...Object.fromEntries(inBody.filter((key) => e[key] !== undefined).map((key) => [key, e[key]])),
        },
        headers: Object.fromEntries(headers.map(([name, value]) => [name, isFrom(value) ? e[value.from] : value])),
      }
    }
    const decoded = ({ body, headers: sent }: { readonly body: Value; readonly headers: Value }) => ({
      message: body.message,
      ...(isFrom(answer.code) ? { [answer.code.from]: body.error } : {}),
      ...parameterDefault,
      ...Object.fromEntries(inBody.filter((key) => body[key] !== undefined).map((key) => [key, body[key]])),
      ...Object.fromEntries(headers.flatMap(([name, value]) => (isFrom(value) ? [[value.from, sent[name]]] : []))),
    })

    let response: unknown // built once: every endpoint and `XResponse` share the one schema
    Object.defineProperty(Class, "Response", {
      // `this` is the declared class X, which extends Class: a client decodes into X
      get(this: Schema.Top & (new (props: Value) => Value)) {
        response ??= this.pipe(
          HttpApiSchema.encodeToWithHeaders(
            { body, headers: headerSchemas },
            { decode: (sent) => new this(decoded(sent)), encode: encode as never },
          ),
        )
        return response
      },
    })
    return Class as never
  }
