/**
 * Which bytes are under a file name: device, inode, size and the modification and change times in
 * nanoseconds. A write into the file (a disk tool, `dd conv=notrunc`, an UPDATE) changes the
 * times; a file put in its place changes the inode; nothing can set the change time back. The
 * snapshot store takes it before a check and compares it later: a served file whose identity moved
 * is no longer the file that was checked.
 */
import { statSync } from "node:fs"

/** The identity of the file at `path`, or null when there is none. */
export const fileIdentity = (path: string): string | null => {
  const s = statSync(path, { throwIfNoEntry: false, bigint: true })
  return s === undefined ? null : `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`
}
