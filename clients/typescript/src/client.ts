/**
 * The client: openapi-fetch on the contract's types (src/openapi.d.ts), sending the key in
 * X-Api-Key only, with the service's retry rules (retry.ts) under every call, typed errors
 * (errors.ts), paging that follows `links.next` from the batch of the first page, and bulk
 * downloads (download.ts).
 */
import createFetchClient, { type Client, type ClientPathsWithMethod, type MaybeOptionalInit, type MethodResponse } from "openapi-fetch"
import { type Downloaded, type DownloadOptions, downloadFile } from "./download.ts"
import { BatchChanged, errorOf } from "./errors.ts"
import type { paths } from "./openapi.d.ts"
import { type RetryEvent, type RetryOptions, retryingFetch } from "./retry.ts"

/** The package's version, named in its User-Agent. */
export const VERSION = "0.1.0"

export interface ClientOptions {
  /** The API key; default: $FDS_API_KEY. Sent only in the X-Api-Key header. */
  readonly apiKey?: string
  /** The service's URL, e.g. https://fondos.example.cl; default: $FDS_BASE_URL. */
  readonly baseUrl?: string
  /** Your application and a contact, put before the package's own User-Agent. */
  readonly userAgent?: string
  readonly retry?: RetryOptions
  /** Hears of each retry before its wait (for logs). */
  readonly onRetry?: (event: RetryEvent) => void | Promise<void>
  /** The fetch that sends one request (default: globalThis.fetch). */
  readonly fetch?: (request: Request) => Promise<Response>
}

/** openapi-fetch's client on the contract's JSON answers. */
export type Api = Client<paths, "application/json">
type GetPath = ClientPathsWithMethod<Api, "get">
type GetInit<P extends GetPath> = MaybeOptionalInit<paths[P], "get">
/** The options argument of a call: optional when the operation needs no parameter. */
type InitArgs<I> = {} extends I ? [init?: I] : [init: I]
/** The data a call answers (its 200 JSON). */
export type Answer<P extends GetPath, I = {}> = MethodResponse<Api, "get", P, I>
/** The paths whose answer is a page (`links.next`). */
export type PagedPath = { [P in GetPath]: Answer<P> extends { readonly links: { readonly next: string | null } } ? P : never }[GetPath]
/** One row of a paged list. */
export type Row<P extends PagedPath> = Answer<P> extends { readonly data: ReadonlyArray<infer R> } ? R : never

export interface FdsClient {
  /** GET an operation: its data, or a typed error (ApiError and subclasses). */
  get<P extends GetPath, I extends GetInit<P>>(path: P, ...init: InitArgs<I>): Promise<Answer<P, I>>
  /** GET an operation with the answer's headers (Batch-Id, X-RateLimit-*). */
  getWithResponse<P extends GetPath, I extends GetInit<P>>(path: P, ...init: InitArgs<I>): Promise<{ data: Answer<P, I>; response: Response }>
  /**
   * The pages of a paged list, from the first (as asked) on through `links.next`. Every page is read
   * from the first page's batch, whatever is published meanwhile (the links name it; a page from
   * another batch throws BatchChanged).
   */
  pages<P extends PagedPath, I extends GetInit<P>>(path: P, ...init: InitArgs<I>): AsyncGenerator<Answer<P, I>, void, undefined>
  /** The rows of every page of a paged list, as pages() reads them. */
  rows<P extends PagedPath, I extends GetInit<P>>(path: P, ...init: InitArgs<I>): AsyncGenerator<Row<P>, void, undefined>
  /**
   * Downloads a published batch's SQLite snapshot or its series.csv to `to`, resuming a download
   * cut before (Range, If-Range) and checking the SHA-256 the service announces (Repr-Digest).
   */
  download(options: DownloadOptions): Promise<Downloaded>
  /** openapi-fetch itself, with the same key, User-Agent and retries: answers `{ data, error, response }`, never throws for a status. */
  readonly api: Api
}

const needed = (value: string | undefined, what: string, variable: string): string => {
  if (value === undefined || value.trim() === "") throw new Error(`no ${what}: pass ${what === "API key" ? "apiKey" : "baseUrl"} or set ${variable}`)
  return value.trim()
}

export const createClient = (options: ClientOptions = {}): FdsClient => {
  const apiKey = needed(options.apiKey ?? process.env.FDS_API_KEY, "API key", "FDS_API_KEY")
  const baseUrl = needed(options.baseUrl ?? process.env.FDS_BASE_URL, "base URL", "FDS_BASE_URL").replace(/\/+$/, "")
  const userAgent = `${options.userAgent === undefined ? "" : `${options.userAgent} `}fds-client-typescript/${VERSION} (node ${process.versions.node})`
  const headers = { "X-Api-Key": apiKey, "User-Agent": userAgent }
  const fetchOnce = options.fetch ?? ((request: Request) => globalThis.fetch(request))
  const send = retryingFetch(fetchOnce, options.retry, options.onRetry)
  const api = createFetchClient<paths, "application/json">({ baseUrl, headers, fetch: send })
  // the untyped view of api.GET the typed methods call through (their types are checked at the call)
  const rawGet = api.GET as unknown as (path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>

  /** The typed error of an answer; the key is never in its text (it is never in a URL either). */
  const fail = async (response: Response, request: string, read?: unknown): Promise<never> => {
    // openapi-fetch has read the body already (its `error`); a fetch of ours has not
    const body = read === undefined ? await response.text().catch(() => "") : typeof read === "string" ? read : JSON.stringify(read)
    throw errorOf(response, body.replaceAll(apiKey, "[redacted]"), request)
  }
  const describe = (response: Response, fallback: string) => {
    const url = new URL(response.url === "" ? fallback : response.url)
    return `GET ${url.pathname}${url.search}`
  }

  const getWithResponse = async (path: string, init?: object) => {
    const { data, error, response } = await rawGet(path, init)
    if (!response.ok) return fail(response, describe(response, `${baseUrl}${path}`), error ?? "")
    return { data, response }
  }

  /** A page by its link (root-relative, as the service gives it). */
  const follow = async (link: string) => {
    const url = new URL(link, `${baseUrl}/`)
    const response = await send(new Request(url, { headers }))
    if (!response.ok) return fail(response, `GET ${url.pathname}${url.search}`)
    return { data: (await response.json()) as unknown, response }
  }

  async function* pages(path: string, init?: object) {
    const first = await getWithResponse(path, init)
    const batch = first.response.headers.get("batch-id")
    let page = first.data as { readonly links: { readonly next: string | null } }
    yield page
    while (page.links.next !== null) {
      const next = await follow(page.links.next)
      const got = next.response.headers.get("batch-id")
      if (batch !== null && got !== null && got !== batch) throw new BatchChanged(batch, got)
      page = next.data as typeof page
      yield page
    }
  }

  async function* rows(path: string, init?: object) {
    for await (const page of pages(path, init)) yield* (page as unknown as { readonly data: ReadonlyArray<unknown> }).data
  }

  const client = {
    api,
    get: async (path: string, init?: object) => (await getWithResponse(path, init)).data,
    getWithResponse,
    pages,
    rows,
    download: (download: DownloadOptions) => downloadFile(download, { baseUrl, headers, send, fail }),
  }
  return client as unknown as FdsClient
}
