/**
 * A run that failed on a defect (not a refused batch): what the operator is told, on stderr and
 * in STATUS.json. The defect's own message (it names the path for a file-system error) instead
 * of the printed Cause; a data folder this user cannot write says so.
 */
import type { Cause } from "effect"

const NOT_WRITABLE = new Set(["EACCES", "EPERM", "EROFS"])

export const failureText = (cause: Cause.Cause<unknown>): string => {
  const die = cause.reasons.find((r) => r._tag === "Die")
  const defect = die?._tag === "Die" ? die.defect : undefined
  if (!(defect instanceof Error)) return String(cause)
  const code = (defect as NodeJS.ErrnoException).code
  if (code !== undefined && NOT_WRITABLE.has(code)) return `${defect.message} (the data folder must be writable by the user running the pipeline)`
  if (/readonly database|unable to open database file/i.test(defect.message)) {
    return `${defect.message} (a database under the data folder cannot be written: check that the folder and its files are writable by the user running the pipeline)`
  }
  return defect.message
}
