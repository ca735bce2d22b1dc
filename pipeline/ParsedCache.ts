/**
 * Parsed files kept on disk by content hash (data/cache/): cartolas as columns, other data sets
 * as records, so that the next day's batch parses only the files that changed. A cache entry is derived data: it can be deleted at any
 * time, it is never an input of its own (`reproduce` parses from the raw store), and a new parser
 * version ignores old entries.
 */

import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { deserialize, serialize } from "node:v8"
import { threadId } from "node:worker_threads"
import { Context, Layer } from "effect"
import type { Parsed } from "./datasets/Parsed.ts"
import type { CacheEntry, ParsedFiles, RecordsSummary } from "./datasets/ParsedFiles.ts"

/** What the port says a cache keeps of a file loaded as columns (the cartola's), and its summary. */
type CartolaColumns = NonNullable<ReturnType<ParsedFiles["get"]>>
type CartolaSummary = NonNullable<ReturnType<ParsedFiles["getSummary"]>>

/**
 * Bump when the parser or CartolaColumns changes what a file yields (or refuses: 2, the length
 * limits of codes and names, so that a file parsed before them is read again, as reproduce does;
 * 3, entries keyed by name as well as content; 4, the units subscribed and redeemed as columns).
 */
export const PARSED_CACHE_VERSION = 4

const entryKey = (entry: CacheEntry): string =>
  `${entry.sha256}-${createHash("sha256").update(entry.name, "utf8").digest("hex").slice(0, 16)}`

/** The cache on disk under <data>/cache/. */
export class DiskParsedCache {
  /** The data folder the cache is under (<dataDir>/cache/). */
  readonly dataDir: string
  readonly dir: string
  private readonly recordsDir: string
  private readonly records: boolean
  /**
   * `records: false`: cartolas only (a one-off build that keeps records in memory anyway);
   * `keepOtherVersions`: leave other versions' folders (the parse ahead's child, whose parent owns the cache).
   */
  constructor(dataDir: string, options: { readonly records?: boolean; readonly keepOtherVersions?: boolean } = {}) {
    this.dataDir = dataDir
    this.dir = join(dataDir, "cache", `cartola-v${PARSED_CACHE_VERSION}`)
    this.recordsDir = join(dataDir, "cache", `records-v${PARSED_CACHE_VERSION}`)
    this.records = options.records ?? true
    if (options.keepOtherVersions !== true) removeOtherVersions(join(dataDir, "cache"))
  }

  /** True when the file's summary is cached (a cartola's or a file of records'): it was parsed before. */
  hasSummary(entry: CacheEntry): boolean {
    const key = entryKey(entry)
    return existsSync(join(this.dir, `${key}.summary`)) || (this.records && existsSync(join(this.recordsDir, `${key}.summary`)))
  }

  /** Parsed records of any other data set (FI pages are the slow ones to parse). */
  getRecords(entry: CacheEntry): Parsed<unknown> | undefined {
    if (!this.records) return undefined
    return readEntry(join(this.recordsDir, `${entryKey(entry)}.bin`)) as Parsed<unknown> | undefined
  }

  putRecords(entry: CacheEntry, parsed: Parsed<unknown>): void {
    if (this.records) writeEntry(this.recordsDir, `${entryKey(entry)}.bin`, parsed)
  }

  getRecordsSummary(entry: CacheEntry): RecordsSummary | undefined {
    if (!this.records) return undefined
    return readEntry(join(this.recordsDir, `${entryKey(entry)}.summary`)) as RecordsSummary | undefined
  }

  putRecordsSummary(entry: CacheEntry, summary: RecordsSummary): void {
    if (this.records) writeEntry(this.recordsDir, `${entryKey(entry)}.summary`, summary)
  }

  /** What a batch needs of a cartola before merging (a few bytes, not the file's columns). */
  getSummary(entry: CacheEntry): CartolaSummary | undefined {
    return readEntry(join(this.dir, `${entryKey(entry)}.summary`)) as CartolaSummary | undefined
  }

  putSummary(entry: CacheEntry, summary: CartolaSummary): void {
    writeEntry(this.dir, `${entryKey(entry)}.summary`, summary)
  }

  get(entry: CacheEntry): CartolaColumns | undefined {
    return readEntry(join(this.dir, `${entryKey(entry)}.bin`)) as CartolaColumns | undefined
  }

  put(entry: CacheEntry, columns: CartolaColumns): void {
    writeEntry(this.dir, `${entryKey(entry)}.bin`, columns)
  }
}

/**
 * A cache in Maps, gone with its layer. Entries go in and out through the same serialization as
 * the disk's, so a reader never shares objects with the writer.
 */
const memoryParsedCache = (): ParsedCache["Service"] => {
  const entries = new Map<string, Buffer>()
  const read = (key: string): unknown => {
    const bytes = entries.get(key)
    return bytes === undefined ? undefined : deserialize(bytes)
  }
  const write = (key: string, value: unknown): void => void entries.set(key, serialize(value))
  return {
    dataDir: null,
    hasSummary: (entry) => entries.has(`summary/${entryKey(entry)}`) || entries.has(`records-summary/${entryKey(entry)}`),
    getRecords: (entry) => read(`records/${entryKey(entry)}`) as Parsed<unknown> | undefined,
    putRecords: (entry, parsed) => write(`records/${entryKey(entry)}`, parsed),
    getRecordsSummary: (entry) => read(`records-summary/${entryKey(entry)}`) as RecordsSummary | undefined,
    putRecordsSummary: (entry, summary) => write(`records-summary/${entryKey(entry)}`, summary),
    getSummary: (entry) => read(`summary/${entryKey(entry)}`) as CartolaSummary | undefined,
    putSummary: (entry, summary) => write(`summary/${entryKey(entry)}`, summary),
    get: (entry) => read(`cartola/${entryKey(entry)}`) as CartolaColumns | undefined,
    put: (entry, columns) => write(`cartola/${entryKey(entry)}`, columns),
  }
}

/** The parse cache as a service: on disk under the data folder, or in memory for tests. */
export class ParsedCache extends Context.Service<ParsedCache, ParsedFiles>()("fds/pipeline/ParsedCache") {
  /** The cache under <dataDir>/cache/ (entries of other cache versions are removed when it opens). */
  static readonly layer = (dataDir: string) => Layer.sync(ParsedCache, () => new DiskParsedCache(dataDir))

  /** An empty cache in memory, for tests. */
  static readonly layerMemory = Layer.sync(ParsedCache, memoryParsedCache)
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
  // the process and thread: the parse ahead writes entries from two processes (ParseAhead.ts)
  const tmp = `${path}.${process.pid}-${threadId}.tmp`
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
