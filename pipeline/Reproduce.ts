/**
 * `pipeline reproduce --date D`: rebuilds D's snapshot from the ledger and the raw store alone
 * (no earlier parse cache, no published file) and compares its content hash with the one recorded when D
 * was built. Auditors get a yes or no; "version differs" says the pipeline changed since.
 */

import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { Effect, Layer, Schema } from "effect"
import { contentHash } from "../snapshots/ContentHash.ts"
import { manifestPath } from "../snapshots/Manifest.ts"
import { writeParquet } from "../snapshots/parquet/WriteParquet.ts"
import { batchIdOfFile } from "../schemas/Batches.ts"
import { buildSnapshot } from "./Build.ts"
import { loadInputs } from "./Load.ts"
import { Ledger, type RawFileObserved } from "./ledger/Ledger.ts"
import { currentOffload, offloadLayer } from "./offload/Offload.ts"
import { paths } from "./RunOptions.ts"
import { RawStore } from "./RawStore.ts"
import { parseAhead } from "./ParseAhead.ts"
import { DiskParsedCache } from "./ParsedCache.ts"
import { PIPELINE_VERSION } from "./Version.ts"

export class ReproduceFailed extends Schema.TaggedError<ReproduceFailed>()("ReproduceFailed", {
  reason: Schema.String,
}) {}

export interface ReproduceResult {
  readonly outcome: "match" | "hash_differs" | "version_differs"
  readonly batchDate: string
  readonly file: string
  readonly expectedHash: string
  readonly actualHash: string
  readonly builtWith: string
  readonly reproducedWith: string
  /** True when the snapshot file was missing (retention), or altered, and the rebuilt one was put back. */
  readonly restored: boolean
  /**
   * The file on disk against the recorded hash: absent (retention), the same, or altered since it
   * was published (its content hash is another: a rebuild that matches does not vouch for it).
   */
  readonly onDisk: { readonly state: "absent" | "same" } | { readonly state: "altered"; readonly hash: string }
}

/** The content hash of a snapshot file on disk (read-only), or an error's text when it cannot be read. */
const hashOnDisk = (path: string): string => {
  let db: Database.Database | null = null
  try {
    db = new Database(path, { readonly: true, fileMustExist: true })
    return contentHash(db)
  } catch (e) {
    return `unreadable (${String(e)})`
  } finally {
    db?.close()
  }
}

type ReproduceOptions = { readonly restore: boolean; readonly file?: string | undefined }

/** Rebuilds from the ledger and the raw store of the context; `dataDir` holds the snapshots and the scratch folder. */
export const reproduce = (dataDir: string, batchDate: string, options: ReproduceOptions) =>
  Effect.gen(function* () {
    const p = paths(dataDir)
    const ledger = yield* Ledger
    // the latest build of the date, or the one `file` names (a day rebuilt after a CMF correction has several)
    const builds = ledger
      .events("BatchBuilt")
      .map((e) => e.payload)
      .filter((b) => b.batch_date === batchDate)
    if (builds.length === 0) return yield* new ReproduceFailed({ reason: `no batch was built for ${batchDate}` })
    const built = options.file === undefined ? builds.at(-1) : builds.findLast((b) => b.file === options.file)
    if (built === undefined) {
      const files = [...new Set(builds.map((b) => b.file))].join(", ")
      return yield* new ReproduceFailed({ reason: `${options.file} was not built for ${batchDate} (its builds: ${files})` })
    }
    const raw = yield* RawStore
    const inputs: RawFileObserved[] = []
    // One pass over the ledger (a lookup per input re-read every event: ~25 s at full scale).
    const observedBySha = new Map(ledger.events("RawFileObserved").map((e) => [e.payload.sha256, e.payload]))
    for (const sha of built.inputs) {
      const observed = observedBySha.get(sha)
      if (observed === undefined) return yield* new ReproduceFailed({ reason: `the ledger has no raw file ${sha}` })
      inputs.push(observed)
    }
    const scratch = mkdtempSync(join(dataDir, "reproduce-"))
    try {
      // A parse cache of its own, empty and thrown away with the scratch folder: nothing parsed
      // earlier is used, and staging reads every file from it when it needs it (as a run does)
      // rather than holding every file's records and columns in memory.
      const cache = new DiskParsedCache(scratch)
      const offload = yield* currentOffload
      const ahead = yield* Effect.promise(() => parseAhead(offload, raw, inputs, cache))
      if (ahead !== null) yield* Effect.log("parsed ahead").pipe(Effect.annotateLogs({ stage: "parse_ahead", ...ahead }))
      const loaded = yield* loadInputs(raw, inputs, cache)
      const finished = yield* buildSnapshot(scratch, inputs, loaded, batchDate)
      const match = finished.contentHash === built.content_hash
      let restored = false
      const target = join(p.snapshots, built.file)
      const diskHash = existsSync(target) ? hashOnDisk(target) : null
      const onDisk: ReproduceResult["onDisk"] =
        diskHash === null ? { state: "absent" } : diskHash === built.content_hash ? { state: "same" } : { state: "altered", hash: diskHash }
      if (match && options.restore && onDisk.state !== "same") {
        mkdirSync(p.snapshots, { recursive: true })
        renameSync(finished.path, target)
        if (!existsSync(manifestPath(p.snapshots, built.file))) {
          renameSync(manifestPath(scratch, finished.file), manifestPath(p.snapshots, built.file))
        }
        // its Parquet files (retention removed them with it): the same rows give the same bytes
        writeParquet(p.snapshots, batchIdOfFile(built.file))
        restored = true
      }
      return {
        outcome: match ? "match" : built.pipeline_version !== PIPELINE_VERSION ? "version_differs" : "hash_differs",
        batchDate,
        file: built.file,
        expectedHash: built.content_hash,
        actualHash: finished.contentHash,
        builtWith: built.pipeline_version,
        reproducedWith: PIPELINE_VERSION,
        restored,
        onDisk,
      } satisfies ReproduceResult
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }).pipe(
    Effect.catchTags({
      CmfFileInvalid: (e) => Effect.fail(new ReproduceFailed({ reason: e.message })),
      BuildFailed: (e) => Effect.fail(new ReproduceFailed({ reason: e.reason })),
    }),
  )

/** `pipeline reproduce`: the ledger and the raw store of the data folder (its parse cache is not used). */
export const reproduceLive = (dataDir: string, batchDate: string, options: ReproduceOptions) => {
  const p = paths(dataDir)
  return reproduce(dataDir, batchDate, options).pipe(Effect.provide(Layer.mergeAll(Ledger.layer(p.ledger), RawStore.layer(p.raw), offloadLayer)))
}
