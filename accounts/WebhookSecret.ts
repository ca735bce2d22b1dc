/**
 * A webhook endpoint's signing secret: `whsec_` and the base64 of 32 random bytes, the form the
 * Standard Webhooks libraries take. It is shown once, when the endpoint is created. Signing needs
 * the secret itself, so it cannot be stored as a hash: it is stored sealed (AES-256-GCM) under a
 * key derived from the service secret (FDS_SECRET or data/secret.key, ServiceSecret.ts). Whoever
 * reads the accounts store alone cannot sign; changing the service secret makes the stored
 * secrets unreadable (their endpoints must be created again).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto"
import { Redacted } from "effect"

export const SECRET_PREFIX = "whsec_"

/** A new secret, as the key holder gets it. */
export const newWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`

const sealingKey = (serviceSecret: Redacted.Redacted<Uint8Array>): Buffer =>
  Buffer.from(hkdfSync("sha256", Redacted.value(serviceSecret), Buffer.alloc(0), "fds webhook secrets v1", 32))

/** `v1.<iv>.<tag>.<ciphertext>` (base64url each); the endpoint id is authenticated with it, so a sealed secret cannot be moved to another endpoint. */
export const sealSecret = (serviceSecret: Redacted.Redacted<Uint8Array>, endpointId: string, secret: string): string => {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", sealingKey(serviceSecret), iv)
  cipher.setAAD(Buffer.from(endpointId))
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()])
  return ["v1", iv, cipher.getAuthTag(), sealed].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".")
}

/** The secret; throws when the service secret is not the one it was sealed with. */
export const openSecret = (serviceSecret: Redacted.Redacted<Uint8Array>, endpointId: string, sealed: string): string => {
  const [version, iv, tag, data] = sealed.split(".")
  if (version !== "v1" || iv === undefined || tag === undefined || data === undefined) throw new Error("not a sealed webhook secret")
  const decipher = createDecipheriv("aes-256-gcm", sealingKey(serviceSecret), Buffer.from(iv, "base64url"))
  decipher.setAAD(Buffer.from(endpointId))
  decipher.setAuthTag(Buffer.from(tag, "base64url"))
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8")
}
