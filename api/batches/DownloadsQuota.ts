/**
 * One request of quota per snapshot download, not per range. A download starts with a request
 * that is counted (no Range, or a range from byte 0, or any other request the rules below do not
 * free); the server then remembers that this key started this batch's download today. A request
 * for one range that begins past byte 0 of the same batch's file (a resume), by the same key, on
 * the same America/Santiago day, with no If-Range or one naming the same file, is not counted.
 * Anything else is: a resume the server has no start for (another day, after a restart of the
 * server, another key) counts once and becomes the start. So a key cannot fetch a file in many
 * free ranges without first paying for its download, and a resumed download costs nothing more.
 */

const KEPT = 10_000

/** The downloads started today, by key and batch: `<key id> <batch id>` → the end of that quota day (unix seconds). */
const started = new Map<string, number>()

/** Remembers that `keyId` started `batchId`'s download, for the quota day ending at `resetAt`. */
export const recordDownloadStart = (keyId: number, batchId: string, resetAt: number): void => {
  const key = `${keyId} ${batchId}`
  started.delete(key)
  started.set(key, resetAt)
  if (started.size > KEPT) started.delete(started.keys().next().value!)
}

/** Whether `keyId` started `batchId`'s download on the quota day that is current at `nowSeconds`. */
export const downloadStartedToday = (keyId: number, batchId: string, nowSeconds: number): boolean => {
  const resetAt = started.get(`${keyId} ${batchId}`)
  return resetAt !== undefined && nowSeconds < resetAt
}
