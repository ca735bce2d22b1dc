/**
 * What two batches hold identically, known from their manifests without reading the files: the
 * manifest of a batch built by pipeline 0.5 or later gives each table's digest and the quotas
 * table's digest per calendar month, the parts its content hash is made of (ContentHash.ts). Where
 * two batches' digests are equal, so are their rows (SHA-256), and the comparison skips them: a
 * daily batch restates few months, so comparing it with the day before reads the months that
 * changed, not the whole history.
 *
 * The digests are used only when they make up the manifest's content hash (which the API checks
 * against the file before it serves it): a manifest whose parts do not add up, or one without
 * them, skips nothing.
 */
import { hashOfDigests, quotaTableDigest } from "../ContentHash.ts"
import type { Manifest } from "../Manifest.ts"

export interface Identical {
  /** Tables whose rows are the same in both batches. */
  readonly tables: ReadonlySet<string>
  /** Calendar months (YYYYMM) whose quota rows are the same in both batches. */
  readonly quotaMonths: ReadonlySet<string>
}

export const NOTHING_IDENTICAL: Identical = { tables: new Set(), quotaMonths: new Set() }

type Parts = Pick<Manifest, "content_hash" | "table_digests" | "quota_month_digests">

/** The manifest's digests when they make up its content hash; null otherwise. */
const partsOf = (m: Parts): { tables: Readonly<Record<string, string>>; months: Readonly<Record<string, string>> } | null => {
  const tables = m.table_digests
  const months = m.quota_month_digests
  if (tables === undefined || months === undefined) return null
  try {
    if (quotaTableDigest(months) !== tables.quotas || hashOfDigests(tables) !== m.content_hash) return null
  } catch {
    return null // a table without its digest
  }
  return { tables, months }
}

export const identicalParts = (older: Parts, newer: Parts): Identical => {
  const a = partsOf(older)
  const b = partsOf(newer)
  if (a === null || b === null) return NOTHING_IDENTICAL
  const same = (x: Readonly<Record<string, string>>, y: Readonly<Record<string, string>>) =>
    new Set(Object.keys(x).filter((k) => Object.hasOwn(y, k) && x[k] === y[k]))
  return { tables: same(a.tables, b.tables), quotaMonths: same(a.months, b.months) }
}

/**
 * The parts of [first, last] (YYYYMMDD) outside the identical months, as ranges: the months of
 * the range that differ, consecutive ones joined.
 */
export const differingRanges = (first: number, last: number, identical: ReadonlySet<string>): Array<readonly [number, number]> => {
  if (identical.size === 0) return [[first, last]]
  const ranges: Array<[number, number]> = []
  let open: [number, number] | null = null
  for (let month = Math.floor(first / 100); month <= Math.floor(last / 100); month = month % 100 === 12 ? month + 89 : month + 1) {
    if (identical.has(String(month))) {
      open = null
      continue
    }
    const from = Math.max(first, month * 100 + 1)
    const to = Math.min(last, month * 100 + 31)
    if (open === null) {
      open = [from, to]
      ranges.push(open)
    } else open[1] = to
  }
  return ranges
}
