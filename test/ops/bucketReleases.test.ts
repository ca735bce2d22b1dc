/**
 * Releases through the bucket (s3rver on loopback): `publish` uploads a batch's signed release
 * (release manifest, signature, public key) beside its files, and a follower of the bucket copies
 * them beside the batch, byte for byte, with the build manifest's own bytes and the batch's Parquet
 * files (ops/FollowRelease.ts), which the replica's API then serves; a release whose signature does
 * not verify, or a Parquet object altered in the bucket, is not copied, and the batch is followed
 * all the same.
 */
import { generateKeyPairSync } from "node:crypto"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bucketClient, bucketKeys, bucketSettings } from "../../ops/Bucket.ts"
import { publishToBucket } from "../../ops/BucketPublish.ts"
import { bucketSource } from "../../ops/BucketSource.ts"
import { pollOnce } from "../../ops/Follow.ts"
import { envProvider, readSettings } from "../../pipeline/Settings.ts"
import { writeParquet } from "../../snapshots/parquet/WriteParquet.ts"
import { writeRelease } from "../../snapshots/releases/WriteRelease.ts"
import { recordPublished } from "../downloads/ledger.ts"
import { startReplica, stopReplica } from "../replicas/support/replica.ts"
import { createKey } from "../support/server.ts"
import { type BucketServer, startBucketServer } from "../support/bucketServer.ts"
import { makeDataDir, makeFixtureA } from "../support/snapshotFixture.ts"

describe("releases through the bucket", () => {
  let server: BucketServer
  const primary = makeFixtureA()
  const followers = [makeDataDir(), makeDataDir(), makeDataDir()]
  const a = primary.snapshot.finished
  const id = a.file.replace(/\.sqlite$/, "")
  const lines: Array<{ level: string; msg: string; fields: Record<string, unknown> }> = []
  const log = (level: string, msg: string, fields: Record<string, unknown> = {}) => lines.push({ level, msg, fields })
  /** The primary's Parquet files of the batch, read from its folder. */
  const parquetNames = () => readdirSync(join(primary.snapshotsDir, `${id}.parquet`)).sort()

  beforeAll(async () => {
    server = await startBucketServer()
    recordPublished(primary.dataDir, { batchDate: "2026-02-06", file: a.file, contentHash: a.contentHash })
    // the batch's Parquet files, before the release that lists them
    expect(writeParquet(primary.snapshotsDir, id).length).toBeGreaterThan(0)
    writeRelease({ snapshotsDir: primary.snapshotsDir, batchId: id, previousBatchId: null, key: generateKeyPairSync("ed25519").privateKey, now: new Date() })
  })
  afterAll(async () => {
    await server?.close()
    for (const d of [primary, ...followers]) d.cleanup()
  })

  it("publish uploads the release; a follower of the bucket copies it beside the batch, byte for byte; a forged signature is not copied", async () => {
    const settings = readSettings(bucketSettings, envProvider(server.env("rel")))!
    const client = bucketClient(settings)
    try {
      await publishToBucket({ settings, client, dataDir: primary.dataDir, log })
    } finally {
      client.destroy()
    }
    expect(lines.find((l) => l.msg === "batch uploaded")?.fields).toMatchObject({ batch: id, release: true, parquet_files: parquetNames().length })

    const [good, forged] = followers as [ReturnType<typeof makeDataDir>, ReturnType<typeof makeDataDir>]
    expect(await pollOnce({ source: bucketSource({ settings }), dataDir: good.dataDir, retentionDays: 3650, log })).toMatchObject({ outcome: "published" })
    for (const name of [`${id}.release.json`, `${id}.release.sig`, `${id}.manifest.json`, `${id}.sqlite`, "release-key.pem"]) {
      expect(readFileSync(join(good.snapshotsDir, name)).equals(readFileSync(join(primary.snapshotsDir, name))), name).toBe(true)
    }
    // the Parquet files, through the bucket: the same files, byte for byte
    expect(readdirSync(join(good.snapshotsDir, `${id}.parquet`)).sort()).toEqual(parquetNames())
    for (const file of parquetNames()) {
      const name = `${id}.parquet/${file}`
      expect(readFileSync(join(good.snapshotsDir, name)).equals(readFileSync(join(primary.snapshotsDir, name))), name).toBe(true)
    }

    // the signature in the bucket altered: the batch is followed, its release is not copied
    const sig = join(primary.snapshotsDir, `${id}.release.sig`)
    const bad = readFileSync(sig)
    bad[0] = bad[0]! ^ 0xff
    const forgedSettings = readSettings(bucketSettings, envProvider(server.env("forged")))!
    writeFileSync(sig, bad)
    const forgedClient = bucketClient(forgedSettings)
    try {
      await publishToBucket({ settings: forgedSettings, client: forgedClient, dataDir: primary.dataDir, log })
    } finally {
      forgedClient.destroy()
    }
    expect(await pollOnce({ source: bucketSource({ settings: forgedSettings }), dataDir: forged.dataDir, retentionDays: 3650, log })).toMatchObject({
      outcome: "published",
    })
    expect(existsSync(join(forged.snapshotsDir, a.file))).toBe(true)
    expect(existsSync(join(forged.snapshotsDir, `${id}.release.json`))).toBe(false)
    expect(lines.find((l) => l.msg === "the batch's release is not copied; the batch is followed without it")?.fields).toMatchObject({
      batch: id,
      error: expect.stringContaining("the signature does not verify"),
    })
  }, 60_000)

  it("the replica fed from the bucket serves the batch's Parquet files", async () => {
    const good = followers[0]!
    const replica = await startReplica({ FDS_DATA_DIR: good.dataDir, FDS_STALE_AFTER_HOURS: "1000000", FDS_RATE_LIMIT_PER_SECOND: "0" })
    try {
      const key = (await createKey(good.dataDir, { email: "reader@example.cl", tier: "internal" })).key
      const file = parquetNames()[0]!
      const r = await fetch(`${replica.url}/api/batches/${id}/parquet/${file}`, { headers: { "X-Api-Key": key } })
      const body = Buffer.from(await r.arrayBuffer())
      expect(r.status).toBe(200)
      expect(body.equals(readFileSync(join(primary.snapshotsDir, `${id}.parquet`, file)))).toBe(true)
    } finally {
      await stopReplica(replica)
    }
  }, 60_000)

  it("a Parquet object altered in the bucket: the release is not copied, nor the Parquet files, and the warning names the file", async () => {
    const settings = readSettings(bucketSettings, envProvider(server.env("rel")))!
    const file = parquetNames()[0]!
    const altered = readFileSync(join(primary.snapshotsDir, `${id}.parquet`, file))
    altered[altered.length >> 1] = altered[altered.length >> 1]! ^ 0xff
    const client = bucketClient(settings)
    try {
      await client.send(new PutObjectCommand({ Bucket: settings.bucket, Key: bucketKeys.parquet(settings, id, file), Body: altered }))
    } finally {
      client.destroy()
    }
    const tampered = followers[2]!
    lines.length = 0
    expect(await pollOnce({ source: bucketSource({ settings }), dataDir: tampered.dataDir, retentionDays: 3650, log })).toMatchObject({ outcome: "published" })
    expect(existsSync(join(tampered.snapshotsDir, a.file))).toBe(true)
    expect(existsSync(join(tampered.snapshotsDir, `${id}.release.json`))).toBe(false)
    expect(existsSync(join(tampered.snapshotsDir, `${id}.parquet`))).toBe(false)
    expect(lines.find((l) => l.msg === "the batch's release is not copied; the batch is followed without it")?.fields).toMatchObject({
      batch: id,
      error: expect.stringContaining(`the Parquet file ${file}'s bytes are not the ones it lists`),
    })
  }, 60_000)

  it("a batch in the bucket without its Parquet files (uploaded by a build before them): the next publish sends them, then nothing more", async () => {
    const settings = readSettings(bucketSettings, envProvider(server.env("old")))!
    const client = bucketClient(settings)
    const keyOf = (file: string) => bucketKeys.parquet(settings, id, file)
    try {
      await publishToBucket({ settings, client, dataDir: primary.dataDir, log })
      // as a build before them left it: the batch and its release, no Parquet object
      for (const file of parquetNames()) await client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: keyOf(file) }))
      const absent = await client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: keyOf(parquetNames()[0]!) })).then(
        () => false,
        () => true,
      )
      expect(absent).toBe(true)
      lines.length = 0
      const again = await publishToBucket({ settings, client, dataDir: primary.dataDir, log })
      expect(again.uploaded).toEqual([]) // the batch itself was there
      expect(lines.filter((l) => l.msg === "batch's Parquet files uploaded").map((l) => l.fields)).toEqual([{ batch: id, parquet_files: parquetNames().length }])
      for (const file of parquetNames()) {
        const object = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: keyOf(file) }))
        const bytes = Buffer.from(await object.Body!.transformToByteArray())
        expect(bytes.equals(readFileSync(join(primary.snapshotsDir, `${id}.parquet`, file))), file).toBe(true)
      }
      lines.length = 0
      await publishToBucket({ settings, client, dataDir: primary.dataDir, log })
      expect(lines.filter((l) => l.msg === "batch's Parquet files uploaded")).toEqual([])
    } finally {
      client.destroy()
    }
  }, 60_000)
})
