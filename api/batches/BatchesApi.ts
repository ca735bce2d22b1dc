/** The published batches (contract only; handlers in api/batches/Batches.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { dataErrors, NotFoundResponse } from "../../schemas/ApiErrors.ts"
import { BatchDetail, BatchId, BatchList } from "../../schemas/Batches.ts"
import { QueryInt, withDefault } from "../../schemas/QueryParams.ts"
import { ApiKeyAuth } from "../security/Security.ts"

export const BatchesQuery = Schema.Struct({
  limit: QueryInt(1, 500, "Batches per page, 1–500, default 100").pipe(withDefault(100)),
  offset: QueryInt(0, Number.MAX_SAFE_INTEGER, "Batches skipped, default 0").pipe(withDefault(0)),
  batch: Schema.optionalKey(
    BatchId.annotate({
      description:
        "The list as it stood when this batch was first published: it and the batches published before it, newest first " +
        "(the links of every page name the first page's newest batch, so paging never shifts when a batch is published). Unknown: 404",
    }),
  ),
})

export class BatchesApi extends HttpApiGroup.make("batches")
  .add(
    HttpApiEndpoint.get("batches", "/api/batches", {
      query: BatchesQuery,
      success: BatchList,
      error: dataErrors(NotFoundResponse),
    }).annotate(OpenApi.Summary, "Every published batch, newest first, from the pipeline's ledger; `?batch=` on any data route reads one"),
    HttpApiEndpoint.get("batch", "/api/batches/:batch_id", {
      params: { batch_id: BatchId },
      success: BatchDetail,
      error: dataErrors(NotFoundResponse),
    }).annotate(OpenApi.Summary, "One published batch with its manifest: inputs with their SHA-256, row counts, repairs, corrections"),
  )
  // the ledger, not a snapshot: no batch is pinned; the list's own `batch` cuts it at that batch
  .middleware(ApiKeyAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "Batches",
      description: "The published batches (vintages): each one's content hash, times, manifest, and whether this server still keeps its file",
    }),
  ) {}
