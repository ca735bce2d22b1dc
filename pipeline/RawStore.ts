/** Raw CMF bytes exactly as received, content-addressed under data/raw/<sha[0:2]>/<sha>; never rewritten. */

import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { threadId } from "node:worker_threads"
import { Context, Layer } from "effect"

export const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

/** The raw store on a folder (data/raw). */
export class FolderRawStore {
  readonly dir: string
  constructor(dir: string) {
    this.dir = dir
  }

  pathOf(sha: string): string {
    return join(this.dir, sha.slice(0, 2), sha)
  }

  /** Stores the bytes (once) and returns their hash. */
  put(bytes: Uint8Array): string {
    const sha = sha256(bytes)
    const path = this.pathOf(sha)
    if (!existsSync(path)) {
      mkdirSync(join(this.dir, sha.slice(0, 2)), { recursive: true })
      // the process and thread: a cold build's collect stores files from two processes (RecognizeAhead.ts)
      const tmp = `${path}.${process.pid}-${threadId}.tmp`
      writeFileSync(tmp, bytes, { flush: true })
      renameSync(tmp, path)
    }
    return sha
  }

  has(sha: string): boolean {
    return existsSync(this.pathOf(sha))
  }

  get(sha: string): Uint8Array {
    const bytes = readFileSync(this.pathOf(sha))
    if (sha256(bytes) !== sha) throw new Error(`raw file ${sha} is corrupt (hash differs)`)
    return bytes
  }
}

/** A raw store in a Map, gone with its layer; bytes are copied in and out, as the folder's are. */
const memoryRawStore = (): RawStore["Service"] => {
  const files = new Map<string, Buffer>()
  return {
    dir: null,
    put: (bytes) => {
      const sha = sha256(bytes)
      if (!files.has(sha)) files.set(sha, Buffer.from(bytes))
      return sha
    },
    has: (sha) => files.has(sha),
    get: (sha) => {
      const bytes = files.get(sha)
      if (bytes === undefined) throw new Error(`raw file ${sha} is not stored`)
      return Buffer.from(bytes) // a copy, as a Buffer like the folder's
    },
  }
}

/** Where a run keeps the raw files it collects and reads them back by hash. */
export class RawStore extends Context.Service<
  RawStore,
  {
    /** The folder an on-disk store keeps its files in, which a child process can open; null in memory. */
    readonly dir: string | null
    /** Stores the bytes (once) and returns their hash. */
    readonly put: (bytes: Uint8Array) => string
    readonly has: (sha: string) => boolean
    /** The bytes of a stored file; a missing or corrupt one throws. */
    readonly get: (sha: string) => Uint8Array
  }
>()("fds/pipeline/RawStore") {
  /** The store on the folder `dir` (data/raw). */
  static readonly layer = (dir: string) => Layer.sync(RawStore, () => new FolderRawStore(dir))

  /** An empty store in memory, for tests. */
  static readonly layerMemory = Layer.sync(RawStore, memoryRawStore)
}
