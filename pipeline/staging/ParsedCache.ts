/**
 * Parsed files kept on disk by content hash (data/cache/): cartolas as columns, other data sets
 * as records, so that the next day's batch parses only the files that changed. A cache entry is derived data: it can be deleted at any
 * time, it is never an input of its own (`reproduce` parses from the raw store), and a new parser
 * version ignores old entries.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { deserialize, serialize } from "node:v8"
import type { Parsed } from "../sources/DataSet.ts"
import type { CartolaColumns, CartolaSummary } from "./CartolaColumns.ts"

/**
 * Bump when the parser or CartolaColumns changes what a file yields (or refuses: 2, the length
 * limits of codes and names, so that a file parsed before them is read again, as reproduce does).
 */
export const PARSED_CACHE_VERSION = 2

export class ParsedCache {
  readonly dir: string
  private readonly recordsDir: string
  private readonly records: boolean
  /** `records: false`: cartolas only (a one-off build that keeps records in memory anyway). */
  constructor(dataDir: string, options: { readonly records?: boolean } = {}) {
    this.dir = join(dataDir, "cache", `cartola-v${PARSED_CACHE_VERSION}`)
    this.recordsDir = join(dataDir, "cache", `records-v${PARSED_CACHE_VERSION}`)
    this.records = options.records ?? true
    removeOtherVersions(join(dataDir, "cache"))
  }

  /** Parsed records of any other data set (FI pages are the slow ones to parse). */
  getRecords(sha256: string): Parsed<unknown> | undefined {
    if (!this.records) return undefined
    return readEntry(join(this.recordsDir, `${sha256}.bin`)) as Parsed<unknown> | undefined
  }

  putRecords(sha256: string, parsed: Parsed<unknown>): void {
    if (this.records) writeEntry(this.recordsDir, `${sha256}.bin`, parsed)
  }

  /** What a batch needs of a cartola before merging (a few bytes, not the file's columns). */
  getSummary(sha256: string): CartolaSummary | undefined {
    return readEntry(join(this.dir, `${sha256}.summary`)) as CartolaSummary | undefined
  }

  putSummary(sha256: string, summary: CartolaSummary): void {
    writeEntry(this.dir, `${sha256}.summary`, summary)
  }

  get(sha256: string): CartolaColumns | undefined {
    return readEntry(join(this.dir, `${sha256}.bin`)) as CartolaColumns | undefined
  }

  put(sha256: string, columns: CartolaColumns): void {
    writeEntry(this.dir, `${sha256}.bin`, columns)
  }
}

const readEntry = (path: string): unknown => {
  if (!existsSync(path)) return undefined
  try {
    return deserialize(readFileSync(path))
  } catch {
    return undefined // a damaged entry is just a miss
  }
}

const writeEntry = (dir: string, name: string, value: unknown): void => {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, name)
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, serialize(value))
  renameSync(tmp, path)
}

/** Entries of another cache version are never read again: their folders go (they can hold GBs at full size). */
const removeOtherVersions = (cacheDir: string): void => {
  let names: string[]
  try {
    names = readdirSync(cacheDir)
  } catch {
    return
  }
  for (const name of names) {
    const m = /^(cartola|records)-v(\d+)$/u.exec(name)
    if (m !== null && Number(m[2]) !== PARSED_CACHE_VERSION) rmSync(join(cacheDir, name), { recursive: true, force: true })
  }
}
