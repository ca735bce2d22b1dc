/**
 * The bucket as a transport, end to end on loopback: the fixture's published batches (snapshot
 * files, manifests, CURRENT and a ledger) uploaded by publishToBucket into an s3rver started here,
 * then read back by BucketSource as a follower would: the list, a manifest, the snapshot file
 * (whole, resumed after a cut, refused when it does not fit), each checked by the follower's own
 * verifyDownload. Also: running it again uploads nothing; the index is the last object written (an
 * upload failing midway leaves it as it was, and the next run finishes without sending again what
 * is whole); a rollback moves the index's current flag.
 */
import { createHash } from "node:crypto"
import { existsSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SqliteLedger } from "../../pipeline/ledger/Ledger.ts"
import { type BucketSettings, BucketRefused, bucketClient, bucketSettings } from "../../ops/Bucket.ts"
import type { BucketIndex } from "../../ops/BucketIndex.ts"
import { type PublishReport, publishToBucket } from "../../ops/BucketPublish.ts"
import { bucketSource } from "../../ops/BucketSource.ts"
import { partPaths, TransferRefused, verifyDownload } from "../../ops/FollowTransfer.ts"
import { readManifest } from "../../snapshots/Manifest.ts"
import { publishCurrent } from "../../snapshots/Pointer.ts"
import { recordPublished } from "../downloads/ledger.ts"
import { type BucketServer, startBucketServer } from "../support/bucketServer.ts"
import { makeFixtureA, type PublishedSnapshot, publishFixtureB } from "../support/snapshotFixture.ts"
import { envProvider, readSettings } from "../../pipeline/Settings.ts"

// biome-ignore lint/suspicious/noExplicitAny: log lines are plain JSON
type Json = any

const sha256 = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex")
const idOf = (s: PublishedSnapshot): string => s.finished.file.replace(/\.sqlite$/, "")

/** A client whose `commandName` request number `nth` (counted from now) fails before it is sent. */
const failing = (settings: BucketSettings, commandName: string, nth: number, matchKey?: RegExp): S3Client => {
  const client = bucketClient(settings)
  let seen = 0
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const key = String((args.input as { Key?: string }).Key ?? "")
      if (context.commandName === commandName && (matchKey === undefined || matchKey.test(key)) && ++seen === nth) {
        throw new Error(`injected: ${commandName} of ${key} failed`)
      }
      return next(args)
    },
    { step: "initialize", name: "injectFailure" },
  )
  return client
}

describe("the bucket as a transport: publish, then follow from it", () => {
  let server: BucketServer
  let settings: BucketSettings
  let client: S3Client
  const fixture = makeFixtureA()
  const snapshots = fixture.snapshotsDir
  let b: PublishedSnapshot
  const lines: Json[] = []
  const log = (level: string, msg: string, fields: Record<string, unknown> = {}) => lines.push({ level, msg, ...fields })
  // small parts: the snapshot goes up as a multipart upload
  const publish = (o: { client?: S3Client; settings?: BucketSettings } = {}): Promise<PublishReport> =>
    publishToBucket({ settings: o.settings ?? settings, client: o.client ?? client, dataDir: fixture.dataDir, log, partBytes: 16 * 1024 })
  const getText = async (key: string, s: BucketSettings = settings): Promise<string | null> => {
    try {
      const got = await client.send(new GetObjectCommand({ Bucket: s.bucket, Key: key }))
      return (await got.Body?.transformToString("utf8")) ?? null
    } catch {
      return null
    }
  }
  const index = async (s: BucketSettings = settings): Promise<BucketIndex> =>
    JSON.parse((await getText(s.prefix === "" ? "index.json" : `${s.prefix}/index.json`, s))!) as BucketIndex

  beforeAll(async () => {
    server = await startBucketServer()
    settings = readSettings(bucketSettings, envProvider(server.env("fds/prod")))!
    client = bucketClient(settings)
    const a = fixture.snapshot.finished
    recordPublished(fixture.dataDir, { batchDate: fixture.snapshot.data.batchDate, file: a.file, contentHash: a.contentHash })
  })

  afterAll(async () => {
    client?.destroy()
    await server?.close()
    fixture.cleanup()
  })

  it("publish uploads the published batch (multipart), its manifest, then the index", async () => {
    const a = fixture.snapshot.finished
    const report = await publish()
    expect(report).toEqual({ uploaded: [idOf(fixture.snapshot)], missing: [], index: "written", current: idOf(fixture.snapshot) })
    expect(statSync(a.path).size).toBeGreaterThan(2 * 16 * 1024)
    const written = await index()
    expect(written.format).toBe(1)
    expect(written.batches).toEqual([
      {
        id: idOf(fixture.snapshot),
        batch_date: "2026-02-06",
        content_hash: a.contentHash,
        sha256: sha256(a.path),
        bytes: statSync(a.path).size,
        published_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        current: true,
        retained: true,
      },
    ])
    const manifest = await getText(`fds/prod/batches/${idOf(fixture.snapshot)}.manifest.json`)
    expect(JSON.parse(manifest!)).toEqual(readManifest(snapshots, a.file))
    expect(lines.map((l) => l.msg)).toEqual(["batch uploaded", "bucket index written"])
  })

  it("running it again uploads nothing and leaves the index as it was", async () => {
    const before = await index()
    lines.length = 0
    const report = await publish()
    expect(report).toEqual({ uploaded: [], missing: [], index: "unchanged", current: idOf(fixture.snapshot) })
    expect(await index()).toEqual(before)
    expect(lines).toEqual([])
  })

  it("a new batch: uploaded alone, listed first and current", async () => {
    b = publishFixtureB(snapshots)
    recordPublished(fixture.dataDir, { batchDate: b.data.batchDate, file: b.finished.file, contentHash: b.finished.contentHash })
    const report = await publish()
    expect(report.uploaded).toEqual([idOf(b)])
    expect((await index()).batches.map((x) => [x.id, x.current, x.retained])).toEqual([
      [idOf(b), true, true],
      [idOf(fixture.snapshot), false, true],
    ])
  })

  it("BucketSource lists the batches as the API does, newest first, and gives a manifest", async () => {
    const source = bucketSource({ settings })
    expect(source.describe).toBe(`s3://${server.bucket}/fds/prod at ${server.endpoint}`)
    expect(await source.listBatches()).toEqual([
      { id: idOf(b), attributes: { batch_date: b.data.batchDate, content_hash: b.finished.contentHash, retained: true, current: true } },
      {
        id: idOf(fixture.snapshot),
        attributes: { batch_date: "2026-02-06", content_hash: fixture.snapshot.finished.contentHash, retained: true, current: false },
      },
    ])
    expect(await source.fetchManifest(idOf(b))).toEqual(readManifest(snapshots, b.finished.file))
    await expect(source.fetchManifest("2026-01-01-0123456789abcdef")).rejects.toThrow(BucketRefused)
    await expect(source.fetchManifest("../index")).rejects.toThrow(/not a batch id/)
    // JSON is read up to a bound
    await expect(bucketSource({ settings, maxManifestBytes: 100 }).fetchManifest(idOf(b))).rejects.toThrow(/over 100 bytes/)
  })

  it("downloads a snapshot whole, then resumes a cut one with Range; the follower's checks pass", async () => {
    const follower = makeFixtureA()
    try {
      const source = bucketSource({ settings })
      const [listed] = await source.listBatches()
      const paths = partPaths(follower.snapshotsDir, idOf(b))
      const whole = await source.downloadSnapshot(idOf(b), paths)
      const size = statSync(b.finished.path).size
      expect(whole).toEqual({ reprDigest: `sha-256=:${createHash("sha256").update(readFileSync(b.finished.path)).digest("base64")}:`, size, resumedFrom: 0 })
      expect(sha256(paths.part)).toBe(sha256(b.finished.path))
      const manifest = await source.fetchManifest(idOf(b))
      await verifyDownload(paths.part, listed!, manifest, whole.reprDigest)

      // cut after 40 %: the next attempt asks only for the rest
      const cut = Math.floor(size * 0.4)
      truncateSync(paths.part, cut)
      const resumed = await source.downloadSnapshot(idOf(b), paths)
      expect(resumed).toEqual({ reprDigest: whole.reprDigest, size, resumedFrom: cut })
      await verifyDownload(paths.part, listed!, manifest, resumed.reprDigest)

      // all there already: nothing asked
      expect(await source.downloadSnapshot(idOf(b), paths)).toEqual({ reprDigest: whole.reprDigest, size, resumedFrom: size })

      // a part kept from another object (its ETag differs): fetched whole
      truncateSync(paths.part, cut)
      writeFileSync(paths.etag, '"0123456789abcdef0123456789abcdef"')
      expect((await source.downloadSnapshot(idOf(b), paths)).resumedFrom).toBe(0)
      expect(sha256(paths.part)).toBe(sha256(b.finished.path))

      // a part without its ETag: fetched whole
      truncateSync(paths.part, cut)
      rmSync(paths.etag)
      expect((await source.downloadSnapshot(idOf(b), paths)).resumedFrom).toBe(0)

      // a part longer than the file the index lists: refused and removed
      writeFileSync(paths.part, Buffer.concat([readFileSync(b.finished.path), Buffer.from("more")]))
      await expect(source.downloadSnapshot(idOf(b), paths)).rejects.toThrow(TransferRefused)
      expect(existsSync(paths.part)).toBe(false)
    } finally {
      follower.cleanup()
    }
  })

  it("a file in the bucket longer than the index says is refused; one with a byte changed fails the follower's SHA-256 check", async () => {
    // a copy of the bucket under another prefix, then damaged there
    const other = readSettings(bucketSettings, envProvider(server.env("damaged")))!
    await publish({ settings: other })
    const key = `damaged/batches/${idOf(b)}.sqlite`
    const original = readFileSync(b.finished.path)
    const follower = makeFixtureA()
    try {
      const source = bucketSource({ settings: other })
      const listed = (await source.listBatches())[0]!
      const paths = partPaths(follower.snapshotsDir, idOf(b))

      await client.send(new PutObjectCommand({ Bucket: other.bucket, Key: key, Body: Buffer.concat([original, Buffer.alloc(1024)]) }))
      await expect(source.downloadSnapshot(idOf(b), paths)).rejects.toThrow(/is \d+ bytes, the index says \d+/)
      expect(existsSync(paths.part)).toBe(false)

      const flipped = Buffer.from(original)
      flipped[Math.floor(flipped.length / 2)]! ^= 0xff
      await client.send(new PutObjectCommand({ Bucket: other.bucket, Key: key, Body: flipped }))
      const got = await source.downloadSnapshot(idOf(b), paths)
      await expect(verifyDownload(paths.part, listed, await source.fetchManifest(idOf(b)), got.reprDigest)).rejects.toThrow(/SHA-256/)
    } finally {
      follower.cleanup()
    }
  })

  it("an upload failing midway leaves the index as it was; the next run finishes without sending again what is whole", async () => {
    const other = readSettings(bucketSettings, envProvider(server.env("cut")))!
    const primary = makeFixtureA()
    const a = primary.snapshot.finished
    recordPublished(primary.dataDir, { batchDate: "2026-02-06", file: a.file, contentHash: a.contentHash })
    const run = (c: S3Client = client) => publishToBucket({ settings: other, client: c, dataDir: primary.dataDir, log, partBytes: 16 * 1024 })
    try {
      // the snapshot's second part fails: nothing is announced, and no part is left behind as an object
      await expect(run(failing(other, "UploadPartCommand", 2))).rejects.toThrow(/^injected: UploadPartCommand/)
      expect(await getText("cut/index.json", other)).toBeNull()
      expect(await getText(`cut/batches/${idOf(primary.snapshot)}.sqlite`, other)).toBeNull()
      expect((await run()).uploaded).toEqual([idOf(primary.snapshot)])
      const before = await index(other)

      // a new batch whose manifest fails after its snapshot went up: the index stays the one before, byte for byte
      const next = publishFixtureB(primary.snapshotsDir)
      recordPublished(primary.dataDir, { batchDate: next.data.batchDate, file: next.finished.file, contentHash: next.finished.contentHash })
      await expect(run(failing(other, "PutObjectCommand", 1, /manifest\.json$/))).rejects.toThrow(/injected/)
      expect(await index(other)).toEqual(before)
      expect(await getText(`cut/batches/${idOf(next)}.sqlite`, other)).not.toBeNull()
      expect(await bucketSource({ settings: other }).listBatches()).toHaveLength(1)

      // the next run sends the manifest, not the snapshot again, then the index
      lines.length = 0
      expect(await run()).toEqual({ uploaded: [idOf(next)], missing: [], index: "written", current: idOf(next) })
      expect(lines.find((l) => l.msg === "batch uploaded")).toMatchObject({ batch: idOf(next), snapshot_already_there: true })
      expect((await index(other)).batches.map((x) => [x.id, x.current, x.retained])).toEqual([
        [idOf(next), true, true],
        [idOf(primary.snapshot), false, true],
      ])
    } finally {
      primary.cleanup()
    }
  })

  it("a rollback on the primary moves the index's current flag; nothing is uploaded", async () => {
    const a = fixture.snapshot.finished
    publishCurrent(snapshots, a.file)
    const ledger = new SqliteLedger(join(fixture.dataDir, "ledger.sqlite"))
    try {
      ledger.append({
        type: "BatchRolledBack",
        payload: { batch_date: "2026-02-06", file: a.file, content_hash: a.contentHash, from_file: b.finished.file, reason: "test" },
      })
    } finally {
      ledger.close()
    }
    const report = await publish()
    expect(report).toEqual({ uploaded: [], missing: [], index: "written", current: idOf(fixture.snapshot) })
    expect((await index()).batches.map((x) => [x.id, x.current])).toEqual([
      [idOf(b), false],
      [idOf(fixture.snapshot), true],
    ])
    const listed = await bucketSource({ settings }).listBatches()
    expect(listed.find((x) => x.attributes.current)?.id).toBe(idOf(fixture.snapshot))
  })

  it("an index that does not fit its format is refused by the follower, and not overwritten by the publisher", async () => {
    const other = readSettings(bucketSettings, envProvider(server.env("garbled")))!
    const put = (body: string) => client.send(new PutObjectCommand({ Bucket: other.bucket, Key: "garbled/index.json", Body: body }))
    await put(JSON.stringify({ format: 1, written_at: "x", batches: [{ id: "../../etc/passwd" }] }))
    await expect(bucketSource({ settings: other }).listBatches()).rejects.toThrow(/index.json does not fit its format/)
    await expect(publish({ settings: other })).rejects.toThrow(/remove it to have it written again/)
    await put("{ not json")
    await expect(bucketSource({ settings: other }).listBatches()).rejects.toThrow(/not JSON/)
    await put(JSON.stringify({ format: 1, written_at: "x", batches: [] }) + " ".repeat(1024))
    expect(await bucketSource({ settings: other }).listBatches()).toEqual([])
  })

  it("a published batch whose file retention removed before it went up: listed, not retained, refused for download", async () => {
    const other = readSettings(bucketSettings, envProvider(server.env("missing")))!
    const primary = makeFixtureA()
    const a = primary.snapshot.finished
    const gone = { batchDate: "2026-02-05", file: "2026-02-05-00000000000000aa.sqlite", contentHash: `00000000000000aa${"0".repeat(48)}` }
    recordPublished(primary.dataDir, gone, { batchDate: "2026-02-06", file: a.file, contentHash: a.contentHash })
    try {
      const report = await publishToBucket({ settings: other, client, dataDir: primary.dataDir, log })
      expect(report).toEqual({ uploaded: [idOf(primary.snapshot)], missing: ["2026-02-05-00000000000000aa"], index: "written", current: idOf(primary.snapshot) })
      expect((await index(other)).batches[1]).toMatchObject({ id: "2026-02-05-00000000000000aa", sha256: null, bytes: null, current: false, retained: false })
      const source = bucketSource({ settings: other })
      expect((await source.listBatches()).map((x) => [x.id, x.attributes.retained])).toEqual([
        [idOf(primary.snapshot), true],
        ["2026-02-05-00000000000000aa", false],
      ])
      const paths = partPaths(primary.snapshotsDir, "2026-02-05-00000000000000aa")
      await expect(source.downloadSnapshot("2026-02-05-00000000000000aa", paths)).rejects.toThrow(/is not in the bucket/)
      expect(existsSync(paths.part)).toBe(false)
    } finally {
      primary.cleanup()
    }
  })

  it("another publisher's index written during the uploads: what it announced stays announced", async () => {
    const other = readSettings(bucketSettings, envProvider(server.env("race")))!
    const primary = makeFixtureA()
    const a = primary.snapshot.finished
    const early = { batchDate: "2026-02-05", file: "2026-02-05-00000000000000bb.sqlite", contentHash: `00000000000000bb${"0".repeat(48)}` }
    recordPublished(primary.dataDir, early, { batchDate: "2026-02-06", file: a.file, contentHash: a.contentHash })
    // while this run uploads A, another one (which still had the early batch's file) writes the index
    const theirs: BucketIndex = {
      format: 1,
      written_at: "2026-02-06T10:00:00.000Z",
      batches: [
        { id: "2026-02-05-00000000000000bb", batch_date: "2026-02-05", content_hash: early.contentHash, sha256: "ab".repeat(32), bytes: 4096, published_at: "2026-02-05T10:00:00.000Z", current: true, retained: true },
      ],
    }
    const racing = bucketClient(other)
    let raced = false
    racing.middlewareStack.add(
      (next, context) => async (args) => {
        if (!raced && context.commandName === "UploadPartCommand") {
          raced = true
          await client.send(new PutObjectCommand({ Bucket: other.bucket, Key: "race/index.json", Body: JSON.stringify(theirs) }))
        }
        return next(args)
      },
      { step: "initialize", name: "race" },
    )
    try {
      const report = await publishToBucket({ settings: other, client: racing, dataDir: primary.dataDir, log, partBytes: 16 * 1024 })
      expect(raced).toBe(true)
      expect(report.uploaded).toEqual([idOf(primary.snapshot)])
      expect((await index(other)).batches.map((x) => [x.id, x.current, x.retained, x.sha256])).toEqual([
        [idOf(primary.snapshot), true, true, sha256(a.path)],
        ["2026-02-05-00000000000000bb", false, true, "ab".repeat(32)],
      ])
    } finally {
      racing.destroy()
      primary.cleanup()
    }
  })

  it("no index yet: nothing published", async () => {
    expect(await bucketSource({ settings: readSettings(bucketSettings, envProvider(server.env("empty")))! }).listBatches()).toEqual([])
  })
})
