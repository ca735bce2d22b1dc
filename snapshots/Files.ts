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

export const writeFileAtomic = (path: string, content: string): void => {
  const tmp = `${path}.${process.pid}.tmp`
  const fd = openSync(tmp, "w")
  try {
    writeSync(fd, content)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, path)
  fsyncPath(dirname(path))
}
