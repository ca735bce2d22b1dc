/**
 * A batch's signed release (issue #31): its release manifest (every file of the batch with its
 * size and SHA-256, and the previous release's SHA-256), the manifest's detached Ed25519
 * signature, the build manifest's bytes the release lists, and the public key that checks them at
 * a well-known path (public). snapshots/releases/ makes them; api/batches/Releases.ts answers.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { dataErrors, NotFoundResponse, RateLimitedResponse, ServiceUnavailableResponse } from "../../schemas/ApiErrors.ts"
import { BatchId, BatchManifest } from "../../schemas/Batches.ts"
import { ReleaseManifest } from "../../schemas/Releases.ts"
import { ApiKeyAuth } from "../security/Security.ts"

export const SIGNATURE_MEDIA_TYPE = "application/octet-stream"
export const PEM_MEDIA_TYPE = "application/x-pem-file"
export const RELEASE_KEY_PATH = "/.well-known/fds-release-key.pem"

const Signature = Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: SIGNATURE_MEDIA_TYPE })).annotate({
  description: "The raw 64-byte Ed25519 signature of the release manifest's bytes (RFC 8032)",
})
const PublicKeyPem = Schema.String.pipe(HttpApiSchema.asText({ contentType: PEM_MEDIA_TYPE })).annotate({
  description: "The Ed25519 public key, PEM (-----BEGIN PUBLIC KEY-----, SubjectPublicKeyInfo)",
})

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
type Json = Record<string, any>

/** The file name a release file answer suggests. */
const documentFile = (filename: string) => (op: Json): Json => {
  const ok = op.responses["200"]
  ok.headers = { ...ok.headers, "Content-Disposition": { description: `attachment; filename="${filename}"`, schema: { type: "string" } } }
  return op
}

export class ReleasesApi extends HttpApiGroup.make("releases")
  .add(
    HttpApiEndpoint.get("batchRelease", "/api/batches/:batch_id/release", {
      params: { batch_id: BatchId },
      success: ReleaseManifest,
      error: dataErrors(NotFoundResponse),
    })
      .annotate(OpenApi.Summary, "The batch's signed release manifest: its files' sizes and SHA-256, chained to the previous release")
      .annotate(
        OpenApi.Description,
        "The manifest's bytes as signed (check them as received, never re-serialised): `release.sig` is their Ed25519 signature by the key at /.well-known/fds-release-key.pem. `previous.release_sha256` is the SHA-256 of the previous batch's release manifest: following it checks the chain back. `./fds verify --from URL` checks all of it; README \"Signed releases\" gives the openssl command. A batch published before releases were signed: 404.",
      )
      .annotate(OpenApi.Transform, documentFile("<batch_id>.release.json")),
    HttpApiEndpoint.get("batchReleaseSignature", "/api/batches/:batch_id/release.sig", {
      params: { batch_id: BatchId },
      success: Signature,
      error: dataErrors(NotFoundResponse),
    })
      .annotate(OpenApi.Summary, "The Ed25519 signature of the batch's release manifest (64 raw bytes)")
      .annotate(
        OpenApi.Description,
        "Check it with the public key: `openssl pkeyutl -verify -pubin -inkey fds-release-key.pem -rawin -in release.json -sigfile release.sig`.",
      )
      .annotate(OpenApi.Transform, documentFile("<batch_id>.release.sig")),
    HttpApiEndpoint.get("batchManifestFile", "/api/batches/:batch_id/manifest.json", {
      params: { batch_id: BatchId },
      success: BatchManifest,
      error: dataErrors(NotFoundResponse),
    })
      .annotate(OpenApi.Summary, "The batch's build manifest, byte for byte as the release lists it")
      .annotate(
        OpenApi.Description,
        "The file written beside the snapshot (inputs with their SHA-256, row counts, content hash): the same manifest GET /api/batches/{batch_id} embeds, as the bytes whose size and SHA-256 the release lists.",
      )
      .annotate(OpenApi.Transform, documentFile("<batch_id>.manifest.json")),
  )
  .middleware(ApiKeyAuth)
  .annotateMerge(
    OpenApi.annotations({ title: "Releases", description: "Each batch's signed release manifest, its signature, and the files it lists" }),
  ) {}

export class ReleaseKeyApi extends HttpApiGroup.make("releaseKey")
  .add(
    HttpApiEndpoint.get("releaseKey", RELEASE_KEY_PATH, {
      success: PublicKeyPem,
      error: [NotFoundResponse, RateLimitedResponse, ServiceUnavailableResponse],
    })
      .annotate(OpenApi.Summary, "The public key that signs the releases (Ed25519, PEM; public, no key)")
      .annotate(
        OpenApi.Description,
        "The key every /api/batches/{batch_id}/release.sig verifies with. 404 until a batch has been published with a signed release.",
      ),
  )
  .annotateMerge(OpenApi.annotations({ title: "Release key", description: "The public key of the signed releases" })) {}
