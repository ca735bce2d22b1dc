/**
 * Handlers of the release routes: the files snapshots/releases/ wrote beside the snapshot, sent
 * byte for byte (a release is checked over the bytes received). They never change once written:
 * cached immutable, validated by the ETag the caching middleware makes of their bytes
 * (api/http/Caching.ts). Counted like any data route; the public key is public.
 */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { NotFound } from "../../schemas/ApiErrors.ts"
import { BATCH_ID_HEADER } from "../../schemas/Batches.ts"
import { manifestPath } from "../../snapshots/Manifest.ts"
import { PUBLIC_KEY_FILE, releasePath, signaturePath } from "../../snapshots/releases/Release.ts"
import { Api } from "../Api.ts"
import { SnapshotStore } from "../snapshot/SnapshotStore.ts"
import { PEM_MEDIA_TYPE, SIGNATURE_MEDIA_TYPE } from "./ReleasesApi.ts"

const IMMUTABLE = "private, max-age=31536000, immutable"

const isMissing = (e: unknown): boolean => (e as NodeJS.ErrnoException | undefined)?.code === "ENOENT"

/** The bytes at `path`; `missing` when there is no such file (another failure is a defect). */
const bytesOf = <E>(path: string, missing: () => E) =>
  Effect.tryPromise({ try: () => readFile(path), catch: (e) => e }).pipe(
    Effect.catch((e) => (isMissing(e) ? Effect.fail(missing()) : Effect.die(e))),
  )

const noRelease = (batchId: string) =>
  new NotFound({
    parameter: "batch_id",
    message: `no signed release of batch ${batchId} (GET /api/batches lists the published batches; one published before releases were signed has none)`,
  })

/** One file of the batch `batchId`, as stored. */
const releaseFile = Effect.fn(function* (batchId: string, pathOf: (dir: string) => string, contentType: string, filename: string) {
  const store = yield* SnapshotStore
  const bytes = yield* bytesOf(
    pathOf(store.dir),
    () =>
      new NotFound({
        parameter: "batch_id",
        message: `batch ${batchId} has no ${filename.slice(batchId.length + 1)} on this server (GET /api/batches lists the published batches)`,
      }),
  )
  return HttpServerResponse.uint8Array(bytes, {
    contentType,
    headers: {
      "cache-control": IMMUTABLE,
      "content-disposition": `attachment; filename="${filename}"`,
      [BATCH_ID_HEADER]: batchId,
    },
  })
})

export const ReleasesHandlers = HttpApiBuilder.group(Api, "releases", (handlers) =>
  handlers
    .handle("batchRelease", ({ params }) =>
      releaseFile(params.batch_id, (dir) => releasePath(dir, params.batch_id), "application/json", `${params.batch_id}.release.json`).pipe(
        Effect.catchTag("NotFound", () => Effect.fail(noRelease(params.batch_id))),
      ),
    )
    .handle("batchReleaseSignature", ({ params }) =>
      releaseFile(params.batch_id, (dir) => signaturePath(dir, params.batch_id), SIGNATURE_MEDIA_TYPE, `${params.batch_id}.release.sig`).pipe(
        Effect.catchTag("NotFound", () => Effect.fail(noRelease(params.batch_id))),
      ),
    )
    .handle("batchManifestFile", ({ params }) =>
      releaseFile(
        params.batch_id,
        (dir) => manifestPath(dir, `${params.batch_id}.sqlite`),
        "application/json",
        `${params.batch_id}.manifest.json`,
      ),
    ),
)

export const ReleaseKeyHandlers = HttpApiBuilder.group(Api, "releaseKey", (handlers) =>
  handlers.handle("releaseKey", () =>
    Effect.gen(function* () {
      const store = yield* SnapshotStore
      const pem = yield* bytesOf(join(store.dir, PUBLIC_KEY_FILE), () =>
        new NotFound({ message: "no release has been signed on this server yet: the key appears with the first batch published" }),
      )
      return HttpServerResponse.uint8Array(pem, { contentType: PEM_MEDIA_TYPE, headers: { "cache-control": "public, max-age=3600" } })
    }),
  ),
)
