/**
 * Public identifiers. They are CRC32 (zlib, IEEE) numbers of natural-key strings that never
 * change, because clients store them:
 *   provider_id = crc32("agf:" + administrator RUT without check digit)   e.g. "agf:96639280"
 *   concept_id  = crc32("fm:" + fund RUN without check digit)             e.g. "fm:8011"
 *   asset_id    = crc32("fm:" + RUN + ":" + series label, upper case)     e.g. "fm:8011:A"
 */
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
