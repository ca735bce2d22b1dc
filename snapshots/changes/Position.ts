/**
 * Where a page of changes starts: a section of the feed, and within it the last item already
 * given. Sections listed whole in memory (registry, series, FI/ETF TAC, all small) resume after an
 * item id; the per-series sections (FM TAC, daily values) resume at a series key and after a date
 * or month of it. A cursor is a position with the pair of batches it belongs to, as opaque
 * base64url text: the same text always means the same place in the same comparison.
 */

export interface Position {
  /** Index into the feed's sections (Changes.ts). */
  readonly section: number
  /** Per-series sections: the series to resume at (number: FM asset id, string: FI serie id); null otherwise. */
  readonly key: string | number | null
  /** The last item given, exclusive: an item id, or a date (YYYYMMDD) or month (YYYY-MM) of the series; null: from the start. */
  readonly after: string | number | null
}

export const START: Position = { section: 0, key: null, after: null }

export interface Cursor {
  readonly fromBatch: string
  readonly toBatch: string
  readonly position: Position
}

const scalar = (x: unknown): x is string | number | null =>
  x === null || (typeof x === "string" && x.length <= 200) || (typeof x === "number" && Number.isSafeInteger(x) && x >= 0)

export const encodeCursor = (c: Cursor): string =>
  Buffer.from(JSON.stringify([c.fromBatch, c.toBatch, c.position.section, c.position.key, c.position.after]), "utf8").toString(
    "base64url",
  )

/** The cursor the text encodes, or null when it encodes none (any change to the text, a cursor of another version). */
export const decodeCursor = (text: string, sections: number): Cursor | null => {
  if (text.length > 1000 || !/^[A-Za-z0-9_-]+$/.test(text)) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"))
  } catch {
    return null
  }
  if (!Array.isArray(parsed) || parsed.length !== 5) return null
  const [fromBatch, toBatch, section, key, after] = parsed as unknown[]
  if (typeof fromBatch !== "string" || typeof toBatch !== "string") return null
  if (typeof section !== "number" || !Number.isInteger(section) || section < 0 || section >= sections) return null
  if (!scalar(key) || !scalar(after)) return null
  return { fromBatch, toBatch, position: { section, key, after } }
}
