/** Durable file writes: write a temporary file, fsync it, rename it over the target, fsync the folder. */
import { randomBytes } from "node:crypto"
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs"
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

/**
 * Writes `content` to `path` unless a file is there, whole or not at all: a temporary file (0600
 * from its creation) fsynced, then hard-linked to the name, which fails rather than replace a file
 * another process wrote first (rename(2) would replace it): the one that ends up there wins. The
 * folder is made if missing and fsynced. For secrets generated once (data/secret.key, the release
 * signing key).
 */
export const writeFileOnce = (path: string, content: string): void => {
  const dir = dirname(path)
  mkdirSync(dir, { recursive: true })
  const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`
  const fd = openSync(temp, "wx", 0o600)
  try {
    writeSync(fd, content)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  try {
    linkSync(temp, path)
  } catch (e) {
    // another process wrote it first: use theirs
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
  } finally {
    unlinkSync(temp)
  }
  fsyncPath(dir)
}
