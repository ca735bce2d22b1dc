/**
 * Parsed cartola files kept on disk by content hash (data/cache/), so that the next day's batch
 * parses only the files that changed. A cache entry is derived data: it can be deleted at any
 * time, it is never an input of its own (`reproduce` parses from the raw store), and a new parser
 * version ignores old entries.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { deserialize, serialize } from "node:v8"
import type { CartolaColumns } from "./CartolaColumns.ts"

/** Bump when the parser or CartolaColumns changes what a file yields. */
export const PARSED_CACHE_VERSION = 1

export class ParsedCache {
  readonly dir: string
  constructor(dataDir: string) {
    this.dir = join(dataDir, "cache", `cartola-v${PARSED_CACHE_VERSION}`)
  }

  get(sha256: string): CartolaColumns | undefined {
    const path = join(this.dir, `${sha256}.bin`)
    if (!existsSync(path)) return undefined
    try {
      return deserialize(readFileSync(path)) as CartolaColumns
    } catch {
      return undefined // a damaged entry is just a miss
    }
  }

  put(sha256: string, columns: CartolaColumns): void {
    mkdirSync(this.dir, { recursive: true })
    const path = join(this.dir, `${sha256}.bin`)
    const tmp = `${path}.${process.pid}.tmp`
    writeFileSync(tmp, serialize(columns))
    renameSync(tmp, path)
  }
}
