/**
 * UTF-8 text that was read as latin-1 ("AÃ\u0091OS", "EstratÃ©gico") is turned back into what was
 * meant ("AÑOS", "Estratégico"); anything else comes back unchanged.
 *
 * `TextDecoder("latin1")` is really windows-1252 (WHATWG), so the second byte of a mojibake pair may
 * arrive as a cp1252 character ("AÃ‘OS"): both spellings map back to the same byte.
 */

/** windows-1252 characters for bytes 0x80–0x9F (the bytes it leaves undefined decode to U+0080–U+009F). */
const CP1252_HIGH: ReadonlyArray<readonly [number, number]> = [
  [0x20ac, 0x80], [0x201a, 0x82], [0x0192, 0x83], [0x201e, 0x84], [0x2026, 0x85], [0x2020, 0x86],
  [0x2021, 0x87], [0x02c6, 0x88], [0x2030, 0x89], [0x0160, 0x8a], [0x2039, 0x8b], [0x0152, 0x8c],
  [0x017d, 0x8e], [0x2018, 0x91], [0x2019, 0x92], [0x201c, 0x93], [0x201d, 0x94], [0x2022, 0x95],
  [0x2013, 0x96], [0x2014, 0x97], [0x02dc, 0x98], [0x2122, 0x99], [0x0161, 0x9a], [0x203a, 0x9b],
  [0x0153, 0x9c], [0x017e, 0x9e], [0x0178, 0x9f]
]
const byteOfChar = new Map<number, number>(CP1252_HIGH)

/** A UTF-8 lead byte (0xC2–0xF4) followed by something that reads as a continuation byte (0x80–0xBF). */
const SUSPECT = /[\u00c2-\u00f4][\u0080-\u00bf\u20ac\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u017d\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u017e\u0178]/

const utf8 = new TextDecoder("utf-8", { fatal: true })

export const repairMojibake = (s: string): string => {
  if (!SUSPECT.test(s)) return s
  const bytes = new Uint8Array(s.length)
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i)
    const byte = code < 0x100 ? code : byteOfChar.get(code)
    // A character no single byte decodes to: the text was not read as latin-1.
    if (byte === undefined) return s
    bytes[i] = byte
  }
  let repaired: string
  try {
    repaired = utf8.decode(bytes)
  } catch {
    return s
  }
  return repaired.includes("\ufffd") ? s : repaired
}
