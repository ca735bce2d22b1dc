/**
 * From a batch's inputs (raw files by hash) to a snapshot file: parse, stage, write. Shared by
 * `pipeline run` and `pipeline reproduce`, so that an audit rebuilds with exactly the same code.
 */
import { Effect, Schema } from "effect"
import type { FmRegistryRecord } from "../schemas/CmfRecords.ts"
import { intToDate } from "../schemas/Dates.ts"
import { writeManifest } from "../snapshots/Manifest.ts"
import { FORMAT_VERSION } from "../snapshots/Tables.ts"
import { type FinishedSnapshot, SnapshotWriter } from "../snapshots/Writer.ts"
import type { RawFileObserved } from "./ledger/Ledger.ts"
import type { RawStore } from "./RawStore.ts"
import { parseCartola } from "./sources/Cartola.ts"
import type { CmfFileInvalid } from "./sources/CmfFileInvalid.ts"
import { parseFmRegistry } from "./sources/FmRegistry.ts"
import { stage } from "./Stage.ts"
import { type CartolaColumns, toColumns } from "./staging/CartolaColumns.ts"
import type { ParsedCache } from "./staging/ParsedCache.ts"
import { PIPELINE_VERSION } from "./Version.ts"

export class BuildFailed extends Schema.TaggedError<BuildFailed>()("BuildFailed", { reason: Schema.String }) {}

/** Reports parsing progress (a terminal bar, log lines, or nothing). */
export interface Progress {
  readonly start: (files: number) => void
  readonly file: (name: string, rowsSoFar: number) => void
  readonly stop: () => void
}
export const silentProgress: Progress = { start: () => {}, file: () => {}, stop: () => {} }

export interface LoadedInputs {
  readonly registry: ReadonlyArray<FmRegistryRecord>
  readonly cartolas: ReadonlyArray<CartolaColumns>
  readonly repairs: Record<string, number>
  /** The latest quota date in the inputs, YYYY-MM-DD; null when they hold no rows. */
  readonly latestQuotaDate: string | null
}

const add = (into: Record<string, number>, from: Readonly<Record<string, number>>) => {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v
}

/** Parses every input; parsed cartolas come from (and go to) the cache when one is given. */
export const loadInputs = (
  raw: RawStore,
  inputs: ReadonlyArray<RawFileObserved>,
  cache: ParsedCache | null,
  progress: Progress = silentProgress,
): Effect.Effect<LoadedInputs, CmfFileInvalid> =>
  Effect.gen(function* () {
    const repairs: Record<string, number> = {}
    let registry: ReadonlyArray<FmRegistryRecord> = []
    const cartolas: CartolaColumns[] = []
    let latest = 0
    let rows = 0
    progress.start(inputs.length)
    for (const input of inputs) {
      if (input.data_set === "fm_registry") {
        const p = yield* parseFmRegistry(raw.get(input.sha256), input.name)
        registry = p.records
        add(repairs, { registry_repeated_rows: p.duplicatesSkipped, footnote_rows: p.footnotesSkipped })
      } else if (input.data_set === "cartola_diaria") {
        let columns = cache?.get(input.sha256)
        if (columns === undefined) {
          const p = yield* parseCartola(raw.get(input.sha256), input.name)
          columns = toColumns(input.name, p.records, { duplicate_rows: p.duplicatesSkipped, footnote_rows: p.footnotesSkipped })
          cache?.put(input.sha256, columns)
        }
        add(repairs, columns.repairs)
        for (const d of columns.date) if (d > latest) latest = d
        rows += columns.date.length
        cartolas.push(columns)
      }
      progress.file(input.name, rows)
    }
    progress.stop()
    return { registry, cartolas, repairs, latestQuotaDate: latest === 0 ? null : intToDate(latest) }
  })

/** Stages and writes the snapshot of `batchDate` into `snapshotsDir`, with its manifest. */
export const buildSnapshot = (
  snapshotsDir: string,
  inputs: ReadonlyArray<RawFileObserved>,
  loaded: LoadedInputs,
  batchDate: string,
): Effect.Effect<FinishedSnapshot, CmfFileInvalid | BuildFailed> =>
  Effect.gen(function* () {
    let t = performance.now()
    const staged = yield* stage(loaded, batchDate)
    const stageMs = Math.round(performance.now() - t)
    const writer = new SnapshotWriter(snapshotsDir)
    const finished = yield* Effect.try({
      try: () => {
        t = performance.now()
        writer.insertAdministrators(staged.administrators)
        writer.insertFunds(staged.funds)
        writer.insertSeries(staged.series)
        for (const s of staged.quotas.series) writer.insertQuotaColumns(s.assetId, staged.quotas, s.start, s.end)
        const insertMs = Math.round(performance.now() - t)
        const done = writer.finish(batchDate)
        console.error(
          JSON.stringify({ level: "info", stage: "build", batch_date: batchDate, stage_ms: stageMs, insert_ms: insertMs, ...done.timings }),
        )
        return done
      },
      catch: (e) => {
        writer.abort()
        return new BuildFailed({ reason: `snapshot build failed: ${String(e)}` })
      },
    })
    const repairs: Record<string, number> = { ...staged.repairs }
    add(repairs, loaded.repairs)
    writeManifest(snapshotsDir, {
      format_version: FORMAT_VERSION,
      pipeline_version: PIPELINE_VERSION,
      batch_date: batchDate,
      file: finished.file,
      content_hash: finished.contentHash,
      inputs: inputs.map((i) => ({ data_set: i.data_set, name: i.name, sha256: i.sha256, bytes: i.bytes })),
      row_counts: finished.rowCounts,
      repairs,
      options: {},
    })
    return finished
  })
