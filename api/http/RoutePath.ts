/**
 * The path of a request target as the router matches it, for the decisions taken on a path
 * outside the router (caching, CORS, account paths). effect's router (find-my-way) ends the path
 * at the first `?`, `;` or `#`, percent-decodes it (reserved characters excepted), collapses
 * repeated slashes and drops a trailing one: `/api/key/info/`, `//api/key/info` and
 * `/api/key/info;x` reach the /api/key/info handler, so they must be that path here too.
 */
import { recent } from "./Recent.ts"

const END = /[?;#]/

/** The path and query of a target given as a path or as an absolute URL (effect's `originalUrl`). */
const pathAndQuery = (target: string): string => {
  if (target.startsWith("/")) return target
  const scheme = target.indexOf("://")
  if (scheme < 0) return target
  const slash = target.indexOf("/", scheme + 3)
  return slash < 0 ? "/" : target.slice(slash)
}

/** The routed path of `url` (path and query, or an absolute URL); null when its percent-encoding is invalid (no route matches it). */
export const routePath: (url: string) => string | null = recent(256, (url) => {
  const target = pathAndQuery(url)
  const end = target.slice(1).search(END)
  const raw = end < 0 ? target : target.slice(0, end + 1)
  let path: string
  try {
    path = decodeURI(raw)
  } catch {
    return null
  }
  path = path.replace(/\/\/+/g, "/")
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path
})
