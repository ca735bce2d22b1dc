/**
 * Releases through the bucket (s3rver on loopback): `publish` uploads a batch's signed release
 * (release manifest, signature, public key) beside its files, and a follower of the bucket copies
 * them beside the batch, byte for byte, with the build manifest's own bytes (ops/FollowRelease.ts);
 * a release whose signature does not verify is not copied, and the batch is followed all the same.
 */
import { generateKeyPairSync } from "node:crypto"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bucketClient, bucketSettings } from "../../ops/Bucket.ts"
import { publishToBucket } from "../../ops/BucketPublish.ts"
import { bucketSource } from "../../ops/BucketSource.ts"
import { pollOnce } from "../../ops/Follow.ts"
import { envProvider, readSettings } from "../../pipeline/Settings.ts"
import { writeRelease } from "../../snapshots/releases/WriteRelease.ts"
import { recordPublished } from "../downloads/ledger.ts"
import { type BucketServer, startBucketServer } from "../support/bucketServer.ts"
import { makeDataDir, makeFixtureA } from "../support/snapshotFixture.ts"

describe("releases through the bucket", () => {
  let server: BucketServer
  const primary = makeFixtureA()
  const followers = [makeDataDir(), makeDataDir()]
  const a = primary.snapshot.finished
  const id = a.file.replace(/\.sqlite$/, "")
  const lines: Array<{ level: string; msg: string; fields: Record<string, unknown> }> = []
  const log = (level: string, msg: string, fields: Record<string, unknown> = {}) => lines.push({ level, msg, fields })

  beforeAll(async () => {
    server = await startBucketServer()
    recordPublished(primary.dataDir, { batchDate: "2026-02-06", file: a.file, contentHash: a.contentHash })
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
    expect(lines.find((l) => l.msg === "batch uploaded")?.fields).toMatchObject({ batch: id, release: true })

    const [good, forged] = followers as [ReturnType<typeof makeDataDir>, ReturnType<typeof makeDataDir>]
    expect(await pollOnce({ source: bucketSource({ settings }), dataDir: good.dataDir, retentionDays: 3650, log })).toMatchObject({ outcome: "published" })
    for (const name of [`${id}.release.json`, `${id}.release.sig`, `${id}.manifest.json`, `${id}.sqlite`, "release-key.pem"]) {
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
})
