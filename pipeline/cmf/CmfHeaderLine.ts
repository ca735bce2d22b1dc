/** Detection of our `;` text data sets: the first non-blank line is exactly the header. */
import { isHeader } from "./CmfTable.ts"
import { decodeCmfText } from "./CmfText.ts"

/** True when the first non-blank line of `bytes` (latin-1, UTF-8 accepted) is `columns` joined by ";". */
export const startsWithHeader = (bytes: Uint8Array, columns: ReadonlyArray<string>): boolean => {
  const head = decodeCmfText(bytes.subarray(0, 4096))
  const first = head.split(/\r\n|\n|\r/).find((l) => l.trim() !== "")
  return first !== undefined && isHeader(first.split(";"), columns)
}
