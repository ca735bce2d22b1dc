/**
 * The one paging shape of every paged list (#29 item 3): `data`, `total`, `limit`, `offset` (or a
 * cursor, /api/changes) and `links` {self, next, prev}, the same links in an RFC 8288 `Link`
 * header. Links are root-relative (path and query, no scheme or host): they carry every query
 * parameter of the request and the batch the page was read from, so a client that follows them
 * reads one batch from the first page to the last, whatever is published meanwhile.
 */
import { Schema } from "effect"

const PageUrl = (description: string) => Schema.String.annotate({ description, examples: ["/api/screener?limit=50&offset=50&batch=2026-11-20-0123456789abcdef"] })

/** `links` of a paged list: this page, the next and the previous one, root-relative. */
export const PageLinks = Schema.Struct({
  self: PageUrl("This page: path and query as asked, offset (or cursor) and the batch it was read from spelled out"),
  next: Schema.NullOr(PageUrl("The next page, from the same batch; null on the last page. Follow it until it is null")),
  prev: Schema.NullOr(PageUrl("The previous page, from the same batch; null on the first page (and on /api/changes, paged forward only)")),
}).annotate({
  identifier: "PageLinks",
  description:
    "Root-relative links (path and query; resolve them against the service's base URL) to this page and its neighbours, " +
    "each carrying every query parameter of the request and the batch the page was read from; the same as the Link header",
})
export type PageLinks = typeof PageLinks.Type

/** The response header with the links (RFC 8288). */
export const LINK_HEADER = "link"

/** The Link header value of `links`: next, prev, then self, those that exist. */
export const linkHeaderOf = (links: PageLinks): string => {
  const rels: Array<[string, string | null]> = [
    ["next", links.next],
    ["prev", links.prev],
    ["self", links.self],
  ]
  return rels
    .flatMap(([rel, url]) => (url === null ? [] : [`<${url}>; rel="${rel}"`]))
    .join(", ")
}
