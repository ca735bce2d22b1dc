/**
 * Handlers of the download routes. The snapshot file is streamed from an open file handle held in
 * the request's scope (a file retention removes meanwhile still reads to its end), never loaded;
 * its SHA-256 is computed once per file (DownloadsDigest.ts). The route's key is checked without
 * counting (api/security/SecurityLive.ts): the handler counts, once per download
 * (DownloadsQuota.ts says which requests are resumes). The CSV files (days.csv.gz, series.csv)
 * are counted per request, like any data route; series.csv is read on the batch's lease, after the
 * checks `?batch=` runs; days.csv.gz on a connection of its own (DownloadsDaysCsv.ts). A batch's
 * Parquet files (snapshots/parquet/) are sent as the snapshot is (sendFile), each its own download.
 */
import { existsSync } from "node:fs"
import type { FileHandle } from "node:fs/promises"
import { open } from "node:fs/promises"
import { dirname, join } from "node:path"
import { Effect } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { KeyStore } from "../../accounts/KeyStore.ts"
import { BatchNotRetained, NotFound, QuotaExceeded, ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { BATCH_ID_HEADER } from "../../schemas/Batches.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { PARQUET_FILE, parquetDir } from "../../snapshots/parquet/ParquetFiles.ts"
import { Api } from "../Api.ts"
import { cameAsHead } from "../http/RequestLog.ts"
import { CurrentKey } from "../security/Security.ts"
import { quotaHeaders } from "../security/SecurityLive.ts"
import { SnapshotStore, snapshotDamaged } from "../snapshot/SnapshotStore.ts"
import { PARQUET_MEDIA_TYPE, SNAPSHOT_MEDIA_TYPE } from "./DownloadsApi.ts"
import { openDaysCsv } from "./DownloadsDaysCsv.ts"
import { FileChanged, fileDigest, identityOf } from "./DownloadsDigest.ts"
import { RangeNotSatisfiable } from "./DownloadsErrors.ts"
import { type KnownBatch, lookupBatch, rebuildCommand } from "./DownloadsLookup.ts"
import { recordDownloadStart, takeFreeResume } from "./DownloadsQuota.ts"
import { ifRangeHolds, parseRange, rangeApplies } from "./DownloadsRange.ts"
import { seriesCsv } from "./DownloadsSeriesCsv.ts"

/** A published batch's file never changes under its name: clients may keep it. */
const IMMUTABLE = "private, max-age=31536000, immutable"
const VARY = "X-Api-Key, Authorization"

const unknownBatch = (batchId: string) =>
  new NotFound({ message: `no published batch ${batchId} (GET /api/batches lists them)`, parameter: "batch_id" })

/** 410, as `?batch=` says it (api/snapshot/PastSnapshots.ts), naming the path's batch_id. */
const notRetained = (batch: KnownBatch) =>
  new BatchNotRetained({
    parameter: "batch_id",
    message:
      `batch ${batch.batchId} was published, but retention has removed its snapshot file from this server; ` +
      `its content hash is ${batch.contentHash}. The operator can rebuild it from the ledger and the raw files with ` +
      `\`${rebuildCommand(batch)}\``,
  })

const changedMeanwhile = new ServiceUnavailable({
  reason: "snapshot_changed",
  message: "the batch's file changed while it was opened; retry",
  retryAfter: 1,
})

const accountsDown = () =>
  new ServiceUnavailable({ reason: "key_check_unavailable", message: "the API key could not be checked; retry later", retryAfter: 5 })

/** The published batch a path names (404 for none); its file may be gone. */
const findBatch = Effect.fn(function* (batchId: string) {
  const store = yield* SnapshotStore
  // by id: in a fleet, the primary's followers fetch a batch it published before the fleet made it current
  const published = yield* store.lookup(batchId)
  const found = lookupBatch(store.dir, published === null ? [] : [published], store.current(), batchId)
  return found ?? (yield* unknownBatch(batchId))
})

/**
 * The batch's file passes the checks `?batch=` runs (manifest, row counts, quick_check, content
 * hash; once per file identity, api/snapshot/PastSnapshots.ts) before a byte of it is sent: a file
 * damaged on disk answers 503 batch_unreadable, never a download with a digest of the damage and
 * an immutable Cache-Control; so does the batch served now when its file changed since its swap.
 * The lease is given back at once; the download reads its own handle.
 */
const checked = (batch: KnownBatch) =>
  Effect.scoped(
    Effect.flatMap(SnapshotStore, (store) =>
      store.leaseBatch(batch.batchId).pipe(
        // the batch served now was checked at its swap: whether its file is still the one checked
        Effect.flatMap((lease) => (lease.intact() ? Effect.void : Effect.fail(snapshotDamaged))),
        Effect.catchTags({
          BatchNotRetained: () => Effect.fail(notRetained(batch)),
          NotFound: () => Effect.fail(unknownBatch(batch.batchId)),
        }),
      ),
    ),
  )

const isMissing = (e: unknown): boolean => (e as NodeJS.ErrnoException | undefined)?.code === "ENOENT"

/** The batch's file, open for the request's lifetime; 410 when retention removed it. */
const openFile = (batch: KnownBatch) =>
  Effect.acquireRelease(
    Effect.tryPromise({ try: () => open(batch.path, "r"), catch: (e) => (isMissing(e) ? notRetained(batch) : changedMeanwhile) }),
    (handle: FileHandle) => Effect.promise(() => handle.close()),
  )

/** Counts one request of the key's quota (429 when it is used up) and sets the quota headers it leaves. */
const countRequest = Effect.fn(function* () {
  const key = yield* CurrentKey
  const keys = yield* KeyStore
  const quota = yield* keys.consume(key).pipe(Effect.mapError(accountsDown))
  if (!quota.allowed) {
    const limit = quota.limit ?? 0
    return yield* new QuotaExceeded({
      message: `daily quota of ${limit} requests used up; it resets at midnight America/Santiago (X-RateLimit-Reset)`,
      limit,
      reset: quota.resetAt,
      retryAfter: Math.max(1, quota.resetAt - quota.now),
    })
  }
  const headers = quotaHeaders(quota)
  yield* HttpEffect.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))
  return quota
})

/** A file of a batch as a download names it: where it is, what it is, and the name the quota's resumes go by. */
interface BatchFile {
  readonly batchId: string
  readonly path: string
  readonly filename: string
  readonly mediaType: string
  /** What a free resume must be of: the same download (the snapshot: the batch id; a Parquet file: the batch id and its name). */
  readonly download: string
}

/**
 * Sends the open file `handle` (`file`) with its SHA-256 as ETag and Repr-Digest, Last-Modified,
 * one Range (206, 416, If-Range), HEAD without reading it; one request of quota per download.
 */
const sendFile = Effect.fn(function* (
  file: BatchFile,
  handle: FileHandle,
  range: string | undefined,
  ifRange: string | undefined,
  ifNoneMatch: string | undefined,
  head: boolean,
) {
  const stats = yield* Effect.promise(() => handle.stat({ bigint: true }))
  const size = Number(stats.size)
  const digest = yield* Effect.tryPromise({ try: () => fileDigest(file.path, identityOf(stats)), catch: (e) => e }).pipe(
    Effect.catch((e) => (e instanceof FileChanged || isMissing(e) ? Effect.fail(changedMeanwhile) : Effect.die(e))),
  )
  const etag = `"${digest.toString("hex")}"`
  const lastModified = stats.mtime.toUTCString()
  const asked =
    rangeApplies(head, ifNoneMatch, etag) && ifRangeHolds(ifRange, etag, lastModified) ? parseRange(range, size) : ({ _tag: "Whole" } as const)
  // A resume of a download this key started today is free (FREE_RESUMES of them); anything else
  // counts (and is a start).
  const key = yield* CurrentKey
  const resumes = asked._tag === "Part" && asked.start > 0 && takeFreeResume(key.id, file.download, Math.floor(Date.now() / 1000))
  if (!resumes) {
    const quota = yield* countRequest()
    recordDownloadStart(key.id, file.download, quota.resetAt)
  }
  if (asked._tag === "Unsatisfiable") return yield* new RangeNotSatisfiable({ size })
  const headers = {
    "accept-ranges": "bytes",
    "repr-digest": `sha-256=:${digest.toString("base64")}:`,
    etag,
    "last-modified": lastModified,
    "cache-control": IMMUTABLE,
    vary: VARY,
    "content-disposition": `attachment; filename="${file.filename}"`,
    [BATCH_ID_HEADER]: file.batchId,
  }
  const [start, end] = asked._tag === "Part" ? [asked.start, asked.end] : [0, size - 1]
  const status = asked._tag === "Part" ? 206 : 200
  const all = asked._tag === "Part" ? { ...headers, "content-range": `bytes ${start}-${end}/${size}` } : headers
  // a HEAD (seen here as a GET, its body dropped by Node) gets the headers without the file being read
  if (head) {
    return HttpServerResponse.empty({
      status,
      headers: { ...all, "content-type": file.mediaType, "content-length": String(end - start + 1) },
    })
  }
  // the handle stays open until the request's scope closes, after the answer is written
  const body = handle.createReadStream({ start, end, autoClose: false, highWaterMark: 256 * 1024 })
  return HttpServerResponse.raw(body, { status, contentType: file.mediaType, contentLength: end - start + 1, headers: all })
})

const snapshotDownload = Effect.fn(function* (
  batchId: string,
  range: string | undefined,
  ifRange: string | undefined,
  ifNoneMatch: string | undefined,
  head: boolean,
) {
  const found = yield* findBatch(batchId).pipe(Effect.tapError(() => countRequest()))
  yield* checked(found).pipe(Effect.tapError(() => countRequest()))
  const handle = yield* openFile(found).pipe(Effect.tapError(() => countRequest()))
  const file = { batchId, path: found.path, filename: `${batchId}.sqlite`, mediaType: SNAPSHOT_MEDIA_TYPE, download: batchId }
  return yield* sendFile(file, handle, range, ifRange, ifNoneMatch, head)
})

const noParquetFile = (batchId: string, file: string) =>
  new NotFound({
    message: `batch ${batchId} has no Parquet file ${file} (GET /api/batches/${batchId} lists its parquet_files)`,
    parameter: "file",
  })

/**
 * One of the batch's Parquet files (snapshots/parquet/), served as the snapshot is: a file of the
 * batch, immutable, by ranges. Its snapshot's checks are not run (the file is not the snapshot;
 * the release lists its SHA-256); 410 once retention removed the batch (the folder goes with the
 * snapshot), 404 for a name that is not one of its files.
 */
const parquetDownload = Effect.fn(function* (
  batchId: string,
  name: string,
  range: string | undefined,
  ifRange: string | undefined,
  ifNoneMatch: string | undefined,
  head: boolean,
) {
  const found = yield* findBatch(batchId).pipe(Effect.tapError(() => countRequest()))
  if (!PARQUET_FILE.test(name)) {
    yield* countRequest()
    return yield* noParquetFile(batchId, name)
  }
  const path = join(parquetDir(dirname(found.path), batchId), name)
  const handle = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () => open(path, "r"),
      catch: (e) => (!isMissing(e) ? changedMeanwhile : existsSync(found.path) ? noParquetFile(batchId, name) : notRetained(found)),
    }),
    (h: FileHandle) => Effect.promise(() => h.close()),
  ).pipe(Effect.tapError(() => countRequest()))
  const file = { batchId, path, filename: `${batchId}-${name}`, mediaType: PARQUET_MEDIA_TYPE, download: `${batchId}/${name}` }
  return yield* sendFile(file, handle, range, ifRange, ifNoneMatch, head)
})

/**
 * Exports at once: each reads and compresses a whole batch (≈70 s of one core at full size, half
 * of it on the event loop in small slices); more wait for a 503 and its Retry-After.
 */
const EXPORTS_AT_ONCE = 2
let exportsUnderWay = 0

const exportsBusy = new ServiceUnavailable({
  reason: "exports_busy",
  message: `${EXPORTS_AT_ONCE} exports of daily values are under way; retry later`,
  retryAfter: 60,
})

/** One place among the exports under way, held for the request's lifetime. */
const exportPlace = Effect.acquireRelease(
  Effect.suspend(() => {
    if (exportsUnderWay >= EXPORTS_AT_ONCE) return Effect.fail(exportsBusy)
    exportsUnderWay++
    return Effect.void
  }),
  () =>
    Effect.sync(() => {
      exportsUnderWay--
    }),
)

/**
 * The export from `fromDate` on (every date without it). Its ETag is weak: the CSV is a function
 * of the batch's content and `from_date`, its gzip bytes are not promised to stay the same (so no
 * Range and no Repr-Digest; gzip's own CRC-32 checks the bytes received).
 */
const daysCsvDownload = Effect.fn(function* (batchId: string, fromDate: string | undefined, head: boolean) {
  const found = yield* findBatch(batchId)
  const subset = fromDate === undefined ? "" : `-from-${fromDate}`
  const headers = {
    etag: `W/"${found.contentHash}${subset}"`,
    "cache-control": IMMUTABLE,
    vary: VARY,
    "content-disposition": `attachment; filename="${batchId}-days${subset}.csv.gz"`,
    [BATCH_ID_HEADER]: batchId,
  }
  if (head) {
    if (!existsSync(found.path)) return yield* notRetained(found)
    return HttpServerResponse.empty({ status: 200, headers: { ...headers, "content-type": "application/gzip" } })
  }
  yield* exportPlace
  const from = fromDate === undefined ? 0 : dateToInt(fromDate)
  const csv = yield* Effect.acquireRelease(
    Effect.try({ try: () => openDaysCsv(found.path, from), catch: (e) => e }).pipe(
      // better-sqlite3 says a missing file in words
      Effect.catch((e) => (isMissing(e) || /unable to open|does not exist/i.test(String(e)) ? Effect.fail(notRetained(found)) : Effect.die(e))),
    ),
    (opened) => Effect.sync(() => opened.close()),
  )
  return HttpServerResponse.raw(csv.body, { contentType: "application/gzip", headers })
})

export const SERIES_CSV_MEDIA_TYPE = "text/csv; charset=utf-8; header=present"

/** The batch's series.csv (built once per snapshot on its lease, after the file's checks). */
const seriesCsvOf = (batch: KnownBatch) =>
  Effect.scoped(
    Effect.flatMap(SnapshotStore, (store) =>
      store.leaseBatch(batch.batchId).pipe(
        Effect.flatMap((lease) =>
          lease.intact() ? lease.read((r) => lease.memo("downloads:series.csv", () => seriesCsv(r))) : Effect.fail(snapshotDamaged),
        ),
        Effect.catchTags({
          BatchNotRetained: () => Effect.fail(notRetained(batch)),
          NotFound: () => Effect.fail(unknownBatch(batch.batchId)),
        }),
      ),
    ),
  )

/**
 * series.csv: a few hundred kilobytes built in memory, so its bytes are known before they are
 * sent: Content-Length, a strong ETag and Repr-Digest (its SHA-256), one Range per request (206,
 * 416, If-Range with the ETag). Each request counts, as on any data route.
 */
const seriesCsvDownload = Effect.fn(function* (
  batchId: string,
  range: string | undefined,
  ifRange: string | undefined,
  ifNoneMatch: string | undefined,
  head: boolean,
) {
  const found = yield* findBatch(batchId)
  const csv = yield* seriesCsvOf(found)
  const size = csv.bytes.length
  const etag = `"${csv.digest.toString("hex")}"`
  const asked = rangeApplies(head, ifNoneMatch, etag) && ifRangeHolds(ifRange, etag, null) ? parseRange(range, size) : ({ _tag: "Whole" } as const)
  if (asked._tag === "Unsatisfiable") return yield* new RangeNotSatisfiable({ size })
  const [start, end] = asked._tag === "Part" ? [asked.start, asked.end] : [0, size - 1]
  const status = asked._tag === "Part" ? 206 : 200
  const headers = {
    "accept-ranges": "bytes",
    "repr-digest": `sha-256=:${csv.digest.toString("base64")}:`,
    etag,
    "cache-control": IMMUTABLE,
    vary: VARY,
    "content-disposition": `attachment; filename="${batchId}-series.csv"`,
    [BATCH_ID_HEADER]: batchId,
    ...(asked._tag === "Part" ? { "content-range": `bytes ${start}-${end}/${size}` } : {}),
  }
  if (head) {
    return HttpServerResponse.empty({
      status,
      headers: { ...headers, "content-type": SERIES_CSV_MEDIA_TYPE, "content-length": String(end - start + 1) },
    })
  }
  return HttpServerResponse.uint8Array(csv.bytes.subarray(start, end + 1), { status, contentType: SERIES_CSV_MEDIA_TYPE, headers })
})

export const DownloadsHandlers = HttpApiBuilder.group(Api, "downloads", (handlers) =>
  handlers
    .handle("batchSnapshot", ({ params, request }) =>
      snapshotDownload(
        params.batch_id,
        request.headers.range,
        request.headers["if-range"],
        request.headers["if-none-match"],
        cameAsHead(request.source),
      ),
    )
    .handle("batchParquet", ({ params, request }) =>
      parquetDownload(
        params.batch_id,
        params.file,
        request.headers.range,
        request.headers["if-range"],
        request.headers["if-none-match"],
        cameAsHead(request.source),
      ),
    )
    .handle("batchDaysCsv", ({ params, query, request }) => daysCsvDownload(params.batch_id, query.from_date, cameAsHead(request.source)))
    .handle("batchSeriesCsv", ({ params, request }) =>
      seriesCsvDownload(
        params.batch_id,
        request.headers.range,
        request.headers["if-range"],
        request.headers["if-none-match"],
        cameAsHead(request.source),
      ),
    ),
)
