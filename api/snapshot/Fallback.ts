/**
 * What stands in for CURRENT when nothing serves and CURRENT names nothing that passes its checks
 * (missing, garbage, a refused file): the newest file the pipeline's ledger says was made current
 * (snapshots/PublishedHistory.ts: published, or rolled back to) that is still on disk and not
 * refused as it is now. A data folder without a ledger (a copy, an rsync replica) has none.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { type PublishedFile, publishedNewestFirst } from "../../snapshots/PublishedHistory.ts"

export type FallbackChoice =
  | { readonly _tag: "Candidate"; readonly file: string }
  /** Nothing to check: how many files the ledger lists, or why it could not be read. */
  | { readonly _tag: "None"; readonly published: number; readonly ledgerError: string | null }

/** The next file to check in CURRENT's stead; `refused` says whether a file was refused as it is now. */
export const chooseFallback = (ledger: string, dir: string, refused: (file: string) => boolean): FallbackChoice => {
  if (!existsSync(ledger)) return { _tag: "None", published: 0, ledgerError: `no ledger at ${ledger}` }
  let published: ReadonlyArray<PublishedFile>
  try {
    published = publishedNewestFirst(ledger)
  } catch (e) {
    return { _tag: "None", published: 0, ledgerError: `the ledger ${ledger} could not be read: ${String(e)}` }
  }
  const next = published.find((p) => existsSync(join(dir, p.file)) && !refused(p.file))
  return next === undefined ? { _tag: "None", published: published.length, ledgerError: null } : { _tag: "Candidate", file: next.file }
}
