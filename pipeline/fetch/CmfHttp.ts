/**
 * Fetches CMF files over HTTP (undici), with a timeout per request and retries with exponential
 * backoff on network errors, timeouts and 5xx. An HTML page where a data file was expected (CMF's
 * error and challenge pages) is an error too, never data. Paths are CMF's own, under a base URL
 * (FDS_CMF_BASE_URL), so tests point the same code at a local server.
 */
import { Effect, Schedule, Schema } from "effect"
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

/** POSTs a form (CMF's download endpoints are forms) and returns the raw body bytes. */
export const postForm = (url: string, form: Record<string, string>, options: FetchOptions = defaultFetchOptions) =>
  fetchBytes(url, { method: "POST", form, expect: "text" }, options)

/** GETs an HTML page (CMF's lists and fund pages are HTML tables). */
export const getPage = (url: string, options: FetchOptions = defaultFetchOptions) =>
  fetchBytes(url, { method: "GET", expect: "html" }, options)

const fetchBytes = (
  url: string,
  how: { readonly method: "GET" | "POST"; readonly form?: Record<string, string>; readonly expect: "text" | "html" },
  options: FetchOptions,
) =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await request(url, {
        method: how.method,
        ...(how.form === undefined ? {} : { body: new URLSearchParams(how.form).toString() }),
        headers: {
          ...(how.form === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
          "user-agent": USER_AGENT,
        },
        headersTimeout: options.timeoutMillis,
        bodyTimeout: options.timeoutMillis,
        signal,
      })
      const bytes = new Uint8Array(await response.body.arrayBuffer())
      return { status: response.statusCode, contentType: String(response.headers["content-type"] ?? ""), bytes }
    },
    catch: (e) => new CmfSourceError({ url, message: `request failed: ${String(e)}`, retryable: true }),
  }).pipe(
    Effect.timeoutOrElse({
      duration: options.timeoutMillis + 1000,
      orElse: () => Effect.fail(new CmfSourceError({ url, message: "timed out", retryable: true })),
    }),
    Effect.flatMap(({ status, contentType, bytes }) => {
      if (status >= 500) {
        return Effect.fail(new CmfSourceError({ url, message: `HTTP ${status}`, retryable: true }))
      }
      if (status !== 200) return Effect.fail(new CmfSourceError({ url, message: `HTTP ${status}`, retryable: false }))
      if (how.expect === "text" && (contentType.includes("text/html") || looksLikeHtml(bytes))) {
        return Effect.fail(
          new CmfSourceError({ url, message: "got an HTML page where a data file was expected", retryable: false }),
        )
      }
      return Effect.succeed(bytes)
    }),
    Effect.retry({
      schedule: Schedule.exponential(options.retryBaseMillis),
      times: options.retries,
      while: (e: CmfSourceError) => e.retryable,
    }),
  )

const looksLikeHtml = (bytes: Uint8Array): boolean => {
  const head = Buffer.from(bytes.subarray(0, 512)).toString("latin1").trimStart().toLowerCase()
  return head.startsWith("<!doctype html") || head.startsWith("<html")
}
