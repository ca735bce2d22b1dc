/**
 * A file name or path as every pipeline message prints it: control characters (C0, DEL, C1) and
 * the bidirectional overrides written as escapes (`\x1b`, `\u202e`). A dropped file's name is
 * chosen by whoever dropped it: printed raw, an escape sequence would rewrite the operator's
 * terminal, a newline would forge a log line, an override would show another name.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

export const printableName = (name: string): string =>
  name.replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0)
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`
  })
