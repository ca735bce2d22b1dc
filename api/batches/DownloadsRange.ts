/**
 * Byte ranges of a file download (RFC 9110 §14): one range per request, so that a cut download
 * resumes where it stopped. A header this server does not take is ignored and the whole file
 * sent, as the RFC allows: another unit, a list of ranges, a malformed one. If-Range is honoured
 * with the strong ETag or the exact Last-Modified date; anything else sends the whole file.
 */
import { ifNoneMatchHits } from "../http/Caching.ts"

export type RangeAnswer =
  | { readonly _tag: "Whole" }
  /** Bytes start…end, both inclusive. */
  | { readonly _tag: "Part"; readonly start: number; readonly end: number }
  | { readonly _tag: "Unsatisfiable" }

const WHOLE: RangeAnswer = { _tag: "Whole" }
const ONE_RANGE = /^bytes[ \t]*=[ \t]*(\d*)[ \t]*-[ \t]*(\d*)[ \t]*$/i

/** What a Range header asks of a file of `size` bytes. */
export const parseRange = (header: string | undefined, size: number): RangeAnswer => {
  if (header === undefined) return WHOLE
  const m = ONE_RANGE.exec(header)
  if (m === null) return WHOLE
  const [, first, last] = m as unknown as [string, string, string]
  if (first === "") {
    // the last N bytes
    if (last === "") return WHOLE
    const n = Number(last)
    if (n === 0) return { _tag: "Unsatisfiable" }
    return { _tag: "Part", start: Math.max(0, size - n), end: size - 1 }
  }
  // a first byte past the end is unsatisfiable however many digits it has (1e20, Infinity)
  const start = Number(first)
  if (last !== "" && Number(last) < start) return WHOLE
  if (start >= size) return { _tag: "Unsatisfiable" }
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1)
  return { _tag: "Part", start, end }
}

/**
 * Whether the range may be served: no If-Range, or one naming this file (its strong ETag, or
 * exactly its Last-Modified date, when it has one). A weak tag never matches (RFC 9110 §13.1.5).
 */
export const ifRangeHolds = (header: string | undefined, etag: string, lastModified: string | null): boolean => {
  if (header === undefined) return true
  const value = header.trim()
  if (value.startsWith('"')) return value === etag
  if (value.startsWith("W/")) return false
  return lastModified !== null && value === lastModified
}


/**
 * Whether a Range is to be read at all (RFC 9110 §13.2.2, §14.2): never on a HEAD, and not when
 * If-None-Match names the representation (the answer is then a 304 for the whole, not a part).
 */
export const rangeApplies = (head: boolean, ifNoneMatch: string | undefined, etag: string): boolean =>
  !head && !ifNoneMatchHits(ifNoneMatch, etag)
