/**
 * One request of quota per snapshot download, not per range. A download starts with a request
 * that is counted (no Range, or a range from byte 0, or any other request the rules below do not
 * free); the server then remembers that this key started this batch's download today. A request
 * for one range that begins past byte 0 of the same batch's file (a resume), by the same key, on
 * the same America/Santiago day, with no If-Range or one naming the same file, is not counted.
 * Anything else is: a resume the server has no start for (another day, after a restart of the
 * server, another key) counts once and becomes the start. So a key cannot fetch a file in many
 * free ranges without first paying for its download, and a resumed download costs nothing more.
 * A counted start buys FREE_RESUMES free resumes: the server cannot tell a resume of bytes the
 * client never received from a second copy of bytes it did (`bytes=1-` is the whole file but its
 * first byte), so resumes past that budget count again, and one counted request never buys an
 * unbounded number of copies of the file.
 */

const KEPT = 10_000

/** Free resumes a counted download start buys (a cut transfer rarely needs more than a few). */
export const FREE_RESUMES = 8

/** The downloads started today, by key and batch: `<key id> <batch id>` → the quota day's end (unix seconds) and the free resumes left. */
const started = new Map<string, { readonly resetAt: number; resumesLeft: number }>()

/** Remembers that `keyId` started `batchId`'s download (a counted request), for the quota day ending at `resetAt`. */
export const recordDownloadStart = (keyId: number, batchId: string, resetAt: number): void => {
  const key = `${keyId} ${batchId}`
  started.delete(key)
  started.set(key, { resetAt, resumesLeft: FREE_RESUMES })
  if (started.size > KEPT) started.delete(started.keys().next().value!)
}

/**
 * Whether a resume of `batchId` by `keyId` at `nowSeconds` is free: the key started that download
 * on the current quota day and has free resumes left (one is used).
 */
export const takeFreeResume = (keyId: number, batchId: string, nowSeconds: number): boolean => {
  const start = started.get(`${keyId} ${batchId}`)
  if (start === undefined || nowSeconds >= start.resetAt || start.resumesLeft <= 0) return false
  start.resumesLeft--
  return true
}
