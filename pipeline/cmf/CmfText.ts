/** Text-level helpers shared by the CMF `;` text parsers: decoding, header cells, empty answers. */
import { repairMojibake } from "./Mojibake.ts"

const latin1 = new TextDecoder("latin1")

/**
 * CMF text files are latin-1. (`TextDecoder("latin1")` is windows-1252, a superset for every
 * printable character.) A UTF-8 byte order mark, which reads as "ï»¿", is dropped.
 */
export const decodeCmfText = (bytes: Uint8Array): string => {
  const text = latin1.decode(bytes)
  if (text.startsWith("ï»¿")) return text.slice(3)
  return text.startsWith("\ufeff") ? text.slice(1) : text
}

/** A header cell as compared with the expected column name (a UTF-8 header is accepted too). */
export const headerCell = (s: string): string => repairMojibake(s.trim())

/**
 * CMF's answer for a range without data (weekends, holidays): a tiny body whose only text is
 * "Sin información" (possibly inside HTML tags, possibly UTF-8).
 */
export const isSinInformacion = (text: string): boolean => {
  if (text.length > 2000) return false
  const plain = repairMojibake(text.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim())
  return /^sin informaci[oó]n\.?$/i.test(plain)
}
