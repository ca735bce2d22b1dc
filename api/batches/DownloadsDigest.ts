/**
 * The SHA-256 of a snapshot file, for `Repr-Digest` and the download's ETag. Hashing a full-size
 * file reads every byte (about a second per 500 MB), so it is done once per file and kept in
 * memory under the file's identity (device, inode, size, modification and change times): a file
 * put in its place or written into is another identity and is hashed again. Concurrent first
 * downloads of a file wait for the same hash. The file is read in 1 MiB steps, giving the event
 * loop back between them.
 */
import { createHash } from "node:crypto"
import type { BigIntStats } from "node:fs"
import { open } from "node:fs/promises"

/** The identity of a file from its (bigint) stat, as api/snapshot/FileIdentity.ts writes it. */
export const identityOf = (s: BigIntStats): string => `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`

/** Thrown when the file under the path is no longer the one the request opened. */
export class FileChanged extends Error {}

const KEPT = 64
const digests = new Map<string, Promise<Buffer>>()
const STEP = 1 << 20

const hashFile = async (path: string, identity: string): Promise<Buffer> => {
  const handle = await open(path, "r")
  try {
    const stats = await handle.stat({ bigint: true })
    if (identityOf(stats) !== identity) throw new FileChanged(`${path} changed while it was opened`)
    const hash = createHash("sha256")
    const buffer = Buffer.allocUnsafe(STEP)
    const size = Number(stats.size)
    for (let at = 0; at < size; ) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(STEP, size - at), at)
      if (bytesRead === 0) throw new FileChanged(`${path} ended early`)
      hash.update(buffer.subarray(0, bytesRead))
      at += bytesRead
    }
    return hash.digest()
  } finally {
    await handle.close()
  }
}

/** The SHA-256 of the file at `path` whose identity is `identity` (hashed once, then kept). */
export const fileDigest = (path: string, identity: string): Promise<Buffer> => {
  const kept = digests.get(identity)
  if (kept !== undefined) {
    // most recently used last
    digests.delete(identity)
    digests.set(identity, kept)
    return kept
  }
  const digest = hashFile(path, identity)
  digests.set(identity, digest)
  // a failed read is not kept: the next request tries again
  digest.catch(() => {
    if (digests.get(identity) === digest) digests.delete(identity)
  })
  if (digests.size > KEPT) digests.delete(digests.keys().next().value!)
  return digest
}
