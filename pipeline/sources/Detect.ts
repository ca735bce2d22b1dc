import type { DataSetName } from "../../schemas/CmfRecords.ts"
import { CARTOLA_COLUMNS } from "./Cartola.ts"
import { decodeCmfText, isSinInformacion } from "./CmfText.ts"
import { isHeader } from "./CmfTable.ts"
import { FM_REGISTRY_COLUMNS } from "./FmRegistry.ts"

const HEAD_BYTES = 8 * 1024

/**
 * Which CMF data set a file holds, from its header line (latin-1; its name is never looked at).
 * A cartola answer that is only "Sin información" counts as a cartola. Null: not a CMF file we read.
 */
export const detectDataSet = (bytes: Uint8Array): DataSetName | null => {
  const head = decodeCmfText(bytes.subarray(0, HEAD_BYTES))
  const firstLine = head.split(/\r\n|\n|\r/).find((line) => line.trim() !== "")
  if (firstLine !== undefined) {
    const cells = firstLine.split(";")
    if (isHeader(cells, FM_REGISTRY_COLUMNS)) return "fm_registry"
    if (isHeader(cells, CARTOLA_COLUMNS)) return "cartola_diaria"
  }
  return bytes.length <= HEAD_BYTES && isSinInformacion(head) ? "cartola_diaria" : null
}
