/**
 * A published batch as the alert mails need it, found in the ledger: its BatchPublished event
 * (the latest for a file or a date, or the one of the file CURRENT names) and the file CURRENT
 * named just before it — the previous BatchPublished or BatchRolledBack, in ledger order.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import type { PublishedBatch } from "../accounts/Alerts.ts"
import { SqliteLedger } from "../pipeline/ledger/Ledger.ts"
import { paths } from "../pipeline/RunOptions.ts"
import { readCurrent } from "../snapshots/Pointer.ts"

export type WhichBatch = { readonly file: string } | { readonly date: string } | "current"

/** The batch is not there to send alerts for; the message says why. */
export class BatchNotFound extends Error {}

interface Move {
  readonly seq: number
  readonly published: boolean
  readonly batchDate: string
  readonly file: string
  readonly contentHash: string
}

export const findPublishedBatch = (dataDir: string, which: WhichBatch): PublishedBatch => {
  const p = paths(dataDir)
  // Opening the ledger creates it: a data folder the pipeline never ran in has nothing to find.
  if (!existsSync(p.ledger)) throw new BatchNotFound(`no batch was published in ${dataDir} (no ledger)`)
  const ledger = new SqliteLedger(p.ledger)
  try {
    const moves: Move[] = [
      ...ledger.events("BatchPublished").map((e) => ({ seq: e.seq, published: true, ...fields(e.payload) })),
      ...ledger.events("BatchRolledBack").map((e) => ({ seq: e.seq, published: false, ...fields(e.payload) })),
    ].sort((a, b) => a.seq - b.seq)
    const current = which === "current" ? readCurrent(p.snapshots) : null
    const names = (m: Move): boolean =>
      which === "current" ? m.file === current : "file" in which ? m.file === which.file : m.batchDate === which.date
    const target = moves.findLast((m) => m.published && names(m))
    if (target === undefined) {
      throw new BatchNotFound(
        which === "current"
          ? `CURRENT names ${current ?? "nothing"}, which no BatchPublished event names`
          : "file" in which
            ? `no batch was published as ${which.file}`
            : `no batch was published for ${which.date}`,
      )
    }
    if (!existsSync(join(p.snapshots, target.file))) {
      throw new BatchNotFound(
        `the snapshot of ${target.batchDate} (${target.file}) was removed by retention; ` +
          `\`./fds pipeline reproduce --date ${target.batchDate} --restore\` brings it back`,
      )
    }
    return {
      snapshotsDir: p.snapshots,
      batchDate: target.batchDate,
      file: target.file,
      contentHash: target.contentHash,
      previousFile: moves.findLast((m) => m.seq < target.seq)?.file ?? null,
    }
  } finally {
    ledger.close()
  }
}

const fields = (payload: { readonly batch_date: string; readonly file: string; readonly content_hash: string }) => ({
  batchDate: payload.batch_date,
  file: payload.file,
  contentHash: payload.content_hash,
})
