/**
 * `pipeline rollback --to D [--file F]`: re-points CURRENT to the latest snapshot published for
 * date D (or to F, one of D's published builds: a day rebuilt after a CMF correction has several),
 * if retention kept its file and it still passes the checks the API makes, and records the fact
 * in the ledger (BatchRolledBack) and in STATUS.json. The API swaps to it by itself.
 *
 * A rollback holds: a later run that observes no new raw file since the rollback publishes
 * nothing and says so (see `rollbackHold`, run/RollbackHold.ts), so the daily job does not silently undo an explicit
 * decision. New CMF files lift the hold; so does rolling forward with `pipeline rollback --to`.
 */
import { Clock, Effect, Schema } from "effect"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { isIsoDate } from "../schemas/Dates.ts"
import { contentHashFor, rowCounts } from "../snapshots/ContentHash.ts"
import { readManifest } from "../snapshots/Manifest.ts"
import { publishCurrent, readCurrent } from "../snapshots/Pointer.ts"
import { SnapshotReader } from "../snapshots/Reader.ts"
import { writeStatus } from "../snapshots/Status.ts"
import { TABLES } from "../snapshots/Tables.ts"
import { argsOrExit } from "./CliArgs.ts"
import { dataDir as dataDirSetting } from "./daemon/RunConfig.ts"
import { readSettings } from "./Settings.ts"
import { lockedMessage, withRunLock } from "./daemon/RunLock.ts"
import { Ledger } from "./ledger/Ledger.ts"
import { PIPELINE_VERSION } from "./Version.ts"
import { withJsonLogs } from "../snapshots/Log.ts"

export class RollbackRefused extends Schema.TaggedError<RollbackRefused>()("RollbackRefused", {
  reason: Schema.String,
}) {}

export interface RollbackResult {
  readonly batchDate: string
  readonly file: string
  /** What CURRENT named before. */
  readonly previous: string | null
  /** CURRENT already named this file: nothing was changed or recorded. */
  readonly alreadyCurrent: boolean
  /** The files published for the date, oldest first (more than one: `--file` chooses). */
  readonly builds: ReadonlyArray<string>
}

/** Why the file may not serve (the API's own checks, short of nothing); null when it may. */
export const snapshotProblem = (dir: string, file: string): string | null => {
  let reader: SnapshotReader | null = null
  try {
    const manifest = readManifest(dir, file)
    if (manifest.file !== file || !file.includes(manifest.content_hash.slice(0, 16))) return "its manifest names another file"
    reader = new SnapshotReader(join(dir, file))
    if (reader.batchDate !== manifest.batch_date) return "its batch date differs from its manifest's"
    const counts = rowCounts(reader.db)
    for (const { name } of TABLES) {
      if (counts[name] !== manifest.row_counts[name]) return `row count of ${name} differs from its manifest`
    }
    if (!reader.quickCheck()) return "PRAGMA quick_check failed"
    // the whole content, as published (a value changed in place keeps the counts and passes quick_check)
    const hash = contentHashFor(reader.db, manifest)
    return hash === manifest.content_hash ? null : `its content hash ${hash} differs from its manifest's (the file was altered since it was published)`
  } catch (e) {
    return String(e)
  } finally {
    reader?.db.close()
  }
}

export const rollback = (
  dataDir: string,
  date: string,
  options: { readonly reason?: string | undefined; readonly file?: string | undefined } = {},
) =>
  Effect.gen(function* () {
    const startedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
    const dir = join(dataDir, "snapshots")
    const ledger = yield* Ledger
    const published = ledger.events("BatchPublished").map((e) => e.payload)
    const ofDate = published.filter((p) => p.batch_date === date)
    const builds = [...new Set(ofDate.map((p) => p.file))]
    if (ofDate.length === 0) {
      const dates = [...new Set(published.map((p) => p.batch_date))].sort().slice(-5)
      return yield* new RollbackRefused({
        reason: `no batch was published for ${date}${dates.length > 0 ? ` (latest published: ${dates.join(", ")})` : ""}`,
      })
    }
    const target = options.file === undefined ? ofDate.at(-1)! : ofDate.findLast((p) => p.file === options.file)
    if (target === undefined) {
      return yield* new RollbackRefused({ reason: `${options.file} was not published for ${date} (its builds: ${builds.join(", ")})` })
    }
    if (!existsSync(join(dir, target.file))) {
      return yield* new RollbackRefused({
        reason:
          `the snapshot of ${date} (${target.file}) was removed by retention; rebuild it with ` +
          `\`./fds pipeline reproduce --date ${date} --restore\`, then roll back again`,
      })
    }
    const problem = snapshotProblem(dir, target.file)
    if (problem !== null) return yield* new RollbackRefused({ reason: `the snapshot of ${date} (${target.file}) may not serve: ${problem}` })
    const previous = readCurrent(dir)
    if (previous === target.file) return { batchDate: date, file: target.file, previous, alreadyCurrent: true, builds } satisfies RollbackResult
    publishCurrent(dir, target.file)
    ledger.append({
      type: "BatchRolledBack",
      payload: { batch_date: date, file: target.file, content_hash: target.content_hash, from_file: previous, reason: options.reason ?? null },
    })
    writeStatus(dir, {
      outcome: "rolled_back",
      batch_date: date,
      file: target.file,
      reason: `rolled back from ${previous ?? "nothing"}${options.reason === undefined ? "" : `: ${options.reason}`}`,
      started_at: startedAt,
      finished_at: new Date(yield* Clock.currentTimeMillis).toISOString(),
      pipeline_version: PIPELINE_VERSION,
    })
    return { batchDate: date, file: target.file, previous, alreadyCurrent: false, builds } satisfies RollbackResult
  })

/** `./fds pipeline rollback --to YYYY-MM-DD [--file SNAPSHOT] [--reason TEXT]`: exit 0 done, 1 refused, 2 bad arguments, 3 busy. */
export const rollbackCommand = async (args: string[]): Promise<void> => {
  const { values } = argsOrExit({ args, options: { to: { type: "string" }, file: { type: "string" }, reason: { type: "string" } } })
  if (values.to === undefined || !isIsoDate(values.to)) {
    console.error("fds: rollback needs --to YYYY-MM-DD")
    process.exit(2)
  }
  const dataDir = readSettings(dataDirSetting)
  const rolledBack = rollback(dataDir, values.to, { reason: values.reason, file: values.file })
  const exit = await Effect.runPromiseExit(withJsonLogs(withRunLock(dataDir, rolledBack.pipe(Effect.provide(Ledger.layer(join(dataDir, "ledger.sqlite")))))))
  if (exit._tag === "Success") {
    const r = exit.value
    console.log(
      r.alreadyCurrent
        ? `unchanged: CURRENT already names ${r.file} (${r.batchDate})`
        : `rolled back to ${r.batchDate}: CURRENT names ${r.file} (was ${r.previous ?? "nothing"}); the API swaps to it by itself`,
    )
    if (r.builds.length > 1) {
      console.log(`${r.batchDate} has ${r.builds.length} published builds, oldest first: ${r.builds.join(", ")}; --file chooses one`)
    }
    return
  }
  const failure = exit.cause.reasons.find((r) => r._tag === "Fail")?.error
  if (failure?._tag === "RunLocked") {
    console.error(`fds: ${lockedMessage(failure)}`)
    process.exit(3)
  }
  console.error(`rollback refused: ${failure?._tag === "RollbackRefused" ? failure.reason : String(exit.cause)}`)
  console.error("CURRENT was not changed.")
  process.exit(1)
}
