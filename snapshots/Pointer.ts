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

/** What CURRENT says: a snapshot file name, nothing (missing), something else (its text), or an error reading it. */
export type CurrentPointer =
  | { readonly _tag: "Names"; readonly file: string }
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Invalid"; readonly text: string }
  | { readonly _tag: "Unreadable"; readonly error: string }

/** Reads CURRENT without throwing: a hand edit, a bad copy or a deletion is an answer, not an exception. */
export const inspectCurrent = (dir: string): CurrentPointer => {
  let text: string
  try {
    text = readFileSync(join(dir, CURRENT), "utf8").trim()
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? { _tag: "Missing" } : { _tag: "Unreadable", error: String(e) }
  }
  return isSnapshotFileName(text) ? { _tag: "Names", file: text } : { _tag: "Invalid", text }
}

/** Why CURRENT names no snapshot file, for people; null when it names one. */
export const pointerProblem = (pointer: CurrentPointer): string | null => {
  switch (pointer._tag) {
    case "Names":
      return null
    case "Missing":
      return "CURRENT is missing"
    case "Invalid":
      return pointer.text === "" ? "CURRENT is empty" : "CURRENT does not name a snapshot file"
    case "Unreadable":
      return `CURRENT cannot be read (${pointer.error})`
  }
}

/** What CURRENT said, for a log line: the file it names, its text, or null (missing or unreadable). */
export const pointerText = (pointer: CurrentPointer): string | null =>
  pointer._tag === "Names" ? pointer.file : pointer._tag === "Invalid" ? pointer.text.slice(0, 200) : null

/**
 * The published file name, or null when nothing was published yet (or CURRENT names no snapshot
 * file); throws when CURRENT cannot be read, so that no caller mistakes that for "nothing".
 */
export const readCurrent = (dir: string): string | null => {
  const pointer = inspectCurrent(dir)
  if (pointer._tag === "Unreadable") throw new Error(pointer.error)
  return pointer._tag === "Names" ? pointer.file : null
}

export const publishCurrent = (dir: string, snapshotFile: string): void => {
  if (!isSnapshotFileName(snapshotFile)) throw new Error(`not a snapshot file name: ${snapshotFile}`)
  if (!existsSync(join(dir, snapshotFile))) throw new Error(`snapshot file missing: ${snapshotFile}`)
  writeFileAtomic(join(dir, CURRENT), snapshotFile + "\n")
}
