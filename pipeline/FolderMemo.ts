/**
 * What the folder source observed last time, by path: the file's size, modification and change
 * times (ns) and inode, with the observation it gave. A file whose stamp is the same and whose raw
 * copy is stored is not read again — a daily run over a dropped history re-read ~2 GB for nothing.
 * The change time cannot be set by tools like `touch`, so any write to the file changes its stamp.
 * Derived data under data/cache/: deleting it only makes the next run read every file again.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import type { RawFileObserved } from "./ledger/Ledger.ts"

interface Entry {
  readonly stamp: string
  readonly observed: RawFileObserved
}

export class FolderMemo {
  readonly path: string
  private readonly entries: Map<string, Entry>
  private readonly seen = new Map<string, Entry>()
  private readonly settleNs: bigint

  /**
   * `settleMillis`: a file changed this recently when it is read is not remembered (read again
   * next time): a same-size rewrite within one tick of the file system's clock would keep its
   * stamp (git's "racy" case); 2 s covers coarse clocks (FAT, some network file systems).
   */
  constructor(path: string, options: { readonly settleMillis?: number } = {}) {
    this.path = path
    this.settleNs = BigInt(options.settleMillis ?? 2000) * 1_000_000n
    let entries: Array<[string, Entry]> = []
    try {
      if (existsSync(path)) entries = JSON.parse(readFileSync(path, "utf8")) as Array<[string, Entry]>
    } catch {
      entries = [] // a damaged memo is an empty one
    }
    this.entries = new Map(entries)
  }

  static stamp(file: string): string {
    const s = statSync(file, { bigint: true })
    return `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}`
  }

  /** The observation `file` gave when its stamp was this one, if its raw copy is still stored. */
  lookup(file: string, stamp: string, stored: (sha256: string) => boolean): RawFileObserved | undefined {
    const entry = this.entries.get(file)
    if (entry === undefined || entry.stamp !== stamp || !stored(entry.observed.sha256)) return undefined
    this.seen.set(file, entry)
    return entry.observed
  }

  remember(file: string, stamp: string, observed: RawFileObserved): void {
    const [, mtime = "0", ctime = "0"] = stamp.split(":")
    const changedNs = BigInt(mtime) > BigInt(ctime) ? BigInt(mtime) : BigInt(ctime)
    if (BigInt(Date.now()) * 1_000_000n - changedNs < this.settleNs) return
    this.seen.set(file, { stamp, observed })
  }

  /** Keeps the files of this run only (files gone from the folder are forgotten). */
  save(): void {
    mkdirSync(dirname(this.path), { recursive: true })
    const tmp = `${this.path}.${process.pid}.tmp`
    writeFileSync(tmp, JSON.stringify([...this.seen]))
    renameSync(tmp, this.path)
  }
}
