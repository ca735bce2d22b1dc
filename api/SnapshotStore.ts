/**
 * Holds the published snapshot and swaps to a new one atomically.
 *
 * It watches data/snapshots/CURRENT (fs.watch, plus a poll as fallback). A new file is opened and
 * checked (its manifest names it and its hash, row counts agree, PRAGMA quick_check) before it is
 * swapped in; a file that fails is refused and the old one keeps serving. Each request takes a
 * lease on the snapshot that was current when it began; a retired snapshot is closed when its
 * last lease ends, or at the end of a drain window. A read through a lease whose snapshot was
 * closed fails with 503 and Retry-After: no response ever mixes two batches.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { ServiceUnavailable } from "../schemas/ApiErrors.ts"
import { existsSync, type FSWatcher, statSync, watch } from "node:fs"
import { join } from "node:path"
import { manifestPath, readManifest } from "../snapshots/Manifest.ts"
import { TABLES } from "../snapshots/Tables.ts"
import { readCurrent } from "../snapshots/Pointer.ts"
import { SnapshotReader } from "../snapshots/Reader.ts"
import { rowCounts } from "../snapshots/ContentHash.ts"

/** Nothing is published yet (or nothing valid). */
export class SnapshotMissing extends Schema.TaggedError<SnapshotMissing>()("SnapshotMissing", {}) {}

export interface Loaded {
  readonly generation: number
  readonly file: string
  readonly reader: SnapshotReader
  readonly contentHash: string
  /** Rows in the snapshot's data tables (for /health), counted once at swap. */
  readonly totalRecords: number
  leases: number
  retired: boolean
}

export interface Lease {
  readonly generation: number
  readonly file: string
  readonly contentHash: string
  /** Runs a read on the pinned snapshot; 503 (snapshot_changed) when it was closed meanwhile. */
  readonly read: <A>(f: (reader: SnapshotReader) => A) => Effect.Effect<A, ServiceUnavailable>
}

export interface SnapshotStoreOptions {
  readonly dir: string
  readonly pollMillis: number
  readonly drainMillis: number
}

export class SnapshotStore extends Context.Service<
  SnapshotStore,
  {
    /** Pins the current snapshot for the scope (the request). */
    readonly lease: Effect.Effect<Lease, SnapshotMissing, import("effect").Scope.Scope>
    readonly current: () => Loaded | null
    /** Looks at CURRENT now and swaps when it names another valid file. */
    readonly refresh: Effect.Effect<void>
  }
>()("fds/api/SnapshotStore") {
  static readonly layer = (options: SnapshotStoreOptions) =>
    Layer.effect(
      SnapshotStore,
      Effect.gen(function* () {
        const state = new SwapState(options)
        state.refresh()
        yield* Effect.acquireRelease(
          Effect.sync(() => state.start()),
          () => Effect.sync(() => state.stop()),
        )
        const lease = Effect.acquireRelease(
          Effect.suspend(() => {
            const loaded = state.loaded
            if (loaded === null) return Effect.fail(new SnapshotMissing())
            loaded.leases++
            return Effect.succeed(loaded)
          }),
          (loaded) => Effect.sync(() => state.release(loaded)),
        ).pipe(Effect.map((loaded): Lease => makeLease(loaded)))
        return SnapshotStore.of({
          lease,
          current: () => state.loaded,
          refresh: Effect.sync(() => state.refresh()),
        })
      }),
    )
}

const snapshotChanged = new ServiceUnavailable({
  reason: "snapshot_changed",
  message: "a new batch was published while the request was read; retry",
  retryAfter: 1,
})

const makeLease = (loaded: Loaded): Lease => ({
  generation: loaded.generation,
  file: loaded.file,
  contentHash: loaded.contentHash,
  read: (f) =>
    Effect.suspend(() => {
      if (!loaded.reader.isOpen) return Effect.fail(snapshotChanged)
      try {
        return Effect.succeed(f(loaded.reader))
      } catch (e) {
        // A connection closed under us is a retired snapshot; anything else is a defect.
        if (!loaded.reader.isOpen) return Effect.fail(snapshotChanged)
        return Effect.die(e)
      }
    }),
})

/** The mutable part, kept out of Effect so the watcher callback stays synchronous. */
class SwapState {
  loaded: Loaded | null = null
  private generation = 0
  private watcher: FSWatcher | null = null
  private timer: NodeJS.Timeout | null = null
  /** Refused files with the state they were refused in; retried when CURRENT or the files change. */
  private refused = new Map<string, string>()
  private readonly options: SnapshotStoreOptions

  constructor(options: SnapshotStoreOptions) {
    this.options = options
  }

  start(): void {
    if (existsSync(this.options.dir)) {
      try {
        this.watcher = watch(this.options.dir, (_event, name) => {
          if (name === "CURRENT") this.refresh()
        })
        this.watcher.unref()
      } catch {
        this.watcher = null
      }
    }
    this.timer = setInterval(() => this.refresh(), this.options.pollMillis)
    this.timer.unref()
  }

  stop(): void {
    this.watcher?.close()
    if (this.timer !== null) clearInterval(this.timer)
    const loaded = this.loaded
    this.loaded = null
    if (loaded !== null) loaded.reader.close()
  }

  refresh(): void {
    const file = readCurrent(this.options.dir)
    if (file === null || file === this.loaded?.file) return
    const signature = fileSignature(this.options.dir, file)
    if (this.refused.get(file) === signature) return
    let reader: SnapshotReader | null = null
    try {
      reader = new SnapshotReader(join(this.options.dir, file))
      const contentHash = verify(this.options.dir, file, reader)
      const next: Loaded = {
        generation: ++this.generation,
        file,
        reader,
        contentHash,
        totalRecords: reader.totalRecords(),
        leases: 0,
        retired: false,
      }
      const previous = this.loaded
      this.loaded = next
      console.log(JSON.stringify({ level: "info", msg: "snapshot swapped in", file, generation: next.generation }))
      if (previous !== null) this.retire(previous)
    } catch (e) {
      reader?.close()
      this.refused.set(file, signature)
      console.error(
        JSON.stringify({ level: "error", msg: "snapshot refused; the previous one keeps serving", file, error: String(e) }),
      )
    }
  }

  release(loaded: Loaded): void {
    loaded.leases--
    if (loaded.retired && loaded.leases === 0) loaded.reader.close()
  }

  private retire(loaded: Loaded): void {
    loaded.retired = true
    if (loaded.leases === 0) {
      loaded.reader.close()
      return
    }
    setTimeout(() => loaded.reader.close(), this.options.drainMillis).unref()
  }
}

const mtime = (path: string): string => String(statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? "none")
const fileSignature = (dir: string, file: string): string =>
  [join(dir, "CURRENT"), join(dir, file), manifestPath(dir, file)].map(mtime).join("|")

/** The checks a snapshot passes before it serves; returns its content hash. */
const verify = (dir: string, file: string, reader: SnapshotReader): string => {
  const manifest = readManifest(dir, file)
  if (manifest.file !== file) throw new Error(`manifest names ${manifest.file}, not ${file}`)
  if (!file.includes(manifest.content_hash.slice(0, 16))) throw new Error("manifest hash does not match the file name")
  if (manifest.batch_date !== reader.batchDate) throw new Error("manifest batch date differs from the snapshot's")
  const counts = rowCounts(reader.db)
  for (const { name } of TABLES) {
    const n = manifest.row_counts[name]
    if (counts[name] !== n) throw new Error(`row count of ${name} is ${counts[name]}, manifest says ${n}`)
  }
  if (!reader.quickCheck()) throw new Error("PRAGMA quick_check failed")
  return manifest.content_hash
}
