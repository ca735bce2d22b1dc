/**
 * How market answers leave: JSON text written directly (the shapes are the schemas'; tests check
 * them), and ready bytes sent as stored (gzip-compressed when the client accepts gzip), or with
 * their batch_id written in when they carry a meta.
 */
import { Effect } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { BadRequest, InvalidParameter } from "../../schemas/ApiErrors.ts"
import type { Universe } from "../../schemas/MarketUniverse.ts"
import type { ReadyBytes } from "../../snapshots/readers/MarketReady.ts"
import { admitsCoding } from "../http/Caching.ts"
import { read } from "../snapshot/Pinned.ts"
import { stampedBytes } from "./StampBatchId.ts"

/** True when Accept-Encoding admits gzip (named with q > 0, or through `*` when gzip is not named). */
export const acceptsGzip = (request: HttpServerRequest.HttpServerRequest): boolean =>
  admitsCoding(request.headers["accept-encoding"], "gzip")

export const jsonText = (text: string): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(text, { contentType: "application/json" })

/**
 * JSON already encoded, e.g. an answer kept per snapshot: the same object each time, so its
 * compressed copies are kept too (api/http/Caching.ts).
 */
export const jsonBytes = (bytes: Uint8Array): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.uint8Array(bytes, { contentType: "application/json" })

export const readyResponse = (ready: ReadyBytes, gzip: boolean): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.uint8Array(gzip ? ready.gzip : ready.json, {
    contentType: "application/json",
    headers: gzip ? { "content-encoding": "gzip", vary: "accept-encoding" } : { vary: "accept-encoding" },
  })

/**
 * A stored answer that carries `meta`, with its batch_id written in (StampBatchId.ts): sent as
 * identity bytes, since the stored gzip copy lacks the id; api/http/Caching.ts compresses them,
 * once per snapshot.
 */
export const stampedReadyResponse = (ready: ReadyBytes, batchId: string): HttpServerResponse.HttpServerResponse =>
  jsonBytes(stampedBytes(ready.json, batchId))

/** 422 for a date after the published batch: its data does not exist yet. */
export const afterBatch = (parameter: string, date: string, batchDate: string) =>
  new InvalidParameter({
    parameter,
    message: `invalid query parameter ${parameter}: ${date} is after the published batch date ${batchDate}`,
  })

/** Fails with afterBatch when `date` is after the request's batch date (a parameter check that needs only that date). */
export const notAfterBatch = Effect.fn(function* (parameter: string, date: string | undefined) {
  if (date === undefined) return
  const batchDate = yield* read((r) => r.batchDate)
  if (date > batchDate) return yield* afterBatch(parameter, date, batchDate)
})

/** 400 for universe=as_of without `date`: the universe of which date is not said (the parameter missing is named). */
export const asOfNeedsDate = Effect.fn(function* (universe: Universe | undefined, date: string | undefined) {
  if (universe === "as_of" && date === undefined) {
    return yield* new BadRequest({ parameter: "date", message: "missing query parameter date: required with universe=as_of" })
  }
})
