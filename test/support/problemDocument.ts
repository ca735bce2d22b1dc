/**
 * The check of an error answer as an RFC 9457 problem document, worked out here from the answer
 * alone (not from schemas/Problem.ts): its content type, `type` naming the /docs entry of its
 * `error` code (which /docs must hold), `status` the HTTP status, a non-empty `title`, `detail`
 * the same text as `message`, and `instance` naming the answer's X-Request-Id.
 */
import type { Answer } from "./openApiValidator.ts"

/** The ids of /docs's error entries (`error-<code>`). */
export const errorAnchorsOf = (docsHtml: string): ReadonlySet<string> =>
  new Set([...docsHtml.matchAll(/\sid="(error-[^"]+)"/g)].map((m) => m[1]!))

const headerOf = (answer: Answer, name: string): string | undefined => {
  const v = answer.headers[name]
  return Array.isArray(v) ? v.join(", ") : v
}

/** The code and title of a problem document, for the check that a code has one title. */
export interface ProblemSeen {
  readonly error: string
  readonly title: string
}

/** What is wrong with a 4xx/5xx answer as a problem document (empty: nothing), and its code and title. */
export const problemDocumentIssues = (answer: Answer, anchors: ReadonlySet<string>): { issues: string[]; seen?: ProblemSeen } => {
  const issues: string[] = []
  const contentType = headerOf(answer, "content-type")
  if (contentType !== "application/problem+json") issues.push(`content type ${contentType ?? "(none)"}, not application/problem+json`)
  let body: Record<string, unknown>
  try {
    body = JSON.parse(answer.text)
  } catch {
    return { issues: [...issues, `the body is not JSON: ${answer.text.slice(0, 120)}`] }
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { issues: [...issues, "the body is not a JSON object"] }
  const { type, title, status, detail, instance, error, message } = body
  if (typeof error !== "string" || error === "") return { issues: [...issues, `no error code: ${answer.text.slice(0, 120)}`] }
  if (type !== `/docs#error-${error}`) issues.push(`type ${JSON.stringify(type)} is not /docs#error-${error}`)
  if (!anchors.has(`error-${error}`)) issues.push(`/docs has no entry error-${error}`)
  if (status !== answer.status) issues.push(`status ${JSON.stringify(status)} is not the HTTP status ${answer.status}`)
  if (typeof title !== "string" || title.trim() === "") issues.push(`title ${JSON.stringify(title)} is empty`)
  if (typeof message !== "string" || message === "") issues.push(`message ${JSON.stringify(message)} is empty`)
  if (detail !== message) issues.push(`detail ${JSON.stringify(detail)} is not message ${JSON.stringify(message)}`)
  const id = headerOf(answer, "x-request-id")
  if (id === undefined || id === "") issues.push("no X-Request-Id header")
  else if (instance !== `urn:fds:request:${id}`) issues.push(`instance ${JSON.stringify(instance)} is not urn:fds:request:${id}`)
  return typeof title === "string" ? { issues, seen: { error, title } } : { issues }
}

/** Codes answered with more than one title, each with its titles. */
export const titlesNotFixed = (seen: ReadonlyArray<ProblemSeen>): Record<string, string[]> => {
  const titles = new Map<string, Set<string>>()
  for (const { error, title } of seen) titles.set(error, (titles.get(error) ?? new Set()).add(title))
  return Object.fromEntries([...titles].filter(([, t]) => t.size > 1).map(([error, t]) => [error, [...t]]))
}
