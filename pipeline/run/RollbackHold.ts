/** Whether an explicit rollback still holds CURRENT (Rollback.ts): the run then publishes nothing. */
import { readCurrent } from "../../snapshots/Pointer.ts"
import type { Ledger } from "../ledger/Ledger.ts"

/**
 * The rollback that still holds CURRENT, or null: the latest BatchRolledBack comes after the
 * latest BatchPublished, CURRENT still names its file, no raw file was observed since, and it
 * is not the newest build anyway (a roll forward to the newest batch holds nothing back).
 */
export const rollbackHold = (
  ledger: Ledger["Service"],
  snapshotsDir: string,
): { readonly batchDate: string; readonly file: string; readonly recordedAt: string } | null => {
  const last = ledger.events("BatchRolledBack").at(-1)
  if (last === undefined) return null
  const lastPublished = ledger.events("BatchPublished").at(-1)?.seq ?? 0
  const lastObserved = Math.max(
    ...(["RawFileObserved", "RawFileReinstated", "RawFileWithdrawn"] as const).map((t) => ledger.events(t).at(-1)?.seq ?? 0),
  )
  if (lastPublished > last.seq || lastObserved > last.seq) return null
  if (readCurrent(snapshotsDir) !== last.payload.file) return null
  if (ledger.events("BatchBuilt").at(-1)?.payload.file === last.payload.file) return null
  return { batchDate: last.payload.batch_date, file: last.payload.file, recordedAt: last.recordedAt }
}
