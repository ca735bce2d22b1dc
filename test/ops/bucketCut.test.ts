/**
 * A snapshot transfer from the bucket cut by the network halfway (a proxy in front of s3rver
 * closes the connection after 40 % of the file): the download fails and keeps its bytes in the
 * `.part` file; the next attempt asks for the rest with `Range` and the file passes the follower's
 * checks. The publisher goes through the same proxy, untouched.
 */
import { createHash } from "node:crypto"
import { readFileSync, statSync } from "node:fs"
import { createServer, request as httpRequest, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bucketClient, bucketSettings } from "../../ops/Bucket.ts"
import { publishToBucket } from "../../ops/BucketPublish.ts"
import { bucketSource } from "../../ops/BucketSource.ts"
import { partPaths, verifyDownload } from "../../ops/FollowTransfer.ts"
import { recordPublished } from "../downloads/ledger.ts"
import { type BucketServer, startBucketServer } from "../support/bucketServer.ts"
import { makeDataDir, makeFixtureA } from "../support/snapshotFixture.ts"
import { envProvider, readSettings } from "../../pipeline/Settings.ts"

/** Forwards to `target`; the next `cuts` GETs of a snapshot file stop after `share` of their bytes. */
const startCuttingProxy = async (target: string) => {
  const upstream = new URL(target)
  const state = { cuts: 0, share: 0.4, ranges: [] as Array<string | undefined> }
  const server: Server = createServer((req, res) => {
    const snapshot = req.method === "GET" && /\.sqlite(\?|$)/.test(req.url ?? "")
    if (snapshot) state.ranges.push(req.headers.range)
    const up = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      const cut = snapshot && state.cuts > 0
      if (cut) state.cuts--
      const length = Number(answer.headers["content-length"] ?? 0)
      let at = 0
      answer.on("data", (chunk: Buffer) => {
        if (cut && at + chunk.length > length * state.share) {
          res.write(chunk.subarray(0, Math.max(0, Math.floor(length * state.share) - at)))
          answer.destroy()
          res.socket?.destroy()
          return
        }
        at += chunk.length
        res.write(chunk)
      })
      answer.on("end", () => res.end())
    })
    up.on("error", () => res.socket?.destroy())
    req.pipe(up)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe("a transfer from the bucket cut by the network", () => {
  let server: BucketServer
  let proxy: Awaited<ReturnType<typeof startCuttingProxy>>
  const primary = makeFixtureA()
  const follower = makeDataDir()

  beforeAll(async () => {
    server = await startBucketServer()
    proxy = await startCuttingProxy(server.endpoint)
    const a = primary.snapshot.finished
    recordPublished(primary.dataDir, { batchDate: "2026-02-06", file: a.file, contentHash: a.contentHash })
  })

  afterAll(async () => {
    await proxy?.close()
    await server?.close()
    primary.cleanup()
    follower.cleanup()
  })

  it("keeps the bytes it got, resumes with Range, and the file passes the checks", async () => {
    const settings = readSettings(bucketSettings, envProvider({ ...server.env("fds"), FDS_BUCKET_ENDPOINT: proxy.url }))!
    const client = bucketClient(settings)
    try {
      await publishToBucket({ settings, client, dataDir: primary.dataDir, log: () => undefined })
    } finally {
      client.destroy()
    }
    const a = primary.snapshot.finished
    const id = a.file.replace(/\.sqlite$/, "")
    const size = statSync(a.path).size
    const source = bucketSource({ settings })
    const [listed] = await source.listBatches()
    const paths = partPaths(follower.snapshotsDir, id)

    proxy.state.cuts = 1
    await expect(source.downloadSnapshot(id, paths)).rejects.toThrow()
    const kept = statSync(paths.part).size
    expect(kept).toBeGreaterThan(0)
    expect(kept).toBeLessThan(size)

    const got = await source.downloadSnapshot(id, paths)
    expect(got.resumedFrom).toBe(kept)
    expect(got.size).toBe(size)
    expect(proxy.state.ranges).toEqual([undefined, `bytes=${kept}-`])
    expect(createHash("sha256").update(readFileSync(paths.part)).digest("hex")).toBe(createHash("sha256").update(readFileSync(a.path)).digest("hex"))
    await verifyDownload(paths.part, listed!, await source.fetchManifest(id), got.reprDigest)
  })
})
