/**
 * How `./fds verify` reads the server it checks, which it does not trust with its time, memory or
 * disk: every request has a timeout (the answer's headers, then each piece of its body, within
 * `timeoutMs`), a small answer (key, release, signature, /health, an error's words) is read as it
 * streams up to a cap and refused past it, and a file is hashed as it streams and cut as soon as it
 * goes past the size its release states. Every failure is a VerifyFailed naming the URL and what
 * was wrong, in one line.
 */
import { createHash } from "node:crypto"

/** A check that failed: what, in words naming the URL, the batch or the file. */
export class VerifyFailed extends Error {}

/** Where and how the server is read. */
export interface Server {
  /** The server's base URL. */
  readonly from: string
  /** An API key of the server (the release routes are keyed like the other batch downloads). */
  readonly apiKey: string
  /** How long an answer may keep verify waiting: its headers, then each piece of its body. */
  readonly timeoutMs: number
}

/** The most bytes read of each small answer. */
export const CAPS = {
  key: 16 * 1024,
  signature: 1024,
  release: 4 * 1024 * 1024,
  health: 64 * 1024,
  error: 64 * 1024,
} as const

const RETRIES = 5

/** One line of an error's words (a server's answer may hold anything). */
const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim().slice(0, 300)

/** What a failed fetch says: its cause's message (undici's own is only "fetch failed"), or the timeout. */
const reason = (e: unknown, timeoutMs: number): string => {
  if (e instanceof VerifyFailed) return e.message
  const name = (e as Error | undefined)?.name
  if (name === "TimeoutError" || name === "AbortError") return `no answer within ${timeoutMs / 1000} s`
  if (!(e instanceof Error)) return String(e)
  return e.cause instanceof Error ? e.cause.message : e.message
}

/** An answer in flight: its body is read with `pieces`, which re-arms the timeout at each piece. */
interface Answer {
  readonly url: URL
  readonly response: Response
  /** Each piece of the body, the timeout re-armed between them. */
  readonly pieces: () => AsyncGenerator<Uint8Array>
  /** Drops the answer unread. */
  readonly cancel: () => void
}

const open = async (server: Server, url: URL, keyed: boolean): Promise<Answer> => {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const arm = () => {
    clearTimeout(timer)
    timer = setTimeout(() => controller.abort(new DOMException("timeout", "TimeoutError")), server.timeoutMs)
  }
  arm()
  let response: Response
  try {
    response = await fetch(url, { headers: keyed ? { "x-api-key": server.apiKey } : {}, signal: controller.signal })
  } catch (e) {
    clearTimeout(timer)
    throw new VerifyFailed(`GET ${url}: ${reason(controller.signal.reason ?? e, server.timeoutMs)}`)
  }
  arm()
  const cancel = () => {
    clearTimeout(timer)
    if (!controller.signal.aborted) controller.abort()
  }
  const pieces = async function* () {
    try {
      if (response.body === null) return
      for await (const piece of response.body) {
        arm()
        yield piece
      }
    } catch (e) {
      throw new VerifyFailed(`GET ${url}: ${controller.signal.aborted ? `the answer stalled for ${server.timeoutMs / 1000} s` : reason(e, server.timeoutMs)}`)
    } finally {
      cancel()
    }
  }
  return { url, response, pieces, cancel }
}

/** The body's bytes, or a VerifyFailed as soon as they pass `max` (`what` names the answer). */
const readUpTo = async (answer: Answer, max: number, what: string): Promise<Uint8Array> => {
  const announced = Number(answer.response.headers.get("content-length") ?? "0")
  if (announced > max) {
    answer.cancel()
    throw new VerifyFailed(`GET ${answer.url}: announces ${announced} bytes; ${what} is at most ${max}`)
  }
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const piece of answer.pieces()) {
    size += piece.length
    if (size > max) throw new VerifyFailed(`GET ${answer.url}: more than ${max} bytes; ${what} is at most that`)
    chunks.push(piece)
  }
  return Buffer.concat(chunks)
}

/** GET `path`: an answer with status 200, retried on 429 and 503 as Retry-After says (at most a few times). */
const get = async (server: Server, path: string, keyed: boolean): Promise<Answer> => {
  const url = new URL(path, server.from)
  for (let attempt = 0; ; attempt++) {
    const answer = await open(server, url, keyed)
    const { response } = answer
    if (response.status === 200) return answer
    const wait = Number(response.headers.get("retry-after") ?? "")
    if ((response.status === 429 || response.status === 503) && attempt < RETRIES && Number.isFinite(wait) && wait <= 10) {
      answer.cancel()
      await new Promise((r) => setTimeout(r, Math.max(wait, 0.2) * 1000))
      continue
    }
    let detail = ""
    try {
      const text = new TextDecoder().decode(await readUpTo(answer, CAPS.error, "an error's words"))
      detail = text
      detail = (JSON.parse(text) as { detail?: string }).detail ?? detail
    } catch {}
    throw new VerifyFailed(`GET ${url}: ${response.status} ${oneLine(String(detail))}`.trimEnd())
  }
}

/** A small answer's bytes, at most `max` (`what` names it in an error). */
export const smallAnswer = async (server: Server, path: string, keyed: boolean, max: number, what: string): Promise<Uint8Array> =>
  readUpTo(await get(server, path, keyed), max, what)

/** A JSON object the server answers at `path` (at most `max` bytes); anything else is a VerifyFailed naming the URL. */
export const jsonAnswer = async (server: Server, path: string, max: number, what: string): Promise<Record<string, unknown>> => {
  const answer = await get(server, path, false)
  const bytes = await readUpTo(answer, max, what)
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    const type = answer.response.headers.get("content-type") ?? "no content type"
    throw new VerifyFailed(`GET ${answer.url}: the answer is not JSON (${oneLine(type)}): is ${server.from} a Fund Data Service?`)
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new VerifyFailed(`GET ${answer.url}: the answer is not a JSON object`)
  return value as Record<string, unknown>
}

/**
 * A file's size and SHA-256 as it streams in (a snapshot is never held whole); cut, naming the
 * file, as soon as it passes `stated` bytes (the size its release states).
 */
export const streamDigest = async (server: Server, path: string, name: string, stated: number): Promise<{ size: number; sha256: string }> => {
  const answer = await get(server, path, true)
  const hash = createHash("sha256")
  let size = 0
  for await (const piece of answer.pieces()) {
    size += piece.length
    if (size > stated) throw new VerifyFailed(`GET ${answer.url}: file ${name} is more than the ${stated} bytes its release states`)
    hash.update(piece)
  }
  return { size, sha256: hash.digest("hex") }
}
