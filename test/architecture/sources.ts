/** The project's own TypeScript sources (the six top folders), with their text, for the architecture tests. */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"

const root = join(import.meta.dirname, "..", "..")
const FOLDERS = ["schemas", "snapshots", "pipeline", "api", "accounts", "ops"]

export const sources = (): ReadonlyArray<{ readonly path: string; readonly text: string }> =>
  FOLDERS.flatMap((dir) =>
    readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && e.name.endsWith(".ts"))
      .map((e) => join(e.parentPath, e.name)),
  ).map((file) => ({ path: relative(root, file), text: readFileSync(file, "utf8") }))
