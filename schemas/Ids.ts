/**
 * Public identifiers. They are CRC32 (zlib, IEEE) numbers of natural-key strings that never
 * change, because clients store them:
 *   provider_id = crc32("agf:" + administrator RUT without check digit)   e.g. "agf:96639280"
 *   concept_id  = crc32("fm:" + fund RUN without check digit)             e.g. "fm:8011"
 *   asset_id    = crc32("fm:" + RUN + ":" + series label, upper case)     e.g. "fm:8011:A"
 */
import { v5 as uuidv5 } from "uuid"
import { crc32 } from "node:zlib"

export const providerKey = (agfRut: number): string => `agf:${agfRut}`
export const conceptKey = (run: number): string => `fm:${run}`
export const seriesKey = (run: number, serie: string): string => `fm:${run}:${serie.trim().toUpperCase()}`

export const providerId = (agfRut: number): number => crc32(providerKey(agfRut))
export const conceptId = (run: number): number => crc32(conceptKey(run))
export const assetId = (run: number, serie: string): number => crc32(seriesKey(run, serie))

/** Chilean RUT/RUN check digit (módulo 11): "0".."9" or "K". */
export const checkDigit = (body: number): string => {
  let sum = 0
  let factor = 2
  for (let n = body; n > 0; n = Math.floor(n / 10)) {
    sum += (n % 10) * factor
    factor = factor === 7 ? 2 : factor + 1
  }
  const dv = 11 - (sum % 11)
  return dv === 11 ? "0" : dv === 10 ? "K" : String(dv)
}

/** RUN as CMF prints it, with its check digit (computed, never stored), e.g. 8043 → "8043-8". */
export const formatRun = (run: number): string => `${run}-${checkDigit(run)}`

/** A decimal unsigned 32-bit id as given in a path or list; leading zeros do not distinguish ids. */
export const parseUint32 = (text: string): number | null => {
  if (!/^[0-9]+$/.test(text)) return null
  const digits = text.replace(/^0+(?=[0-9])/, "")
  if (digits.length > 10) return null
  const n = Number(digits)
  return n <= 0xffffffff ? n : null
}

/**
 * FI/ETF ids are UUID v5 (RFC 9562) of natural keys in the project's namespace, so rebuilding any
 * past day gives the same ids:
 *   instrument_id = uuidv5("fi:" + RUN)                 (RUN without check digit)
 *   FI serie id   = uuidv5("fi:" + RUN + ":" + SERIE)   (label upper case)
 *   namespace     = uuidv5("https://fund-data-service.cl/ids", URL namespace) = 9e08e609-5c11-5ae0-b0c3-2612e58fc94c
 */
export const FI_NAMESPACE = "9e08e609-5c11-5ae0-b0c3-2612e58fc94c"
export const instrumentId = (run: number): string => uuidv5(`fi:${run}`, FI_NAMESPACE)
export const fiSeriesId = (run: number, serie: string): string =>
  uuidv5(`fi:${run}:${serie.trim().toUpperCase()}`, FI_NAMESPACE)

/**
 * A UUID's text (RFC 9562: 8-4-4-4-12 hex digits, any letter case), whatever its version and
 * variant: the nil and max UUIDs and those of other versions are UUIDs too, unknown here (404),
 * not malformed ids (422).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const isUuid = (text: string): boolean => UUID.test(text)

/** provider_id of an administrator known only by name (FI lists carry no RUT). */
export const providerIdByName = (normalizedName: string): number => crc32(`agf-name:${normalizedName}`)
