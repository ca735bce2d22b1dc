/**
 * The follower against a hostile primary: a real `node:http` server on loopback answering what a
 * broken or malicious primary could (ids that climb out of the data folder, lists that never end,
 * bodies that never end or never come, a manifest that lies about its batch date). Each case: the
 * follower refuses, writes nothing outside its snapshots folder, publishes nothing it would not
 * serve, gives up in bounded time and bytes, and recovers by itself once the primary answers well.
 */
import { createHash } from "node:crypto"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type FollowOptions, type PollOutcome, pollOnce } from "../../ops/Follow.ts"
import { followCommand } from "../../ops/FollowCommand.ts"
import { type Primary, primarySource } from "../../ops/FollowTransfer.ts"
import type { Manifest } from "../../snapshots/Manifest.ts"
import { readManifest, writeManifest } from "../../snapshots/Manifest.ts"
import { publishCurrent } from "../../snapshots/Pointer.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { envProvider } from "../../pipeline/Settings.ts"

// biome-ignore lint/suspicious/noExplicitAny: crafted answers are plain JSON
type Json = any

/** A batch as the hostile primary lists it. */
const listed = (id: string, opts: { batchDate?: string; contentHash?: string; current?: boolean } = {}) => ({
  id,
  type: "batch",
  attributes: {
    batch_date: opts.batchDate ?? id.slice(0, 10),
    content_hash: opts.contentHash ?? `${id.slice(11)}${"0".repeat(48)}`,
    retained: true,
    current: opts.current ?? true,
  },
})

/** What the hostile primary answers; `handle` returning true has answered the request itself. */
interface Behaviour {
  list: ((offset: number) => Json) | undefined
  manifests: Map<string, Manifest>
  files: Map<string, string>
  handle: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined
}

const startHostile = async () => {
  const seen: string[] = []
  const behaviour: Behaviour = { list: undefined, handle: undefined, manifests: new Map(), files: new Map() }
  const server: Server = createServer((req, res) => {
    seen.push(req.url ?? "")
    if (behaviour.handle?.(req, res) === true) return
    const url = new URL(req.url ?? "/", "http://x")
    const json = (body: Json, status = 200) => {
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify(body))
    }
    if (url.pathname === "/api/batches") return json(behaviour.list?.(Number(url.searchParams.get("offset") ?? 0)) ?? { data: [], total: 0 })
    // a client that normalises `..` in its URL asks for another path: the only batch answers it too
    const only = <T>(m: Map<string, T>, id: string): T | undefined => m.get(id) ?? (m.size === 1 ? [...m.values()][0] : undefined)
    const snapshot = /^\/(?:api\/batches\/)?(.+)\/snapshot$/.exec(url.pathname)
    if (snapshot !== null) {
      const path = only(behaviour.files, decodeURIComponent(snapshot[1]!))
      if (path === undefined) return json({ message: "no such batch" }, 404)
      const bytes = readFileSync(path)
      res.writeHead(200, {
        "content-length": bytes.length,
        etag: `"${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}"`,
        "repr-digest": `sha-256=:${createHash("sha256").update(bytes).digest("base64")}:`,
      })
      return res.end(bytes)
    }
    const one = /^\/(?:api\/batches\/)?(.+)$/.exec(url.pathname)
    const manifest = one === null ? undefined : only(behaviour.manifests, decodeURIComponent(one[1]!))
    if (manifest === undefined) return json({ message: "no such batch" }, 404)
    return json({ data: { id: manifest.file.replace(/\.sqlite$/, ""), attributes: { manifest } } })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    behaviour,
    reset: () => {
      seen.length = 0
      behaviour.list = undefined
      behaviour.handle = undefined
      behaviour.manifests.clear()
      behaviour.files.clear()
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** How a poll ended within `ms`: its outcome, its error, or still running. */
const within = async (ms: number, poll: Promise<PollOutcome>) => {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<{ readonly settled: "running" }>((resolve) => {
    timer = setTimeout(() => resolve({ settled: "running" }), ms)
  })
  try {
    return await Promise.race([
      poll.then(
        (outcome) => ({ settled: "done" as const, outcome }),
        (e: unknown) => ({ settled: "refused" as const, error: String(e) }),
      ),
      late,
    ])
  } finally {
    clearTimeout(timer)
  }
}

/** Every file under `dir`, relative, recursively. */
const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? (readdirSync(dir, { recursive: true, withFileTypes: true }) as Json[]).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name).slice(dir.length + 1)) : []

describe("./fds follow against a hostile primary", () => {
  const fx = makeFixtureA()
  const goodFile = fx.snapshot.finished.file
  const goodId = goodFile.replace(/\.sqlite$/, "")
  const goodPath = join(fx.snapshotsDir, goodFile)
  const goodManifest = readManifest(fx.snapshotsDir, goodFile)
  const hash16 = goodManifest.content_hash.slice(0, 16)
  let hostile: Awaited<ReturnType<typeof startHostile>>
  let work: string
  let dataDir: string
  const lines: Json[] = []
  const limits = { requestMillis: 1500, idleMillis: 1000, downloadMillis: 3000, maxJsonBytes: 256 * 1024 }
  const primary = (): Primary => ({ url: hostile.url, key: "k", limits })
  const poll = (options: Partial<FollowOptions> = {}): Promise<PollOutcome> =>
    pollOnce({
      source: primarySource(primary()),
      dataDir,
      retentionDays: 100_000,
      log: (level, msg, fields) => lines.push({ level, msg, ...fields }),
      ...options,
    })
  const current = (): string | null => {
    const path = join(dataDir, "snapshots", "CURRENT")
    return existsSync(path) ? readFileSync(path, "utf8").trim() : null
  }
  const snapshotRequests = () => hostile.seen.filter((u) => u.endsWith("/snapshot"))
  /** The primary serves the fixture's good batch, under `id` with `manifest`. */
  const serve = (id: string, manifest: Manifest, batchDate = manifest.batch_date) => {
    hostile.behaviour.list = () => ({ data: [listed(id, { batchDate, contentHash: manifest.content_hash })], total: 1 })
    hostile.behaviour.manifests.set(id, manifest)
    hostile.behaviour.files.set(id, goodPath)
  }

  beforeAll(async () => {
    hostile = await startHostile()
  })
  afterAll(async () => {
    await hostile.close()
    fx.cleanup()
  })
  afterEach(() => {
    hostile.reset()
    lines.length = 0
    rmSync(work, { recursive: true, force: true })
  })
  const freshReplica = () => {
    work = mkdtempSync(join(tmpdir(), "fds-hostile-"))
    dataDir = join(work, "deep", "replica")
    mkdirSync(join(dataDir, "snapshots"), { recursive: true })
  }

  it("1. an id that is no batch id, or a manifest naming another file, is refused before any path is built or byte fetched", async () => {
    freshReplica()
    // an id that climbs out of the data folder, with a manifest and bytes that pass every other check
    const evil = `../../${goodId}`
    serve(evil, { ...goodManifest, file: `${evil}.sqlite` }, goodManifest.batch_date)
    const r = await within(10_000, poll())
    expect(filesUnder(work).filter((f) => !f.startsWith(join("deep", "replica", "snapshots")))).toEqual([])
    expect(r.settled).toBe("refused")
    expect((r as Json).error).toMatch(/not a batch id/)
    expect(snapshotRequests()).toEqual([])
    expect(current()).toBe(null)

    // a good id whose manifest names a file elsewhere
    hostile.reset()
    serve(goodId, { ...goodManifest, file: `../../../${goodFile}` })
    const named = await within(10_000, poll())
    expect(named.settled).toBe("refused")
    expect((named as Json).error).toContain(`the manifest names ../../../${goodFile}`)
    expect(snapshotRequests()).toEqual([])
    expect(filesUnder(work).filter((f) => !f.startsWith(join("deep", "replica", "snapshots")))).toEqual([])
  }, 30_000)

  it("2. a list that never ends (total 1e15, a total that is no count) is refused after a bounded number of pages", async () => {
    freshReplica()
    for (const total of [1e15, 2.5, "many"]) {
      hostile.reset()
      let page = 0
      hostile.behaviour.list = (offset) => ({ data: [listed(`2026-11-17-${(offset + page++).toString(16).padStart(16, "0")}`, { current: false })], total })
      const r = await within(5_000, poll())
      expect(r.settled, `total ${total}`).toBe("refused")
      expect((r as Json).error).toMatch(/total/)
      expect(hostile.seen.length, `total ${total}`).toBeLessThanOrEqual(2)
    }
    // a plausible total, but pages that give the same batches again
    hostile.reset()
    const page500 = Array.from({ length: 500 }, (_, i) => listed(`2026-11-17-${i.toString(16).padStart(16, "0")}`, { current: i === 0 }))
    hostile.behaviour.list = () => ({ data: page500, total: 1000 })
    const repeated = await within(5_000, poll())
    expect(repeated.settled).toBe("refused")
    expect((repeated as Json).error).toMatch(/twice/)
    expect(current()).toBe(null)
    // a next link that leaves /api/batches is not followed
    for (const next of ["/api/batches/../../etc/passwd", "http://elsewhere.example/api/batches?offset=500", 42]) {
      hostile.reset()
      hostile.behaviour.list = () => ({ data: page500, total: 1000, links: { next } })
      const away = await within(5_000, poll())
      expect(away.settled, String(next)).toBe("refused")
      expect((away as Json).error).toContain("is not a page of /api/batches")
      expect(hostile.seen.filter((u) => !u.startsWith("/api/batches?limit=500&offset=0"))).toEqual([])
    }
  }, 30_000)

  it("2b. the list is paged by the primary's next link (it names the batch of the first page), an older primary's by offset", async () => {
    freshReplica()
    const ids = Array.from({ length: 501 }, (_, i) => `2026-11-17-${i.toString(16).padStart(16, "0")}`)
    hostile.reset()
    hostile.behaviour.list = (offset) => ({
      data: ids.slice(offset, offset + 500).map((id, i) => listed(id, { current: offset + i === 0 })),
      total: 501,
      links: { next: offset === 0 ? "/api/batches?limit=500&offset=500&batch=2026-11-17-0000000000000000" : null },
    })
    await within(5_000, poll())
    expect(hostile.seen.filter((u) => u.startsWith("/api/batches?"))).toEqual([
      "/api/batches?limit=500&offset=0",
      "/api/batches?limit=500&offset=500&batch=2026-11-17-0000000000000000",
    ])
    hostile.reset()
    hostile.behaviour.list = (offset) => ({
      data: ids.slice(offset, offset + 500).map((id, i) => listed(id, { current: offset + i === 0 })),
      total: 501,
    })
    await within(5_000, poll())
    expect(hostile.seen.filter((u) => u.startsWith("/api/batches?"))).toEqual(["/api/batches?limit=500&offset=0", "/api/batches?limit=500&offset=500"])
  }, 30_000)

  it("3. a body without end, a body larger than announced or allowed, a primary that trickles or hangs: cut in bounded bytes and time", async () => {
    freshReplica()
    const part = () => readdirSync(join(dataDir, "snapshots")).filter((f) => f.startsWith(".follow-"))
    // a snapshot answer that never ends (no Content-Length)
    serve(goodId, goodManifest)
    let sent = 0
    hostile.behaviour.handle = (req, res) => {
      if (!req.url?.endsWith("/snapshot")) return false
      res.writeHead(200, { "repr-digest": "sha-256=:AAAA:", etag: '"x"' })
      const chunk = Buffer.alloc(64 * 1024, 0x5a)
      const more = () => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length
        if (!res.destroyed) res.once("drain", more)
      }
      more()
      return true
    }
    const endless = await within(10_000, poll({ maxBytes: 1 << 20 }))
    expect(endless.settled).toBe("refused")
    expect((endless as Json).error).toMatch(/more than 1048576 bytes/)
    expect(part()).toEqual([])
    expect(sent).toBeLessThan(64 << 20)

    // announced larger than allowed: refused before the body is read
    hostile.behaviour.handle = (req, res) => {
      if (!req.url?.endsWith("/snapshot")) return false
      res.writeHead(200, { "content-length": String(1 << 30), "repr-digest": "sha-256=:AAAA:" })
      res.write(Buffer.alloc(1024))
      return true
    }
    const announced = await within(10_000, poll({ maxBytes: 1 << 20 }))
    expect(announced.settled).toBe("refused")
    expect((announced as Json).error).toMatch(/1073741824 bytes/)
    expect(part()).toEqual([])

    // a trickle: one byte every 100 ms, for ever
    hostile.behaviour.handle = (req, res) => {
      if (!req.url?.endsWith("/snapshot")) return false
      res.writeHead(200, { "repr-digest": "sha-256=:AAAA:" })
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write("x")), 100)
      return true
    }
    const trickle = await within(10_000, poll())
    expect(trickle.settled).toBe("refused")
    expect((trickle as Json).error).toMatch(/no whole answer within 3000 ms/)
    // what came is kept for a resume, as after a cut (the cap holds across resumes)
    expect(readFileSync(join(dataDir, "snapshots", `.follow-${goodId}.sqlite.part`), "utf8")).toMatch(/^x+$/)

    // a list that never answers, and one whose body never ends
    hostile.behaviour.handle = (req) => req.url?.startsWith("/api/batches?") === true
    const hang = await within(10_000, poll())
    expect(hang.settled).toBe("refused")
    expect((hang as Json).error).toMatch(/Headers Timeout|within 1500 ms/)
    hostile.behaviour.handle = (req, res) => {
      if (!req.url?.startsWith("/api/batches?")) return false
      res.writeHead(200, { "content-type": "application/json" })
      res.write('{"data":[')
      const more = () => {
        while (!res.destroyed && res.write(" ".repeat(64 * 1024)));
        if (!res.destroyed) res.once("drain", more)
      }
      more()
      return true
    }
    const bigJson = await within(10_000, poll())
    expect(bigJson.settled).toBe("refused")
    expect((bigJson as Json).error).toMatch(/more than 262144 bytes/)
    expect(current()).toBe(null)
  }, 60_000)

  it("3b. ./fds follow takes its cap from FDS_FOLLOW_MAX_BYTES", async () => {
    freshReplica()
    serve(goodId, goodManifest)
    const run = (max: string) =>
      followCommand(["--from", hostile.url, "--once"], envProvider({ FDS_FOLLOW_KEY: "k", FDS_DATA_DIR: dataDir, FDS_FOLLOW_MAX_BYTES: max }), (level, msg, fields) =>
        lines.push({ level, msg, ...fields }),
      )
    expect(await run("a lot")).toBe(2)
    expect(await run("1000")).toBe(1)
    expect(lines.find((l) => l.msg === "poll failed; the replica keeps what it serves")?.error).toMatch(/more than the 1000 allowed/)
    expect(current()).toBe(null)
    expect(await run(String(1 << 30))).toBe(0)
    expect(current()).toBe(goodFile)
  }, 30_000)

  it("4. a manifest that lies about its batch date is refused, not published; the follower recovers by itself once the primary serves a good batch", async () => {
    freshReplica()
    // the fixture's bytes (meta batch_date is its own date) under another date's id
    const lieId = `2026-01-05-${hash16}`
    serve(lieId, { ...goodManifest, batch_date: "2026-01-05", file: `${lieId}.sqlite` })
    const lie = await within(20_000, poll())
    expect(lie.settled).toBe("refused")
    expect((lie as Json).error).toMatch(/batch date/)
    expect(current()).toBe(null)
    expect(readdirSync(join(dataDir, "snapshots")).filter((f) => f !== "CURRENT")).toEqual([])

    // the same id as the file's, its manifest lying: refused; then the same id with a true manifest
    hostile.reset()
    serve(goodId, { ...goodManifest, batch_date: "2026-01-05" }, "2026-01-05")
    expect((await within(20_000, poll())).settled).toBe("refused")
    expect(current()).toBe(null)
    // the same id with bytes that are not its data (their digest true to them): refused; then its good bytes
    hostile.reset()
    serve(goodId, goodManifest)
    const altered = join(work, "altered.sqlite")
    copyFileSync(goodPath, altered)
    const db = new Database(altered)
    db.prepare("UPDATE administrators SET name = name || ' (altered)'").run()
    db.close()
    hostile.behaviour.files.set(goodId, altered)
    expect((await within(20_000, poll())).settled).toBe("refused")
    expect(current()).toBe(null)
    hostile.behaviour.files.set(goodId, goodPath)
    const good = await within(20_000, poll())
    expect(good).toMatchObject({ settled: "done", outcome: { outcome: "published", batches: [goodId] } })
    expect(current()).toBe(goodFile)
    expect((await within(20_000, poll())) as Json).toMatchObject({ settled: "done", outcome: { outcome: "in_step" } })
    expect(readdirSync(join(dataDir, "snapshots")).sort()).toEqual(["CURRENT", goodFile, goodFile.replace(".sqlite", ".manifest.json")].sort())
  }, 60_000)

  it("4b. a replica whose CURRENT names a file the API refuses is not in step; it recovers once the primary serves a good batch", async () => {
    freshReplica()
    // what an earlier follower published: the lie, in place and CURRENT
    const lieId = `2026-01-05-${hash16}`
    const lieManifest = { ...goodManifest, batch_date: "2026-01-05", file: `${lieId}.sqlite` }
    const snapshots = join(dataDir, "snapshots")
    copyFileSync(goodPath, join(snapshots, `${lieId}.sqlite`))
    writeManifest(snapshots, lieManifest)
    publishCurrent(snapshots, `${lieId}.sqlite`)
    // the primary still serves it
    serve(lieId, lieManifest)
    const stuck = await within(20_000, poll())
    expect(stuck.settled).toBe("refused")
    expect((stuck as Json).error).toMatch(/batch date/)
    // the primary replaces it with a good batch
    hostile.reset()
    serve(goodId, goodManifest)
    const good = await within(20_000, poll())
    expect(good).toMatchObject({ settled: "done", outcome: { outcome: "published", batches: [goodId] } })
    expect(current()).toBe(goodFile)
  }, 60_000)
})
