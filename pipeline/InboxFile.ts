/**
 * Reads a file the inbox listing found regular (Collect.ts). Opened without following a link and
 * checked again once open: a link or FIFO put in the file's place after the listing is refused,
 * not read (a FIFO would block the run, a link would store what it points at).
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs"
import { printableName } from "./cmf/PrintableName.ts"

export const readInboxFile = (path: string): Buffer => {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (e) {
    // Node's own message prints the path raw.
    throw new Error(`inbox: ${printableName(path)} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`)
  }
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`inbox: ${printableName(path)} is no longer a regular file`)
    return readFileSync(fd)
  } finally {
    closeSync(fd)
  }
}
