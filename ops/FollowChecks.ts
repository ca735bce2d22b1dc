/**
 * What the follower refuses from its source (the primary's API or a bucket), whatever the
 * transport: a list or manifest that is not what it claims, checked before any path is built from
 * it (a batch id that could climb out of the snapshots folder, a manifest naming another file or
 * another batch date), and a downloaded file the replica's own API would refuse (the checks it
 * runs before a swap, api/snapshot/SnapshotVerification.ts: the manifest's batch date against the
 * snapshot's meta, row counts, quick_check, content hash). Refusals are TransferRefused, naming
 * what differs.
 */
import { mkdirSync, renameSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileIdentity } from "../api/snapshot/FileIdentity.ts"
import { verifySnapshot } from "../api/snapshot/SnapshotVerification.ts"
import { isBatchId } from "../schemas/Batches.ts"
import { renameDurably, writeFileAtomic } from "../snapshots/Files.ts"
import { type Manifest, manifestPath, writeManifest } from "../snapshots/Manifest.ts"
import type { PrimaryBatch } from "./BatchSource.ts"
import { MAX_BATCHES, TransferRefused } from "./FollowTransfer.ts"

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/** A value of the source's, quoted in a refusal: JSON, cut short. */
const quote = (v: unknown): string => (JSON.stringify(v) ?? String(v)).slice(0, 120)

/**
 * The source's list, checked before anything is built from it: at most MAX_BATCHES, each a batch
 * id listed once, with the batch date and content hash its id says, at most one current.
 */
export const checkListing = (listed: unknown): PrimaryBatch[] => {
  if (!Array.isArray(listed)) throw new TransferRefused("the batch list is not a list")
  if (listed.length > MAX_BATCHES) throw new TransferRefused(`the batch list holds ${listed.length} batches, more than ${MAX_BATCHES}`)
  const seen = new Set<string>()
  let currents = 0
  for (const b of listed as unknown[]) {
    const id = isRecord(b) ? b.id : undefined
    if (typeof id !== "string" || !isBatchId(id)) throw new TransferRefused(`the batch list names ${quote(id)}: not a batch id`)
    if (seen.has(id)) throw new TransferRefused(`the batch list names ${id} twice`)
    seen.add(id)
    const a = (b as Record<string, unknown>).attributes
    if (!isRecord(a) || typeof a.batch_date !== "string" || typeof a.content_hash !== "string" || typeof a.retained !== "boolean" || typeof a.current !== "boolean") {
      throw new TransferRefused(`${id}: listed without a batch's attributes`)
    }
    if (a.batch_date !== id.slice(0, 10)) throw new TransferRefused(`${id}: listed with batch date ${quote(a.batch_date)}, not its id's`)
    if (!/^[0-9a-f]{64}$/.test(a.content_hash) || !a.content_hash.startsWith(id.slice(11))) {
      throw new TransferRefused(`${id}: listed with content hash ${quote(a.content_hash)}, not its id's`)
    }
    if (a.current) currents += 1
  }
  if (currents > 1) throw new TransferRefused(`the batch list marks ${currents} batches current`)
  return listed as PrimaryBatch[]
}

/** The source's manifest of `batch`, checked before any path is built from it: it names `<id>.sqlite`, with the listed date and hash. */
export const checkManifest = (batch: PrimaryBatch, manifest: unknown): Manifest => {
  const file = `${batch.id}.sqlite`
  if (!isRecord(manifest)) throw new TransferRefused(`${batch.id}: the manifest is not an object`)
  if (manifest.file !== file) throw new TransferRefused(`${batch.id}: the manifest names ${typeof manifest.file === "string" ? manifest.file.slice(0, 200) : quote(manifest.file)}, not ${file}`)
  if (manifest.batch_date !== batch.attributes.batch_date) {
    throw new TransferRefused(`${batch.id}: the manifest's batch date ${quote(manifest.batch_date)} is not its id's`)
  }
  if (manifest.content_hash !== batch.attributes.content_hash) {
    throw new TransferRefused(`${batch.id}: the manifest's content hash ${quote(manifest.content_hash)} is not the listed ${batch.attributes.content_hash}`)
  }
  if (!isRecord(manifest.row_counts)) throw new TransferRefused(`${batch.id}: the manifest has no row counts`)
  return manifest as unknown as Manifest
}

/** Files (snapshot and manifest identities) that passed the API's checks in this process: not checked again. */
const passed = new Map<string, string>()

/**
 * Why the replica's API would refuse `dir/file` (the checks it runs before a swap,
 * SnapshotVerification.ts), or null when it would serve it. A pass is remembered while the file
 * and its manifest stay as they were.
 */
export const apiRefusal = (dir: string, file: string): string | null => {
  const path = join(dir, file)
  if (passed.get(path) === identityOf(dir, file)) return null
  passed.delete(path)
  try {
    verifySnapshot(dir, file)
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
  passed.set(path, identityOf(dir, file))
  return null
}

const identityOf = (dir: string, file: string): string => `${fileIdentity(join(dir, file))} ${fileIdentity(manifestPath(dir, file))}`

/**
 * Puts the checked download beside its manifest in a folder of its own and runs the API's checks
 * on it there; moves it to `<id>.sqlite` only when they pass, its manifest beside it (`manifestBytes`
 * when given: the build manifest's own bytes). Throws TransferRefused otherwise.
 * The download's content hash was checked against this manifest by verifyDownload, on these
 * bytes: it is not computed again.
 */
export const checkAsTheApi = (dir: string, part: string, manifest: Manifest, manifestBytes: Uint8Array | null = null): void => {
  const id = manifest.file.replace(/\.sqlite$/, "")
  const staging = join(dir, `.follow-${id}.check`)
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging)
  try {
    renameSync(part, join(staging, manifest.file))
    writeManifest(staging, manifest)
    try {
      verifySnapshot(staging, manifest.file, { contentHashChecked: true })
    } catch (e) {
      throw new TransferRefused(`${id}: the API would refuse it (${e instanceof Error ? e.message : String(e)})`)
    }
    renameDurably(join(staging, manifest.file), join(dir, manifest.file))
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
  // the build manifest's own bytes when a checked release lists them (they describe the same batch: FollowRelease.ts)
  if (manifestBytes === null) writeManifest(dir, manifest)
  else writeFileAtomic(manifestPath(dir, manifest.file), manifestBytes)
  passed.set(join(dir, manifest.file), identityOf(dir, manifest.file))
}

