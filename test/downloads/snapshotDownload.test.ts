/**
 * GET /api/batches/{batch_id}/snapshot over real HTTP: the file byte for byte, its SHA-256 as
 * Repr-Digest (RFC 9530) and ETag, and the content hash recomputed from the downloaded file equal
 * to the one its manifest recorded at build time (and to the batch id's prefix); a download cut
 * halfway resumes with Range and reassembles byte for byte; one request of quota per download;
 * 206/416, If-Range, If-None-Match; 404, 410 (file removed, with its content hash and the rebuild
 * command) and 422; the batches a ledger lists; no file left open by a download the client stopped.
 * Every answer is checked against the served /openapi.json.
 */
import { createHash } from "node:crypto"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { contentHash, rowCounts } from "../../snapshots/ContentHash.ts"
import { readManifest } from "../../snapshots/Manifest.ts"
import { openHandlesOf } from "../support/descriptors.ts"
import { type ContractValidator, contractValidator } from "../support/openApiValidator.ts"
import { createKey, expectErrorShape, get, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { type FixtureDir, fixtureA, fixtureB, makeDataDir, type PublishedSnapshot, publishSnapshot } from "../support/snapshotFixture.ts"
import { recordPublished as record } from "./ledger.ts"

interface Download {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly bytes: Buffer
}

const download = async (url: string, headers: Record<string, string>, method: "GET" | "HEAD" = "GET"): Promise<Download> => {
  const res = await request(url, { method, headers })
  return { status: res.statusCode, headers: res.headers, bytes: Buffer.from(await res.body.arrayBuffer()) }
}

const h = (d: Download, name: string): string | undefined => {
  const v = d.headers[name]
  return Array.isArray(v) ? v.join(", ") : v
}

const idOf = (p: PublishedSnapshot): string => p.finished.file.replace(/\.sqlite$/, "")

/** Records the publications in the data folder's ledger, in order. */
const recordPublished = (dataDir: string, ...published: PublishedSnapshot[]): void =>
  record(dataDir, ...published.map((p) => ({ batchDate: p.data.batchDate, file: p.finished.file, contentHash: p.finished.contentHash })))

/** The count of open handles on `path` once it has not moved for half a second (at most 10 s). */
const steadyHandlesOf = async (path: string): Promise<number> => {
  let last = openHandlesOf(path)
  for (let since = Date.now(), until = Date.now() + 10_000; Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 50))
    const now = openHandlesOf(path)
    if (now !== last) {
      last = now
      since = Date.now()
    } else if (Date.now() - since >= 500) break
  }
  return last
}

describe("GET /api/batches/{batch_id}/snapshot", () => {
  let dir: FixtureDir
  let a: PublishedSnapshot
  let removed: PublishedSnapshot
  let b: PublishedSnapshot
  let server: RunningServer
  let key: string
  let validator: ContractValidator

  const url = (batchId: string) => `${server.url}/api/batches/${batchId}/snapshot`
  const checked = (d: Download, what = "snapshot"): Download => {
    const text = /^application\/(problem\+)?json/.test(d.headers["content-type"]?.toString() ?? "") ? d.bytes.toString("utf8") : ""
    const path = what === "snapshot" ? "/api/batches/{batch_id}/snapshot" : what
    expect(validator.problems("get", path, { status: d.status, headers: d.headers, text })).toEqual([])
    return d
  }
  const requestsToday = async (k: string): Promise<number> =>
    ((await get(`${server.url}/api/key/info`, { "x-api-key": k })).body as { requests_today: number }).requests_today

  beforeAll(async () => {
    dir = makeDataDir()
    a = publishSnapshot(dir.snapshotsDir, fixtureA())
    removed = publishSnapshot(dir.snapshotsDir, { ...fixtureA(), batchDate: "2026-02-07" })
    b = publishSnapshot(dir.snapshotsDir, fixtureB())
    recordPublished(dir.dataDir, a, removed, b)
    // retention removed this one's file; its manifest stays
    rmSync(removed.finished.path)
    server = await startServer({ dataDir: dir.dataDir })
    key = (await createKey(dir.dataDir, { email: "bulk@example.cl", dailyQuota: 1000 })).key
    validator = contractValidator((await get(`${server.url}/openapi.json`)).body)
  })
  afterAll(async () => {
    await server?.close()
    dir?.cleanup()
  })

  it("streams the file with Content-Length, Repr-Digest and ETag of its SHA-256; its content hash is the manifest's", async () => {
    for (const p of [a, b]) {
      const onDisk = readFileSync(p.finished.path)
      const d = checked(await download(url(idOf(p)), { "x-api-key": key }))
      expect(d.status).toBe(200)
      expect(d.bytes.equals(onDisk)).toBe(true)
      expect(h(d, "content-length")).toBe(String(onDisk.length))
      expect(h(d, "content-type")).toBe("application/vnd.sqlite3")
      expect(h(d, "accept-ranges")).toBe("bytes")
      const sha = createHash("sha256").update(d.bytes).digest()
      expect(h(d, "repr-digest")).toBe(`sha-256=:${sha.toString("base64")}:`)
      expect(h(d, "etag")).toBe(`"${sha.toString("hex")}"`)
      expect(h(d, "content-disposition")).toBe(`attachment; filename="${p.finished.file}"`)
      // the batch it is of, past (a) or current (b)
      expect(h(d, "batch-id")).toBe(p.finished.file.replace(/\.sqlite$/, ""))
      // the content hash is of the data, not of the bytes: recomputed from the downloaded file
      const copy = join(dir.dataDir, `downloaded-${p.finished.file}`)
      writeFileSync(copy, d.bytes)
      const db = new Database(copy, { readonly: true })
      try {
        const manifest = readManifest(dir.snapshotsDir, p.finished.file)
        expect(contentHash(db)).toBe(manifest.content_hash)
        expect(manifest.content_hash.slice(0, 16)).toBe(idOf(p).slice(11))
        expect(rowCounts(db)).toEqual(manifest.row_counts)
      } finally {
        db.close()
      }
    }
  })

  it("a download cut halfway resumes with Range and reassembles byte for byte; the resume is not counted", async () => {
    const onDisk = readFileSync(a.finished.path)
    const before = await requestsToday(key)
    const first = await request(url(idOf(a)), { headers: { "x-api-key": key } })
    expect(first.statusCode).toBe(200)
    const etag = String(first.headers.etag)
    const received: Buffer[] = []
    for await (const chunk of first.body) {
      received.push(chunk as Buffer)
      break // the connection drops after the first chunk
    }
    first.body.destroy()
    const head = Buffer.concat(received)
    expect(head.length).toBeGreaterThan(0)
    expect(head.length).toBeLessThan(onDisk.length)
    const rest = checked(await download(url(idOf(a)), { "x-api-key": key, range: `bytes=${head.length}-`, "if-range": etag }))
    expect(rest.status).toBe(206)
    expect(h(rest, "content-range")).toBe(`bytes ${head.length}-${onDisk.length - 1}/${onDisk.length}`)
    expect(h(rest, "content-length")).toBe(String(onDisk.length - head.length))
    expect(h(rest, "batch-id")).toBe(a.finished.file.replace(/\.sqlite$/, ""))
    expect(h(rest, "repr-digest")).toBe(`sha-256=:${createHash("sha256").update(onDisk).digest("base64")}:`)
    expect(Buffer.concat([head, rest.bytes]).equals(onDisk)).toBe(true)
    // in three parts too, the last a suffix range
    const third = Math.floor(onDisk.length / 3)
    const parts = [`bytes=${third}-${2 * third - 1}`, `bytes=-${onDisk.length - 2 * third}`]
    const pieces: Buffer[] = [onDisk.subarray(0, third)]
    for (const range of parts) {
      const part = checked(await download(url(idOf(a)), { "x-api-key": key, range }))
      expect(part.status).toBe(206)
      pieces.push(part.bytes)
    }
    expect(Buffer.concat(pieces).equals(onDisk)).toBe(true)
    // one request of quota for the download, whatever the number of ranges
    expect(await requestsToday(key)).toBe(before + 1)
  })

  it("counts a range from byte 0, a resume by a key that started no download today, and a resume of another file", async () => {
    const other = (await createKey(dir.dataDir, { email: "other@example.cl", dailyQuota: 1000 })).key
    const before = { key: await requestsToday(key), other: await requestsToday(other) }
    // the other key never started this download: its resume counts once, then it is a start
    const resumed = checked(await download(url(idOf(b)), { "x-api-key": other, range: "bytes=100-" }))
    expect(resumed.status).toBe(206)
    expect(h(resumed, "x-ratelimit-remaining")).toBe(String(1000 - before.other - 1))
    checked(await download(url(idOf(b)), { "x-api-key": other, range: "bytes=200-" }))
    expect(await requestsToday(other)).toBe(before.other + 1)
    // a range from byte 0 is a new download
    checked(await download(url(idOf(b)), { "x-api-key": key, range: "bytes=0-99" }))
    expect(await requestsToday(key)).toBe(before.key + 1)
    // If-Range naming another file: the whole file, counted
    const whole = checked(await download(url(idOf(b)), { "x-api-key": key, range: "bytes=100-", "if-range": '"not-this-file"' }))
    expect(whole.status).toBe(200)
    expect(whole.bytes.equals(readFileSync(b.finished.path))).toBe(true)
    expect(await requestsToday(key)).toBe(before.key + 2)
    // a resume of a download this key started (above) is free, and so is one with the file's date as If-Range
    const free = checked(
      await download(url(idOf(b)), { "x-api-key": key, range: "bytes=100-", "if-range": String(whole.headers["last-modified"]) }),
    )
    expect(free.status).toBe(206)
    expect(await requestsToday(key)).toBe(before.key + 2)
  })

  it("a counted start buys 8 free resumes, no more: `bytes=1-` again and again is not a free copy of the file each time", async () => {
    const third = (await createKey(dir.dataDir, { email: "third@example.cl", dailyQuota: 1000 })).key
    const before = await requestsToday(third)
    checked(await download(url(idOf(a)), { "x-api-key": third, range: "bytes=0-0" })) // the start: counted
    expect(await requestsToday(third)).toBe(before + 1)
    for (let i = 0; i < 8; i++) {
      expect(checked(await download(url(idOf(a)), { "x-api-key": third, range: "bytes=1-" })).status).toBe(206)
    }
    expect(await requestsToday(third)).toBe(before + 1)
    // the ninth is counted, and is a new start with its own 8
    checked(await download(url(idOf(a)), { "x-api-key": third, range: "bytes=1-" }))
    expect(await requestsToday(third)).toBe(before + 2)
    checked(await download(url(idOf(a)), { "x-api-key": third, range: "bytes=1-" }))
    expect(await requestsToday(third)).toBe(before + 2)
  })

  it("416 past the end with Content-Range bytes */size; several ranges or another unit get the whole file", async () => {
    const size = readFileSync(a.finished.path).length
    const past = checked(await download(url(idOf(a)), { "x-api-key": key, range: `bytes=${size}-` }))
    expect(past.status).toBe(416)
    expect(h(past, "content-range")).toBe(`bytes */${size}`)
    expectErrorShape(JSON.parse(past.bytes.toString("utf8")), 416)
    // a first byte far past the end (more digits than a double holds exactly) is past the end too
    for (const range of ["bytes=99999999999999999999-", `bytes=${"9".repeat(400)}-`]) {
      const far = checked(await download(url(idOf(a)), { "x-api-key": key, range }))
      expect([far.status, h(far, "content-range")], range).toEqual([416, `bytes */${size}`])
    }
    for (const range of ["bytes=0-1,5-6", "items=0-10", "bytes=9-3", "bytes=x-"]) {
      const whole = checked(await download(url(idOf(a)), { "x-api-key": key, range }))
      expect(whole.status, range).toBe(200)
      expect(whole.bytes.length).toBe(size)
    }
    const clipped = checked(await download(url(idOf(a)), { "x-api-key": key, range: `bytes=${size - 10}-${size + 1000}` }))
    expect(clipped.status).toBe(206)
    expect(h(clipped, "content-range")).toBe(`bytes ${size - 10}-${size - 1}/${size}`)
    expect(clipped.bytes.length).toBe(10)
  })

  it("404 for an unknown batch, 422 for a malformed id, 410 with its content hash and how to rebuild it for a removed file", async () => {
    const unknown = checked(await download(url("2026-02-08-0123456789abcdef"), { "x-api-key": key }))
    expect(unknown.status).toBe(404)
    expectErrorShape(JSON.parse(unknown.bytes.toString("utf8")), 404)
    for (const bad of ["2026-02-06", "2026-02-06-ABCDEF0123456789", "latest"]) {
      const malformed = checked(await download(url(bad), { "x-api-key": key }))
      expect(malformed.status, bad).toBe(422)
      expect(JSON.parse(malformed.bytes.toString("utf8")).parameter).toBe("batch_id")
    }
    for (const path of ["snapshot", "days.csv.gz", "series.csv"]) {
      const gone = await download(`${server.url}/api/batches/${idOf(removed)}/${path}`, { "x-api-key": key })
      checked(gone, `/api/batches/{batch_id}/${path}`)
      expect(gone.status).toBe(410)
      const body = JSON.parse(gone.bytes.toString("utf8"))
      expectErrorShape(body, 410)
      expect(body).toMatchObject({ error: "batch_not_retained", status: 410, parameter: "batch_id" })
      expect(body.message).toContain(idOf(removed))
      expect(body.message).toContain(`its content hash is ${removed.finished.contentHash}`)
      expect(body.message).toContain(`./fds pipeline reproduce --date 2026-02-07 --file ${removed.finished.file} --restore`)
    }
  })

  it("answers If-None-Match with the file's ETag by a 304; HEAD gives the headers alone", async () => {
    const full = await download(url(idOf(b)), { "x-api-key": key })
    const again = checked(await download(url(idOf(b)), { "x-api-key": key, "if-none-match": String(full.headers.etag) }))
    expect(again.status).toBe(304)
    expect(again.bytes.length).toBe(0)
    expect(h(again, "etag")).toBe(h(full, "etag"))
    expect([h(full, "batch-id"), h(again, "batch-id")]).toEqual([b.finished.file.replace(/\.sqlite$/, ""), b.finished.file.replace(/\.sqlite$/, "")])
    const head = await download(url(idOf(b)), { "x-api-key": key }, "HEAD")
    expect(head.status).toBe(200)
    expect(head.bytes.length).toBe(0)
    expect(h(head, "content-length")).toBe(h(full, "content-length"))
    expect(h(head, "repr-digest")).toBe(h(full, "repr-digest"))
    expect(h(head, "batch-id")).toBe(h(full, "batch-id"))
  })

  it("a download the client stops leaves no file open", async () => {
    // the file checked before it is sent stays open in the past batches' cache (as for ?batch=), and only that
    await download(url(idOf(a)), { "x-api-key": key }, "HEAD")
    // counted once the count holds still: the file's check (a worker thread of this process) may
    // still have it open just after the HEAD answered
    const held = await steadyHandlesOf(a.finished.path)
    for (const range of [undefined, "bytes=10-"]) {
      const res = await request(url(idOf(a)), { headers: { "x-api-key": key, ...(range === undefined ? {} : { range }) } })
      for await (const _ of res.body) break
      res.body.destroy()
    }
    expect(await waitFor(async () => openHandlesOf(a.finished.path) === held, 10_000), `${openHandlesOf(a.finished.path)} open, ${held} before`).toBe(true)
  })

  it("a past batch's file damaged on disk is not sent: 503 batch_unreadable, no digest of the damage", async () => {
    // a's file gets 4 KB of garbage in its middle, its size unchanged (as a bad disk or a stray write would)
    const onDisk = readFileSync(a.finished.path)
    const damaged = Buffer.from(onDisk)
    damaged.fill(0xde, Math.floor(onDisk.length / 2), Math.floor(onDisk.length / 2) + 4096)
    writeFileSync(a.finished.path, damaged)
    const file = checked(await download(url(idOf(a)), { "x-api-key": key }))
    expect(file.status).toBe(503)
    expect(JSON.parse(file.bytes.toString("utf8")).error).toBe("batch_unreadable")
    expect(file.headers["repr-digest"]).toBeUndefined()
    // nor is its series.csv made from it
    const series = await download(`${server.url}/api/batches/${idOf(a)}/series.csv`, { "x-api-key": key })
    checked(series, "/api/batches/{batch_id}/series.csv")
    expect(series.status).toBe(503)
    expect(JSON.parse(series.bytes.toString("utf8")).error).toBe("batch_unreadable")
    // the batch served now still downloads
    expect(checked(await download(url(idOf(b)), { "x-api-key": key })).status).toBe(200)
  })
})

describe("which batches a server knows", () => {
  let dir: FixtureDir
  let server: RunningServer

  afterAll(async () => {
    await server?.close()
    dir?.cleanup()
  })

  it("without a ledger, the batch it serves; with one, the batches it lists as published, and the one it serves", async () => {
    dir = makeDataDir()
    const a = publishSnapshot(dir.snapshotsDir, fixtureA())
    const b = publishSnapshot(dir.snapshotsDir, fixtureB())
    server = await startServer({ dataDir: dir.dataDir, pollMillis: 50 })
    const key = (await createKey(dir.dataDir, { email: "ledger@example.cl" })).key
    const status = async (p: PublishedSnapshot) => (await download(`${server.url}/api/batches/${idOf(p)}/snapshot`, { "x-api-key": key })).status
    // A's file and manifest are there, but no ledger published it
    expect(await status(a)).toBe(404)
    expect(await status(b)).toBe(200)
    recordPublished(dir.dataDir, a)
    expect(await status(a)).toBe(200)
    expect(await status(b)).toBe(200)
    const listed = await download(`${server.url}/api/batches/${idOf(a)}/snapshot`, { "x-api-key": key })
    expect(listed.bytes.equals(readFileSync(a.finished.path))).toBe(true)
  })
})
