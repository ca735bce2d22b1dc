/**
 * The `meta` times of the FI routes (and of `/api/asset_providers?scope=all`), deterministic per
 * batch: derived from the batch date alone, never from the wall clock, so a batch answers the same
 * bytes whenever it is read.
 *   generated_at = the first instant after the batch date in America/Santiago (a batch of date D
 *                  is complete once D has ended);
 *   expires_at   = the generated_at of the next expected batch: the next weekday after D (CMF
 *                  publishes on business days; a holiday makes the real next batch later).
 */

import { nextSantiagoMidnight } from "../../accounts/SantiagoTime.ts"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import type { FiMeta } from "../../schemas/FiStatus.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { fiCutoff } from "../../snapshots/readers/FiCatalog.ts"

const DAY_MS = 86_400_000

/** Midday UTC of the date is morning of the same date in Santiago (UTC−3/−4). */
const midday = (iso: string): Date => new Date(`${iso}T12:00:00Z`)
const isoOf = (d: Date): string => d.toISOString().slice(0, 10)
const instant = (seconds: number): string => `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`

/** The first weekday after `iso` (YYYY-MM-DD). */
export const nextWeekday = (iso: string): string => {
  let d = new Date(midday(iso).getTime() + DAY_MS)
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d = new Date(d.getTime() + DAY_MS)
  return isoOf(d)
}

export interface BatchTimes {
  readonly generated_at: string
  readonly expires_at: string
}

const memo = new Map<string, BatchTimes>()

/** generated_at and expires_at of the batch of `batchDate` (see the file comment). */
export const batchTimes = (batchDate: string): BatchTimes => {
  let times = memo.get(batchDate)
  if (times === undefined) {
    times = {
      generated_at: instant(nextSantiagoMidnight(midday(batchDate))),
      expires_at: instant(nextSantiagoMidnight(midday(nextWeekday(batchDate)))),
    }
    if (memo.size > 64) memo.clear()
    memo.set(batchDate, times)
  }
  return times
}

/** The `meta` every `/api/fi/*` answer carries. */
export const fiMeta = (reader: SnapshotReader): FiMeta => ({
  batch_id: batchIdOfFile(reader.path),
  ...batchTimes(reader.batchDate),
  batch_date: reader.batchDate,
  cutoff_date: fiCutoff(reader),
})
