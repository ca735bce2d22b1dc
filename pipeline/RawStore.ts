/** Raw CMF bytes exactly as received, content-addressed under data/raw/<sha[0:2]>/<sha>; never rewritten. */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"

export const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

export class RawStore {
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
      const tmp = `${path}.${process.pid}.tmp`
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
