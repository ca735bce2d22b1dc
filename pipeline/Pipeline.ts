/**
 * The daily batch: collect raw files → fold the ledger into the batch's inputs → parse → stage →
 * write the snapshot → publish. Anything wrong rejects the whole batch: a BatchRejected event is
 * appended, CURRENT is not touched, the raw files stay stored. Running the same inputs again
 * appends nothing and publishes nothing new.
 */
import { Effect, Schema } from "effect"
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { publishCurrent, readCurrent } from "../snapshots/Pointer.ts"
import { buildSnapshot, loadInputs, type Progress } from "./Build.ts"
import { applyRetention } from "../snapshots/Retention.ts"
import { collectFolder, collectHttp } from "./Collect.ts"
import { ParsedCache } from "./staging/ParsedCache.ts"
import type { FetchOptions } from "./fetch/CmfHttp.ts"
import { Ledger } from "./ledger/Ledger.ts"
import { RawStore } from "./RawStore.ts"
import { PIPELINE_VERSION } from "./Version.ts"

export type Source =
  | { readonly kind: "folder"; readonly path: string }
  | { readonly kind: "http"; readonly baseUrl: string }

export interface RunOptions {
  readonly dataDir: string
  readonly sources: ReadonlyArray<Source>
  /** Batch date; default: the latest quota date in the inputs. */
  readonly date?: string | undefined
  /** Today in America/Santiago: no batch or row may be dated later. */
  readonly today: string
  readonly historyStart: string
  readonly fetch: FetchOptions
  /** Snapshot files kept: the last N batch dates plus every month's last (manifests stay forever). */
  readonly retentionDays?: number | undefined
  /** Closed months of FM portfolios fetched over HTTP (default 12). */
  readonly portfolioMonths?: number | undefined
  readonly progress?: Progress | undefined
}

export type RunOutcome =
  | { readonly outcome: "published"; readonly batchDate: string; readonly file: string; readonly contentHash: string; readonly rowCounts: Record<string, number> }
  | { readonly outcome: "unchanged"; readonly batchDate: string; readonly file: string }

/** The batch was refused; CURRENT still names the previous snapshot. */
export class BatchRejectedError extends Schema.TaggedError<BatchRejectedError>()("BatchRejectedError", {
  reason: Schema.String,
}) {}

export const paths = (dataDir: string) => ({
  raw: join(dataDir, "raw"),
  ledger: join(dataDir, "ledger.sqlite"),
  snapshots: join(dataDir, "snapshots"),
})

const sameInputs = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join()

/** Removes build leftovers of a crashed run (never a published file). */
const sweepTemporaryFiles = (dir: string): void => {
  if (!existsSync(dir)) return
  for (const name of readdirSync(dir)) if (name.endsWith(".tmp")) rmSync(join(dir, name), { force: true })
}

export const runPipeline = (options: RunOptions): Effect.Effect<RunOutcome, BatchRejectedError> =>
  Effect.gen(function* () {
    const p = paths(options.dataDir)
    mkdirSync(p.snapshots, { recursive: true })
    sweepTemporaryFiles(p.snapshots)
    const raw = new RawStore(p.raw)
    const ledger = yield* Effect.acquireRelease(
      Effect.sync(() => new Ledger(p.ledger)),
      (l) => Effect.sync(() => l.close()),
    )
    const reject = (reason: string, batchDate: string | null = null) =>
      Effect.sync(() =>
        ledger.append({
          type: "BatchRejected",
          payload: { batch_date: batchDate, reason, inputs: ledger.currentInputs().map((i) => i.sha256) },
        }),
      ).pipe(Effect.andThen(Effect.fail(new BatchRejectedError({ reason }))))

    if (options.date !== undefined && options.date > options.today) {
      return yield* reject(`batch date ${options.date} is in the future (today is ${options.today})`, options.date)
    }

    for (const source of options.sources) {
      const collected =
        source.kind === "folder"
          ? collectFolder(ledger, raw, source.path)
          : collectHttp(ledger, raw, {
              baseUrl: source.baseUrl,
              historyStart: options.historyStart,
              until: options.date ?? options.today,
              fetch: options.fetch,
              portfolioMonths: options.portfolioMonths ?? 12,
            })
      yield* collected.pipe(
        Effect.catchTags({
          UnrecognizedFile: (e) =>
            reject(
              e.sha256 === ""
                ? `source folder ${e.file} does not exist`
                : `${e.file} matches no CMF data set we read (stored as raw ${e.sha256.slice(0, 12)})`,
            ),
          CmfSourceError: (e) => reject(`CMF source ${e.url}: ${e.message}`),
        }),
      )
    }

    const inputs = ledger.currentInputs()
    if (!inputs.some((i) => i.data_set === "fm_registry")) return yield* reject("no FM registry (fm_ident2) among the inputs")
    if (!inputs.some((i) => i.data_set === "cartola_diaria")) return yield* reject("no daily values (cartola diaria) among the inputs")

    const loaded = yield* loadInputs(raw, inputs, new ParsedCache(options.dataDir), options.progress).pipe(
      Effect.catchTag("CmfFileInvalid", (e) => reject(e.message)),
    )
    const latest = loaded.latestQuotaDate
    if (latest === null) return yield* reject("the daily values hold no rows")
    if (latest > options.today) return yield* reject(`daily values dated ${latest}, after today (${options.today})`)
    const batchDate = options.date ?? latest

    const shas = inputs.map((i) => i.sha256)
    const published = ledger.events("BatchPublished").map((e) => e.payload)
    const built = ledger.events("BatchBuilt").map((e) => e.payload)
    const same = built.findLast((b) => b.batch_date === batchDate && sameInputs(b.inputs, shas))
    if (
      same !== undefined &&
      same.pipeline_version === PIPELINE_VERSION &&
      existsSync(join(p.snapshots, same.file)) &&
      readCurrent(p.snapshots) === same.file &&
      published.some((e) => e.file === same.file)
    ) {
      return { outcome: "unchanged", batchDate, file: same.file } satisfies RunOutcome
    }

    const finished = yield* buildSnapshot(p.snapshots, inputs, loaded, batchDate).pipe(
      Effect.catchTag("CmfFileInvalid", (e) => reject(e.message, batchDate)),
      Effect.catchTag("BuildFailed", (e) => reject(e.reason, batchDate)),
    )
    ledger.append({
      type: "BatchBuilt",
      payload: { batch_date: batchDate, file: finished.file, content_hash: finished.contentHash, pipeline_version: PIPELINE_VERSION, inputs: shas },
    })
    publishCurrent(p.snapshots, finished.file)
    ledger.append({ type: "BatchPublished", payload: { batch_date: batchDate, file: finished.file, content_hash: finished.contentHash } })
    applyRetention(p.snapshots, options.retentionDays ?? 14)
    return {
      outcome: "published",
      batchDate,
      file: finished.file,
      contentHash: finished.contentHash,
      rowCounts: finished.rowCounts,
    } satisfies RunOutcome
  }).pipe(Effect.scoped)
