/** The corrections feed: what changed from one published batch to another (#18 item 3). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BatchNotRetainedResponse, dataErrors, InvalidParameterResponse, NotFoundResponse } from "../../schemas/ApiErrors.ts"
import { BatchId } from "../../schemas/Batches.ts"
import { ChangeList } from "../../schemas/Changes.ts"
import { QueryInt, withDefault } from "../../schemas/QueryParams.ts"
import { ApiKeyAuth } from "../security/Security.ts"
import { PinCurrentSnapshot } from "../snapshot/Pinned.ts"

/** Items per page: the default and the most a page holds. */
export const CHANGES_LIMIT = { default: 1000, max: 5000 } as const

const BatchIdParam = (description: string) => BatchId.annotate({ description })

export const ChangesQuery = Schema.Struct({
  from_batch: BatchIdParam("The older batch: the one your copy reflects (<batch date>-<16 hex digits of its content hash>, meta.batch_id)"),
  to_batch: Schema.optionalKey(
    BatchIdParam("The newer batch; default: the cursor's, else the current batch. Not older than from_batch (same date: either way)"),
  ),
  limit: QueryInt(1, CHANGES_LIMIT.max, `Items per page, 1–${CHANGES_LIMIT.max}, default ${CHANGES_LIMIT.default}`).pipe(
    withDefault(CHANGES_LIMIT.default),
  ),
  cursor: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(1000, { message: "at most 1000 characters" })).annotate({
      description: "Where the page starts: meta.next_cursor of the previous page (opaque); absent for the first page",
    }),
  ),
})
export type ChangesQuery = typeof ChangesQuery.Type

export class ChangesApi extends HttpApiGroup.make("changes")
  .add(
    HttpApiEndpoint.get("changes", "/api/changes", {
      query: ChangesQuery,
      success: ChangeList,
      error: dataErrors(InvalidParameterResponse, NotFoundResponse, BatchNotRetainedResponse),
    }).annotate(
      OpenApi.Summary,
      "What changed from one published batch to another: restated daily values, series appeared, ended or renamed, TAC and registry changes",
    ),
  )
  // the current batch is pinned inside the key check (to_batch's default); `?batch=` means nothing here: from_batch and to_batch name the batches
  .middleware(PinCurrentSnapshot)
  .middleware(ApiKeyAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "Changes",
      description:
        "The corrections feed between two retained batches, paged by a cursor: a client that keeps a copy syncs from the batch it has to the current one",
    }),
  ) {}
