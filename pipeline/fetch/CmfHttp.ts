/**
 * Fetches CMF files over HTTP (undici), with a timeout per request and retries with exponential
 * backoff on network errors, timeouts and 5xx. An HTML page where a data file was expected (CMF's
 * error and challenge pages) is an error too, never data. Paths are CMF's own, under a base URL
 * (FDS_CMF_BASE_URL), so tests point the same code at a local server. A `CmfSession` carries the
 * cookies a site sets (CMF's PHPSESSID binds a solved captcha to its session) to the next request.
 */
import { Effect, Schedule, Schema } from "effect"
import { Cookies } from "effect/http"
import { request } from "undici"

export class CmfSourceError extends Schema.TaggedError<CmfSourceError>()("CmfSourceError", {
  url: Schema.String,
  message: Schema.String,
  retryable: Schema.Boolean,
}) {}

export interface FetchOptions {
  readonly timeoutMillis: number
  readonly retries: number
  readonly retryBaseMillis: number
}

export const defaultFetchOptions: FetchOptions = { timeoutMillis: 60_000, retries: 4, retryBaseMillis: 500 }

const USER_AGENT = "fund-data-service/0.1 (+daily CMF batch; contact: ops)"

/** The cookies one site has set so far, sent back with every request made in the session. */
export class CmfSession {
  cookies: Cookies.Cookies = Cookies.empty

  remember(setCookie: string | ReadonlyArray<string> | undefined): void {
    if (setCookie === undefined) return
    this.cookies = Cookies.merge(this.cookies, Cookies.fromSetCookie(setCookie))
  }

  get cookieHeader(): string {
    return Cookies.toCookieHeader(this.cookies)
  }
}

/** One answer, whatever its status below 500 (those are retried, then fail). */
export interface CmfResponse {
  readonly status: number
  readonly contentType: string
  readonly bytes: Uint8Array
}

export interface CmfRequest {
  readonly method: "GET" | "POST"
  readonly form?: Record<string, string> | undefined
  readonly session?: CmfSession | undefined
  readonly referer?: string | undefined
}

/** POSTs a form (CMF's download endpoints are forms) and returns the raw body bytes. */
export const postForm = (
  url: string,
  form: Record<string, string>,
  options: FetchOptions = defaultFetchOptions,
  session?: CmfSession,
) => send(url, { method: "POST", form, session }, options).pipe(Effect.flatMap(expect(url, "text")))

/** GETs an HTML page (CMF's lists and fund pages are HTML tables). */
export const getPage = (url: string, options: FetchOptions = defaultFetchOptions, session?: CmfSession) =>
  send(url, { method: "GET", session }, options).pipe(Effect.flatMap(expect(url, "html")))

/** GETs any bytes (an image, JSON): only the status is checked. */
export const getBytes = (url: string, options: FetchOptions = defaultFetchOptions, session?: CmfSession) =>
  send(url, { method: "GET", session }, options).pipe(Effect.flatMap(expect(url, "any")))

/** POSTs a form whose answer is a short text (a validation's "1"), decoded as latin-1, HTML or not. */
export const postText = (
  url: string,
  form: Record<string, string>,
  options: FetchOptions = defaultFetchOptions,
  session?: CmfSession,
) =>
  send(url, { method: "POST", form, session }, options).pipe(
    Effect.flatMap(expect(url, "any")),
    Effect.map((bytes) => Buffer.from(bytes).toString("latin1")),
  )

const expect =
  (url: string, kind: "text" | "html" | "any") =>
  ({ status, contentType, bytes }: CmfResponse): Effect.Effect<Uint8Array, CmfSourceError> => {
    if (status !== 200) return Effect.fail(new CmfSourceError({ url, message: `HTTP ${status}`, retryable: false }))
    if (kind === "text" && isHtmlAnswer(contentType, bytes)) {
      return Effect.fail(
        new CmfSourceError({ url, message: "got an HTML page where a data file was expected", retryable: false }),
      )
    }
    return Effect.succeed(bytes)
  }

/**
 * Sends one request and returns the answer as is; network errors, timeouts and 5xx are retried
 * with exponential backoff, then fail. The session's cookies go with it, and the ones set come back into it.
 */
export const send = (url: string, how: CmfRequest, options: FetchOptions = defaultFetchOptions) =>
  Effect.tryPromise({
    try: async (signal): Promise<CmfResponse> => {
      const cookie = how.session?.cookieHeader ?? ""
      const response = await request(url, {
        method: how.method,
        ...(how.form === undefined ? {} : { body: new URLSearchParams(how.form).toString() }),
        headers: {
          ...(how.form === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
          ...(cookie === "" ? {} : { cookie }),
          ...(how.referer === undefined ? {} : { referer: how.referer }),
          "user-agent": USER_AGENT,
        },
        headersTimeout: options.timeoutMillis,
        bodyTimeout: options.timeoutMillis,
        signal,
      })
      const bytes = new Uint8Array(await response.body.arrayBuffer())
      how.session?.remember(response.headers["set-cookie"])
      return { status: response.statusCode, contentType: String(response.headers["content-type"] ?? ""), bytes }
    },
    catch: (e) => new CmfSourceError({ url, message: `request failed: ${String(e)}`, retryable: true }),
  }).pipe(
    Effect.timeoutOrElse({
      duration: options.timeoutMillis + 1000,
      orElse: () => Effect.fail(new CmfSourceError({ url, message: "timed out", retryable: true })),
    }),
    Effect.flatMap((response) =>
      response.status >= 500
        ? Effect.fail(new CmfSourceError({ url, message: `HTTP ${response.status}`, retryable: true }))
        : Effect.succeed(response),
    ),
    Effect.retry({
      schedule: Schedule.exponential(options.retryBaseMillis),
      times: options.retries,
      while: (e: CmfSourceError) => e.retryable,
    }),
  )

/** An HTML page by its content type or its first bytes (CMF labels some pages text/plain). */
export const isHtmlAnswer = (contentType: string, bytes: Uint8Array): boolean => {
  if (contentType.includes("text/html")) return true
  const head = Buffer.from(bytes.subarray(0, 512)).toString("latin1").trimStart().toLowerCase()
  return head.startsWith("<!doctype html") || head.startsWith("<html")
}
