/**
 * Checks real HTTP answers against a served /openapi.json with ajv (JSON Schema draft 2020-12, the
 * dialect of OpenAPI 3.1; formats on through ajv-formats). The document is added to ajv as it is,
 * so each response schema is compiled where it stands and its `$ref`s resolve in the document.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
type Json = any

/** The top-level OpenAPI fields: not JSON Schema keywords, only where the schemas live. */
const OPENAPI_FIELDS = ["openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components", "security", "tags", "externalDocs"]

const DOC_ID = "https://fund-data-service.test/openapi.json"

/** `/api/x/{id}` → `~1api~1x~1{id}` (a JSON Pointer token). */
const pointerToken = (s: string): string => s.replaceAll("~", "~0").replaceAll("/", "~1")

export interface Answer {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly text: string
}

export interface ContractValidator {
  /** Why the answer does not fit the operation's declared responses; empty when it fits. */
  readonly problems: (method: string, path: string, answer: Answer) => string[]
}

export const contractValidator = (doc: Json): ContractValidator => {
  const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: true })
  addFormats.default(ajv)
  ajv.addVocabulary(OPENAPI_FIELDS)
  ajv.addSchema(doc, DOC_ID)
  const compiled = new Map<string, ValidateFunction>()
  const validatorAt = (pointer: string): ValidateFunction => {
    let v = compiled.get(pointer)
    if (v === undefined) {
      v = ajv.compile({ $ref: `${DOC_ID}#${pointer}` })
      compiled.set(pointer, v)
    }
    return v
  }
  const problems = (method: string, path: string, answer: Answer): string[] => {
    const operation = doc.paths?.[path]?.[method]
    if (operation === undefined) return [`${method.toUpperCase()} ${path} is not in the document`]
    const responses = operation.responses as Record<string, Json>
    const status = String(answer.status)
    const key = [status, `${status[0]}XX`, "default"].find((k) => responses[k] !== undefined)
    if (key === undefined) return [`status ${status} is not declared (declared: ${Object.keys(responses).join(", ")})`]
    const content = (responses[key].content ?? {}) as Record<string, Json>
    const contentType = String(answer.headers["content-type"] ?? "").split(";")[0]!.trim()
    if (Object.keys(content).length === 0) {
      return answer.text.length === 0 ? [] : [`status ${status} declares no body; got ${contentType}: ${answer.text.slice(0, 200)}`]
    }
    if (content[contentType] === undefined) {
      return [`status ${status}: content type ${contentType || "(none)"} is not declared (declared: ${Object.keys(content).join(", ")})`]
    }
    // JSON, and the JSON of errors (RFC 9457 problem documents)
    if (contentType !== "application/json" && contentType !== "application/problem+json") return []
    let body: unknown
    try {
      body = JSON.parse(answer.text)
    } catch {
      return [`status ${status}: the body is not JSON: ${answer.text.slice(0, 200)}`]
    }
    const validate = validatorAt(
      `/paths/${pointerToken(path)}/${method}/responses/${key}/content/${pointerToken(contentType)}/schema`,
    )
    if (validate(body)) return []
    return (validate.errors ?? []).map(
      (e) => `status ${status}: ${e.instancePath || "(body)"} ${e.message ?? ""} ${JSON.stringify(e.params)} (at ${e.schemaPath})`,
    )
  }
  return { problems }
}
