/**
 * The links of a paged answer (schemas/Paging.ts), made from the request as it came: its path and
 * every other query parameter it gave, in its order and spelling, then `offset` (or `cursor`) of
 * the page and the page's batch (`batch=`, or /api/changes' to_batch), so following `next` after
 * a publish still reads the batch of the first page. Root-relative, as the request's target.
 */
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { LINK_HEADER, linkHeaderOf, type PageLinks } from "../../schemas/Paging.ts"
import { sendHeader } from "../snapshot/Pinned.ts"

/** The request's path and query parameters (as given: repeated ones repeated). */
export const requestTarget = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
  // the path as the router matched it: an absolute-form target's path, repeated slashes collapsed
  // (read whole, `//api//screener` would be a host `api` and a path `/screener`, and a link
  // `//screener` would send a client, and its key, to another host)
  const raw = request.url
  const q = raw.indexOf("?")
  let path = q === -1 ? raw : raw.slice(0, q)
  if (!path.startsWith("/")) path = URL.canParse(path) ? new URL(path).pathname : "/"
  const url = new URL(`http://request.invalid${path.replace(/\/{2,}/g, "/")}${q === -1 ? "" : raw.slice(q)}`)
  return { path: url.pathname, query: url.searchParams }
})

const target = (path: string, query: URLSearchParams, set: Readonly<Record<string, string>>): string => {
  const params = new URLSearchParams(query)
  // the request's other parameters as it spelled them, then `set` at the end, always in its order:
  // a page asked again with the batch its link names gives the same links, byte for byte
  for (const name of Object.keys(set)) params.delete(name)
  for (const [name, value] of Object.entries(set)) params.append(name, value)
  return `${path}?${params}`
}

/** The page an offset-paged list answered. */
export interface OffsetPage {
  readonly offset: number
  readonly limit: number
  readonly total: number
}

/**
 * Links of an offset page: next while rows remain after it, prev from the page before it (from 0
 * at least; an offset past the end goes back to the last full page's start). `batch` names the
 * batch the page was read from (null: none to name).
 */
export const offsetLinks = (path: string, query: URLSearchParams, page: OffsetPage, batch: string | null): PageLinks => {
  const at = (offset: number) => target(path, query, { offset: String(offset), ...(batch === null ? {} : { batch }) })
  const next = page.offset + page.limit
  return {
    self: at(page.offset),
    next: next < page.total ? at(next) : null,
    prev: page.offset > 0 ? at(Math.max(0, Math.min(page.offset, page.total) - page.limit)) : null,
  }
}

/** Links of a forward cursor page: `set` (the batches spelled out) on each; next with the next cursor; no prev. */
export const cursorLinks = (
  path: string,
  query: URLSearchParams,
  set: Readonly<Record<string, string>>,
  nextCursor: string | null,
): PageLinks => ({
  self: target(path, query, set),
  next: nextCursor === null ? null : target(path, query, { ...set, cursor: nextCursor }),
  prev: null,
})

/** The Link header of `links` on this request's answer (kept with it by the answer cache). */
export const sendLinkHeader = (links: PageLinks) => sendHeader(LINK_HEADER, linkHeaderOf(links))

/** Links of an offset page of this request, sent in the Link header too: what a handler returns as `links`. */
export const offsetPageLinks = Effect.fn("PageLinks.offset")(function* (page: OffsetPage, batch: string | null) {
  const { path, query } = yield* requestTarget
  const links = offsetLinks(path, query, page, batch)
  yield* sendLinkHeader(links)
  return links
})
