/** The month a file's name suggests, for files whose content does not say it (CMF portfolios). */

const MONTH = /(?<![0-9])((?:19|20)[0-9]{2})(0[1-9]|1[0-2])(?![0-9])/g

/**
 * `ffm_NACI_202605.txt` → `2026-05`: a group of exactly six digits YYYYMM in the last path
 * segment. Null when there is none, or when two different months appear.
 */
export const monthFromName = (name: string): string | null => {
  const base = name.split(/[\\/]/).pop() ?? name
  const months = new Set([...base.matchAll(MONTH)].map((m) => `${m[1]}-${m[2]}`))
  return months.size === 1 ? [...months][0]! : null
}
