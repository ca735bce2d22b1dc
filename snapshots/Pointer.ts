/**
 * data/snapshots/CURRENT names the published snapshot file. Publishing replaces it with
 * rename(2), so a reader sees the old name or the new one, never a mix.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { writeFileAtomic } from "./Files.ts"

export const CURRENT = "CURRENT"
const SNAPSHOT_NAME = /^\d{4}-\d{2}-\d{2}-[0-9a-f]{16}\.sqlite$/

export const isSnapshotFileName = (name: string): boolean => SNAPSHOT_NAME.test(name)

/** The published file name, or null when nothing was published yet. */
export const readCurrent = (dir: string): string | null => {
  const path = join(dir, CURRENT)
  if (!existsSync(path)) return null
  const name = readFileSync(path, "utf8").trim()
  return isSnapshotFileName(name) ? name : null
}

export const publishCurrent = (dir: string, snapshotFile: string): void => {
  if (!isSnapshotFileName(snapshotFile)) throw new Error(`not a snapshot file name: ${snapshotFile}`)
  if (!existsSync(join(dir, snapshotFile))) throw new Error(`snapshot file missing: ${snapshotFile}`)
  writeFileAtomic(join(dir, CURRENT), snapshotFile + "\n")
}
