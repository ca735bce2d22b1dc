/** Publications recorded in a data folder's ledger (the pipeline's own Ledger), in order, as the pipeline records them. */
import { join } from "node:path"
import { SqliteLedger } from "../../pipeline/ledger/Ledger.ts"

export interface Published {
  readonly batchDate: string
  readonly file: string
  readonly contentHash: string
}

export const recordPublished = (dataDir: string, ...published: ReadonlyArray<Published>): void => {
  const ledger = new SqliteLedger(join(dataDir, "ledger.sqlite"))
  try {
    for (const p of published) {
      ledger.append({ type: "BatchPublished", payload: { batch_date: p.batchDate, file: p.file, content_hash: p.contentHash } })
    }
  } finally {
    ledger.close()
  }
}
