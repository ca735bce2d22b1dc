/** Durable file writes: write a temporary file, fsync it, rename it over the target, fsync the folder. */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from "node:fs"
import { dirname } from "node:path"

export const fsyncPath = (path: string): void => {
  const fd = openSync(path, "r")
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/**
 * Puts a finished file under its final name as a published snapshot is put there: the file
 * fsynced, renamed over the target (rename(2): a reader sees the old name or the whole new file),
 * the folder fsynced.
 */
export const renameDurably = (from: string, to: string): void => {
  fsyncPath(from)
  renameSync(from, to)
  fsyncPath(dirname(to))
}

export const writeFileAtomic = (path: string, content: string | Uint8Array): void => {
  const tmp = `${path}.${process.pid}.tmp`
  const fd = openSync(tmp, "w")
  try {
    if (typeof content === "string") writeSync(fd, content)
    else writeSync(fd, content)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, path)
  fsyncPath(dirname(path))
}
