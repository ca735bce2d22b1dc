/**
 * Handlers of /api/batches: the published batches from the pipeline's ledger
 * (snapshots/PublishedHistory.ts, through the snapshot store), each with whether its file is still
 * on this server and whether it is the batch served now; one batch with its manifest.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { NotFound } from "../../schemas/ApiErrors.ts"
import { type Manifest, readManifest } from "../../snapshots/Manifest.ts"
import { parquetFiles } from "../../snapshots/parquet/ParquetFiles.ts"
import type { PublishedBatch } from "../../snapshots/PublishedHistory.ts"
import { Api } from "../Api.ts"
import { offsetPageLinks } from "../http/PageLinks.ts"
import { SnapshotStore } from "../snapshot/SnapshotStore.ts"

/** The batch a request naming none reads: in a fleet, the fleet's current one (whatever this member serves meanwhile). */
const currentFile = (store: SnapshotStore["Service"]): string | null => {
  const fleet = store.fleetCurrent()
  return fleet !== null ? `${fleet.batchId}.sqlite` : (store.current()?.file ?? null)
}

const attributes = (batch: PublishedBatch, retained: (file: string) => boolean, served: string | null) => ({
  batch_date: batch.batchDate,
  content_hash: batch.contentHash,
  built_at: batch.builtAt,
  published_at: batch.publishedAt,
  superseded_at: batch.supersededAt,
  current_intervals: batch.currentIntervals,
  pipeline_version: batch.pipelineVersion,
  input_count: batch.inputCount,
  retained: retained(batch.file),
  current: batch.file === served,
})

/** The manifest kept next to the batch's file (kept when retention removes the file); null when it is missing or unreadable. */
const manifestOf = (dir: string, batch: PublishedBatch): Manifest | null => {
  try {
    return readManifest(dir, batch.file)
  } catch {
    return null
  }
}

export const BatchesHandlers = HttpApiBuilder.group(Api, "batches", (handlers) =>
  handlers
    .handle(
      "batches",
      Effect.fn(function* ({ query }) {
        const store = yield* SnapshotStore
        const all = yield* store.published
        // newest first by first publication: the list as of a batch is the tail that starts at it
        const from = query.batch === undefined ? 0 : all.findIndex((batch) => batch.id === query.batch)
        if (from < 0) {
          return yield* new NotFound({ message: `no batch ${query.batch} was published (GET /api/batches lists them)`, parameter: "batch" })
        }
        const published = all.slice(from)
        const served = currentFile(store)
        const page = { total: published.length, limit: query.limit, offset: query.offset }
        return {
          data: published.slice(query.offset, query.offset + query.limit).map((batch) => ({
            id: batch.id,
            type: "batch" as const,
            attributes: attributes(batch, store.retained, served),
          })),
          ...page,
          links: yield* offsetPageLinks(page, published[0]?.id ?? null),
        }
      }),
    )
    .handle(
      "batch",
      Effect.fn(function* ({ params }) {
        const store = yield* SnapshotStore
        const batch = yield* store.lookup(params.batch_id)
        if (batch === null) {
          return yield* new NotFound({ message: `no batch ${params.batch_id} was published (GET /api/batches lists them)`, parameter: "batch_id" })
        }
        const manifest = manifestOf(store.dir, batch)
        if (manifest === null) {
          return yield* new NotFound({ message: `the manifest of batch ${batch.id} is not on this server`, parameter: "batch_id" })
        }
        const served = currentFile(store)
        return { data: { id: batch.id, type: "batch" as const, attributes: { ...attributes(batch, store.retained, served), manifest, parquet_files: parquetFiles(store.dir, batch.id) } } }
      }),
    ),
)
