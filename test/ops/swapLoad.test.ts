/**
 * Swap under load (issue #8): a bounded load (autocannon, 10 connections on loopback, plus two
 * checking clients that keep whole bodies) on /api/all-funds and one /api/real_assets/{id}/days
 * while 50 snapshots are published one after another by moving CURRENT. Every answer is a 200
 * from exactly one batch (its ETag names a published batch whose date its meta states, and its
 * bytes are that batch's body) or a 503 with Retry-After and the JSON error shape; nothing else,
 * and no connection error. Each of the 50 files is swapped in and answered from; the last answers
 * come from the last one. Afterwards the process holds the last snapshot open and no other (no
 * descriptor, no mapping), and its descriptors and heap (after a forced GC) are back where they
 * started, but for the warm's thread kept a minute for a swap that follows (its own descriptors).
 *
 * The snapshots: three real ones built by the pipeline from a small sample (2026-11-18, -19, -20),
 * and 50 variants of them made through SnapshotWriter (test/support/snapshotVariants.ts).
 */
import autocannon from "autocannon"
import Database from "better-sqlite3"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Agent, request } from "undici"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { entityTag } from "../../api/http/Caching.ts"
import { WARM_THREAD_NAME } from "../../api/snapshot/AnswerWarm.ts"
import { publishCurrent, readCurrent } from "../../snapshots/Pointer.ts"
import { createKey, expectErrorShape, waitFor } from "../support/server.ts"
import { deriveVariant, type Variant } from "../support/snapshotVariants.ts"
import { runCli, writeMiniSample } from "./support/ops.ts"
import {
  AnswerLog,
  type Batch,
  heapAfterGc,
  type LoadRoute,
  mappedSnapshots,
  openFiles,
  type QuietServer,
  startQuietServer,
  threadDescriptors,
  threadsNamed,
} from "./support/swapLoad.ts"

const PUBLISHES = 50
const CONNECTIONS = 10
/** How long each published snapshot serves under load before the next one is published. */
const DWELL_MILLIS = 150
/**
 * The harshest drain window that is still a window: a request that holds its lease longer gets
 * 503 snapshot_changed, and a retired snapshot must close within moments.
 */
const DRAIN_MILLIS = 20
const DATES = ["2026-11-18", "2026-11-19", "2026-11-20"]
const HEAP_MARGIN_BYTES = 20 * 1024 * 1024
/** Descriptors the test runner itself may hold open meanwhile (one leaked connection is two). */
const FD_MARGIN = 1

let work: string
let snapshotsDir: string
let server: QuietServer
let variants: ReadonlyArray<Variant>
let routes: ReadonlyArray<LoadRoute>
const headers: Record<string, string> = {}
const logs: string[] = []
let answers: AnswerLog
let loadResult: autocannon.Result
let start: { files: ReturnType<typeof openFiles>; maps: ReadonlyArray<string>; heap: number; warmThreads: number }
/** A worker thread's own descriptors (its event loop's), measured in this process before the start. */
let perThread = 0
let publishMillis = 0

const pause = (millis: number) => new Promise((r) => setTimeout(r, millis))

/** Three real snapshots (CURRENT names the last), 50 variants, a key, the server. */
const prepare = async (): Promise<Batch> => {
  work = mkdtempSync(join(tmpdir(), "fds-swap-load-"))
  const { mini } = await writeMiniSample(join(work, "mini"))
  const dataDir = join(work, "data")
  snapshotsDir = join(dataDir, "snapshots")
  const sources: string[] = []
  for (const date of DATES) {
    const run = await runCli(dataDir, ["pipeline", "run", "--source", mini, "--date", date])
    expect(run.stdout, run.stderr).toMatch(new RegExp(`^published ${date}: `))
    sources.push(readCurrent(snapshotsDir)!)
  }
  const file = sources[2]!
  const manifest = JSON.parse(readFileSync(join(snapshotsDir, file.replace(/\.sqlite$/, ".manifest.json")), "utf8"))
  // consecutive variants come from different days: their bodies differ
  variants = Array.from({ length: PUBLISHES }, (_, i) => deriveVariant(snapshotsDir, sources[i % 3]!, `swap-load-${i}`))
  const db = new Database(join(snapshotsDir, file), { readonly: true })
  const assetId = db.prepare("SELECT asset_id FROM series ORDER BY last_date DESC, first_date, asset_id LIMIT 1").pluck().get()
  db.close()
  routes = [
    { name: "all-funds", path: "/api/all-funds", dateOf: (b) => b.meta?.date },
    { name: "days", path: `/api/real_assets/${assetId}/days`, dateOf: (b) => b.meta?.batch_date },
  ]
  headers["x-api-key"] = (await createKey(dataDir, { email: "swap-load@example.cl", tier: "internal" })).key
  server = await startQuietServer({ dataDir, pollMillis: 50, drainMillis: DRAIN_MILLIS })
  return { file, contentHash: manifest.content_hash, batchDate: DATES[2]! }
}

/** autocannon on both routes, answers checked as they come; stop() ends it and gives its result. */
const startLoad = () => {
  const lower = (h: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(h ?? {}).map(([k, v]) => [k.toLowerCase(), v]))
  const { promise, resolve, reject } = Promise.withResolvers<autocannon.Result>()
  const instance = autocannon(
    {
      url: server.url,
      connections: CONNECTIONS,
      pipelining: 1,
      duration: 120,
      requests: routes.map((route) => ({
        method: "GET" as const,
        path: route.path,
        headers,
        // autocannon decodes the body chunk by chunk (a split UTF-8 sequence is lost): its size
        // comes from Content-Length, whole bodies from the checking clients
        onResponse: (status: number, text: string, _context: object, h: Record<string, unknown> | undefined) =>
          answers.record("load", route, status, lower(h), text, null),
      })),
    },
    (err, result) => (err === null || err === undefined ? resolve(result) : reject(err)),
  )
  return {
    stop: () => {
      instance.stop()
      return promise
    },
  }
}

/** A client per route that keeps whole bodies, until stopped. */
const startCheckers = () => {
  let running = true
  const agent = new Agent()
  const loops = routes.map(async (route) => {
    while (running) {
      const res = await request(server.url + route.path, { headers, dispatcher: agent })
      const bytes = Buffer.from(await res.body.arrayBuffer())
      answers.record("check", route, res.statusCode, res.headers, bytes.toString("utf8"), bytes)
    }
  })
  return {
    stop: async () => {
      running = false
      await Promise.all(loops)
      await agent.close()
    },
  }
}

beforeAll(async () => {
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void logs.push(args.map(String).join(" ")))
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logs.push(args.map(String).join(" ")))
  const initial = await prepare()
  const batchByTag = new Map<string, Batch>()
  for (const route of routes) {
    for (const b of [initial, ...variants]) batchByTag.set(`${route.name} ${entityTag(b.contentHash, route.path, "identity")}`, b)
  }

  // warm-up (the same clients for a second: one-time costs), connections closed, then the starting level
  answers = new AnswerLog(batchByTag, DATES)
  const warmLoad = startLoad()
  const warmCheckers = startCheckers()
  await pause(1000)
  await warmCheckers.stop()
  await warmLoad.stop()
  expect(answers.problems).toEqual([])
  answers = new AnswerLog(batchByTag, DATES)
  await pause(100) // the server's side of those sockets
  perThread = await threadDescriptors()
  start = {
    files: openFiles(snapshotsDir),
    maps: mappedSnapshots(snapshotsDir),
    heap: await heapAfterGc(),
    warmThreads: threadsNamed(WARM_THREAD_NAME),
  }
  expect(start.files.snapshots).toEqual([join(snapshotsDir, initial.file)])

  const load = startLoad()
  const checkers = startCheckers()
  const swapped = (file: string) => logs.some((l) => l.includes("snapshot swapped in") && l.includes(file))
  const began = performance.now()
  try {
    for (const v of variants) {
      publishCurrent(snapshotsDir, v.file)
      expect(await waitFor(async () => swapped(v.file), 5000, 2), `${v.file} swapped in`).toBe(true)
      await pause(DWELL_MILLIS)
    }
  } finally {
    publishMillis = performance.now() - began
    await checkers.stop()
    loadResult = await load.stop()
  }
}, 120_000)

afterAll(async () => {
  await server?.close()
  vi.restoreAllMocks()
  if (work !== undefined) rmSync(work, { recursive: true, force: true }) // mini-full too
})

const total = (groups: ReadonlyArray<{ readonly n: number }>) => groups.reduce((n, g) => n + g.n, 0)

describe("50 publishes under load", () => {
  it("every answer is a 200 stating its batch's date or a 503 with Retry-After; no other status, no connection error", () => {
    expect(answers.problems).toEqual([])
    expect(loadResult.errors, "connection errors").toBe(0)
    expect(loadResult.timeouts).toBe(0)
    expect(server.statuses.filter((s) => s !== 200 && s !== 503), "statuses in the access log").toEqual([])
    for (const text of answers.unavailableBodies) {
      const body = JSON.parse(text)
      expectErrorShape(body, 503)
      expect(body.error).toBe("snapshot_changed")
    }
    const all = answers.answers
    const ok = all.filter((a) => a.status === 200)
    console.info(
      `swap under load: ${PUBLISHES} publishes in ${(publishMillis / 1000).toFixed(1)} s; ${total(all)} answers, ` +
        `${total(ok)} 200 (${total(ok.filter((a) => a.file === "-"))} without ETag), ${total(all) - total(ok)} 503`,
    )
  })

  it("one body per day: every whole 200, with ETag or without, is byte for byte the body its day's ETags carry", () => {
    const ok = answers.answers.filter((a) => a.status === 200)
    for (const route of routes) {
      const bodies = new Map<string, Set<string>>()
      for (const a of ok) {
        if (a.client !== "check" || a.route !== route.name || a.file === "-") continue
        bodies.set(a.date, (bodies.get(a.date) ?? new Set()).add(`${a.hash} ${a.bytes}`))
      }
      expect([...bodies.keys()].sort(), `${route.name}: days answered with an ETag`).toEqual(DATES)
      for (const [date, set] of bodies) expect([...set], `${route.name} ${date}: one body`).toHaveLength(1)
      const bodyOf = new Map([...bodies].map(([date, set]) => [date, [...set][0]!]))
      expect(new Set(bodyOf.values()).size, `${route.name}: the days' bodies differ`).toBe(DATES.length)
      for (const a of ok.filter((x) => x.route === route.name)) {
        const [hash, bytes] = bodyOf.get(a.date)!.split(" ")
        if (a.client === "check") expect(`${a.hash} ${a.bytes}`, `${route.name}: whole body of ${a.date}`).toBe(`${hash} ${bytes}`)
        else expect(a.bytes, `${route.name}: size of a ${a.date} body`).toBe(Number(bytes))
      }
    }
  })

  it("each published snapshot was swapped in (none refused) and answered from; the last answers come from the last", async () => {
    expect(logs.filter((l) => l.includes("refused"))).toEqual([])
    const answeredFrom = new Set(answers.answers.filter((a) => a.status === 200).map((a) => a.file))
    expect(variants.filter((v) => !answeredFrom.has(v.file)).map((v) => v.file)).toEqual([])
    const last = variants.at(-1)!
    const agent = new Agent()
    for (const route of routes) {
      const res = await request(server.url + route.path, { headers, dispatcher: agent })
      const body = (await res.body.json()) as { meta?: Record<string, unknown> }
      expect(res.statusCode).toBe(200)
      expect(res.headers.etag).toBe(entityTag(last.contentHash, route.path, "identity"))
      expect(route.dateOf(body)).toBe(last.batchDate)
    }
    await agent.close()
  })

  it("drained: only the last snapshot is open or mapped; descriptors and heap are back at their starting level", async () => {
    const lastPath = join(snapshotsDir, variants.at(-1)!.file)
    // The warm's thread (api/snapshot/AnswerWarm.ts) read the last file through a connection of its
    // own, closed when its warm ended; the server's connection holds its shared lock for its whole
    // life (the reader's locking_mode EXCLUSIVE), and SQLite's unix VFS keeps a closed connection's
    // descriptor open (unused) while the process holds a lock on that file, since closing it would
    // drop the POSIX locks of the whole process, and closes it with the last one: at most one more
    // descriptor, of the served file only, and none of the 49 retired ones (each warmed too).
    // The warm's thread is kept a minute after its warm, for a swap that follows: its own event
    // loop's descriptors (perThread, measured on a bare thread) are allowed for it, and for no
    // more than one such thread.
    const onlyLast = (snapshots: ReadonlyArray<string>) => snapshots.length <= 2 && snapshots.every((s) => s === lastPath)
    const allowed = () => start.files.total + FD_MARGIN + Math.max(0, threadsNamed(WARM_THREAD_NAME) - start.warmThreads) * perThread
    const drained = await waitFor(async () => {
      const now = openFiles(snapshotsDir)
      return onlyLast(now.snapshots) && now.total <= allowed()
    }, 5000)
    const end = openFiles(snapshotsDir)
    const warmThreads = threadsNamed(WARM_THREAD_NAME)
    expect(onlyLast(end.snapshots), end.snapshots.join()).toBe(true)
    expect(end.snapshots).toContain(lastPath)
    expect(warmThreads, "warm threads alive").toBeLessThanOrEqual(1)
    expect(
      drained,
      `descriptors: ${end.total}, at the start ${start.files.total}, ${warmThreads} warm thread(s) of ${perThread} descriptors`,
    ).toBe(true)
    expect(start.maps.length, "mapped at the start").toBeLessThanOrEqual(1)
    expect(mappedSnapshots(snapshotsDir)).toEqual(start.maps.map(() => lastPath))
    const heap = await heapAfterGc()
    const mb = (n: number) => (n / 1e6).toFixed(1)
    console.info(`swap under load: descriptors ${start.files.total} → ${end.total}, heap ${mb(start.heap)} → ${mb(heap)} MB`)
    expect(heap - start.heap, `heap ${mb(heap)} MB, at the start ${mb(start.heap)} MB`).toBeLessThan(HEAP_MARGIN_BYTES)
  })
})
