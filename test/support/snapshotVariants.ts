/**
 * Many distinct published snapshots, cheaply, from a few real ones (the swap-under-load test and
 * the swap bench). A variant is a real snapshot's rows copied through SnapshotWriter (so it is
 * packed, checked, hashed and named like any snapshot) plus one meta row naming the variant,
 * which gives it its own content hash; its manifest is the source's with the new file, hash and
 * row counts. Nothing skips the checks the API runs before a swap. Variants of one source
 * answer the same bodies; their ETags differ (they name the content hash).
 */
import Database from "better-sqlite3"
import { join } from "node:path"
import { readManifest, writeManifest } from "../../snapshots/Manifest.ts"
import type { QuotasTable } from "../../snapshots/Tables.ts"
import { TABLES } from "../../snapshots/Tables.ts"
import { SnapshotWriter } from "../../snapshots/Writer.ts"

export interface Variant {
  readonly file: string
  readonly contentHash: string
  readonly batchDate: string
  /** The real snapshot it was copied from. */
  readonly source: string
}

/** Writes a variant of `sourceFile` (in `snapshotsDir`) and its manifest; CURRENT is not touched. */
export const deriveVariant = (snapshotsDir: string, sourceFile: string, variant: string): Variant => {
  const source = new Database(join(snapshotsDir, sourceFile), { readonly: true, fileMustExist: true })
  const writer = new SnapshotWriter(snapshotsDir)
  try {
    const meta = source.prepare("SELECT key, value FROM meta").all() as Array<{ key: string; value: string }>
    const batchDate = meta.find((m) => m.key === "batch_date")?.value
    if (batchDate === undefined) throw new Error(`${sourceFile} has no batch_date`)
    writer.insertMeta({ ...Object.fromEntries(meta.filter((m) => m.key !== "batch_date").map((m) => [m.key, m.value])), variant })
    for (const { name, orderBy } of TABLES) {
      if (name === "meta") continue
      const rows = source.prepare(`SELECT * FROM ${name} ORDER BY ${orderBy}`).all()
      if (name === "quotas") writer.insertQuotas(rows as QuotasTable[])
      else writer.insertRows(name, rows as never)
    }
    const finished = writer.finish(batchDate)
    const manifest = readManifest(snapshotsDir, sourceFile)
    writeManifest(snapshotsDir, {
      ...manifest,
      file: finished.file,
      content_hash: finished.contentHash,
      row_counts: finished.rowCounts,
      options: { ...manifest.options, variant_of: sourceFile, variant },
    })
    return { file: finished.file, contentHash: finished.contentHash, batchDate, source: sourceFile }
  } catch (e) {
    writer.abort()
    throw e
  } finally {
    source.close()
  }
}
