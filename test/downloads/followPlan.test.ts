/**
 * The follower's choices, on worked examples: which of the primary's batches it brings in (the
 * ones published since the newest it knows, still kept, oldest first, then the current one; a
 * rollback to a known batch alone), and the checks a downloaded file must pass before it is
 * published (SHA-256 against Repr-Digest; content hash and row counts against the manifest, the
 * manifest against the listed batch), each refusal naming what differs.
 */
import { createHash } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import type { PrimaryBatch } from "../../ops/BatchSource.ts"
import { batchesToFollow } from "../../ops/Follow.ts"
import { TransferRefused, verifyDownload } from "../../ops/FollowTransfer.ts"
import { readManifest } from "../../snapshots/Manifest.ts"
import { fixtureB, makeFixtureA, publishSnapshot } from "../support/snapshotFixture.ts"

const batch = (id: string, opts: { current?: boolean; retained?: boolean } = {}): PrimaryBatch => ({
  id,
  attributes: { batch_date: id.slice(0, 10), content_hash: `${id.slice(11)}${"0".repeat(48)}`, retained: opts.retained ?? true, current: opts.current ?? false },
})
const ids = (bs: ReadonlyArray<PrimaryBatch>) => bs.map((b) => b.id)
const known = (...names: string[]) => new Set(names.map((n) => `${n}.sqlite`))

const D1 = "2026-11-16-1111111111111111"
const D2 = "2026-11-17-2222222222222222"
const D3 = "2026-11-18-3333333333333333"
const D4 = "2026-11-19-4444444444444444"

describe("batchesToFollow", () => {
  // newest first, as GET /api/batches lists them
  const listed = (current: string, removed: string[] = []) =>
    [D4, D3, D2, D1].map((id) => batch(id, { current: id === current, retained: !removed.includes(id) }))

  it("a replica that knows nothing takes the current batch alone (no history before it started)", () => {
    expect(ids(batchesToFollow(listed(D4), known()))).toEqual([D4])
  })

  it("a replica that was away takes what was published meanwhile, oldest first, then the current one", () => {
    expect(ids(batchesToFollow(listed(D4), known(D1)))).toEqual([D2, D3, D4])
    expect(ids(batchesToFollow(listed(D4), known(D1, D2)))).toEqual([D3, D4])
    // a batch the primary no longer keeps is skipped
    expect(ids(batchesToFollow(listed(D4, [D2]), known(D1)))).toEqual([D3, D4])
  })

  it("a rollback on the primary: the batch gone back to, alone, whether the replica knows it or not", () => {
    expect(ids(batchesToFollow(listed(D2), known(D1, D2, D3, D4)))).toEqual([D2])
    expect(ids(batchesToFollow(listed(D2), known(D3, D4)))).toEqual([D2])
  })

  it("nothing when the primary serves nothing", () => {
    expect(batchesToFollow([batch(D1), batch(D2)], known())).toEqual([])
  })
})

describe("verifyDownload", () => {
  const fx = makeFixtureA()
  const b = publishSnapshot(fx.snapshotsDir, fixtureB())
  afterAll(() => fx.cleanup())

  const listedAs = (file: string, contentHash: string): PrimaryBatch => ({
    id: file.replace(/\.sqlite$/, ""),
    attributes: { batch_date: file.slice(0, 10), content_hash: contentHash, retained: true, current: true },
  })
  const digestOf = (path: string) => `sha-256=:${createHash("sha256").update(readFileSync(path)).digest("base64")}:`
  const refusal = async (f: () => Promise<void>): Promise<string> => {
    try {
      await f()
    } catch (e) {
      expect(e).toBeInstanceOf(TransferRefused)
      return (e as Error).message
    }
    throw new Error("not refused")
  }

  it("passes a file whose bytes, content hash and row counts are what the primary and the manifest say", async () => {
    const file = fx.snapshot.finished.file
    const manifest = readManifest(fx.snapshotsDir, file)
    const path = join(fx.snapshotsDir, file)
    await expect(verifyDownload(path, listedAs(file, manifest.content_hash), manifest, digestOf(path))).resolves.toBeUndefined()
  })

  it("refuses other bytes, another batch's data, a manifest of another file or hash, and rows the manifest does not count", async () => {
    const file = fx.snapshot.finished.file
    const manifest = readManifest(fx.snapshotsDir, file)
    const path = join(fx.snapshotsDir, file)
    const listed = listedAs(file, manifest.content_hash)
    expect(await refusal(() => verifyDownload(path, listed, manifest, "sha-256=:AAAA:"))).toMatch(/SHA-256 is sha-256=:.*the primary's Repr-Digest sha-256=:AAAA:/)
    // B's file under A's name, its digest consistent with its bytes: its data is not A's
    expect(await refusal(() => verifyDownload(b.finished.path, listed, manifest, digestOf(b.finished.path)))).toContain(
      `the file's content hash is ${b.finished.contentHash}, its manifest's ${manifest.content_hash}`,
    )
    expect(await refusal(() => verifyDownload(path, listed, { ...manifest, file: b.finished.file }, digestOf(path)))).toContain(
      `the manifest names ${b.finished.file}`,
    )
    expect(await refusal(() => verifyDownload(path, listedAs(file, b.finished.contentHash), manifest, digestOf(path)))).toContain(
      `is not the listed ${b.finished.contentHash}`,
    )
    const counted = { ...manifest, row_counts: { ...manifest.row_counts, quotas: manifest.row_counts.quotas! + 1 } }
    expect(await refusal(() => verifyDownload(path, listed, counted, digestOf(path)))).toContain(`quotas holds ${manifest.row_counts.quotas} rows`)
    // bytes that are no database at all
    const garbage = join(fx.dataDir, "garbage.sqlite")
    writeFileSync(garbage, Buffer.concat([Buffer.alloc(100, 0x5a), readFileSync(path).subarray(100)]))
    expect(await refusal(() => verifyDownload(garbage, listed, manifest, digestOf(garbage)))).toContain("cannot be read as a snapshot")
  })
})
