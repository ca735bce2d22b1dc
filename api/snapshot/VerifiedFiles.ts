/**
 * Snapshot files that passed their checks (SnapshotVerification.ts), each with its identity
 * (FileIdentity.ts) when checked. A file opened again with the same identity holds the same bytes
 * and is not checked again: the served snapshot after a swap, when `?batch=` asks for it as a
 * past batch, and a past batch reopened after it left the cache (PastSnapshots.ts). A changed
 * file has another identity and is checked again.
 */
import type { VerifiedSnapshot } from "./SnapshotVerification.ts"

/** Far more than the files retention keeps; the oldest remembered goes first. */
const REMEMBERED = 1024

export class VerifiedFiles {
  private readonly byFile = new Map<string, { readonly identity: string; readonly snapshot: VerifiedSnapshot }>()

  remember(file: string, identity: string | null, snapshot: VerifiedSnapshot): void {
    if (identity === null) return
    this.byFile.delete(file)
    if (this.byFile.size >= REMEMBERED) this.byFile.delete(this.byFile.keys().next().value!)
    this.byFile.set(file, { identity, snapshot })
  }

  /** What the check found, when `file` passed it with this identity; null otherwise. */
  recall(file: string, identity: string | null): VerifiedSnapshot | null {
    const known = this.byFile.get(file)
    return known !== undefined && identity !== null && known.identity === identity ? known.snapshot : null
  }

  forget(file: string): void {
    this.byFile.delete(file)
  }
}
