/**
 * FI ids worked out in the tests, independently of schemas/Ids.ts and the `uuid` package: UUID v5
 * (RFC 9562 §5.5) is SHA-1 over the namespace's 16 bytes and the name, with the version and
 * variant bits set. The namespace is itself uuidv5("https://fund-data-service.cl/ids") in the RFC's
 * URL namespace, as docs/fi.md says.
 */
import { createHash } from "node:crypto"
import { testCrc32 } from "../support/snapshotFixture.ts"

const RFC_URL_NAMESPACE = "6ba7b811-9dad-11d1-80b4-00c04fd430c8"

const uuidV5 = (namespace: string, name: string): string => {
  const hash = createHash("sha1")
    .update(Buffer.from(namespace.replaceAll("-", ""), "hex"))
    .update(Buffer.from(name, "utf8"))
    .digest()
  const b = hash.subarray(0, 16)
  b[6] = (b[6]! & 0x0f) | 0x50
  b[8] = (b[8]! & 0x3f) | 0x80
  const hex = b.toString("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const NAMESPACE = uuidV5(RFC_URL_NAMESPACE, "https://fund-data-service.cl/ids")
export const testUuidV5 = (name: string): string => uuidV5(NAMESPACE, name)

/** instrument_id of a RUN: uuidv5("fi:<RUN>"). */
export const testInstrumentId = (run: number): string => testUuidV5(`fi:${run}`)
/** FI serie id: uuidv5("fi:<RUN>:<SERIE>"). */
export const testSerieId = (run: number, serie: string): string => testUuidV5(`fi:${run}:${serie}`)
/** provider_id of an FM administrator (by RUT) or of one known only by its normalised name. */
export const testProviderByRut = (rut: number): number => testCrc32(`agf:${rut}`)
export const testProviderByName = (normalisedName: string): number => testCrc32(`agf-name:${normalisedName}`)
