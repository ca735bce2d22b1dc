/**
 * Random bytes written into the snapshot file the API is serving (a disk fault, a stray `dd`):
 * reads of existing ids answer 503 with Retry-After in the JSON error shape, never a 404 and never
 * a 500; the file is checked again, refused, and the API serves the newest other published
 * snapshot that passes its checks, /health degraded, the log saying what happened.
 */
import Database from "better-sqlite3"
import { randomBytes } from "node:crypto"
import { closeSync, copyFileSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey, expectErrorShape, get, header, type JsonResponse, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { runCli, writeMiniSample } from "./support/ops.ts"
import { captureStoreLog } from "./support/storeLog.ts"

process.env.FDS_STALE_AFTER_HOURS = "1000000"

let work: string
let dataDir: string
let snapshots: string
let older: string
let newer: string
let pristine: string
let assetIds: number[]
let conceptIds: number[]
let key: string
let server: RunningServer
const log = captureStoreLog()

const healthOf = async () => (await get(server.url + "/health")).body as { status: string; last_scraped_date: string | null }
/** Every existing series' days and every existing fund's series: what a lookup of an id reads. */
const readEveryId = (): Promise<JsonResponse[]> =>
  Promise.all([
    ...assetIds.map((id) => get(`${server.url}/api/real_assets/${id}/days`, { "x-api-key": key })),
    ...conceptIds.map((id) => get(`${server.url}/api/conceptual_assets/${id}/real_assets`, { "x-api-key": key })),
  ])

/** Never a 404 for an id that exists, never a 500: 200, or 503 with Retry-After in the error shape. */
const expectNo404Or500 = (answers: ReadonlyArray<JsonResponse>) => {
  expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 503)).toEqual([])
  for (const a of answers.filter((a) => a.status === 503)) {
    expectErrorShape(a.body, 503)
    expect(Number(header(a, "retry-after"))).toBeGreaterThan(0)
  }
}

/** Overwrites `length` bytes of the served file from `offset` in place (same inode, as a disk fault or `dd conv=notrunc`). */
const scribble = (offset: number, length: number) => {
  const fd = openSync(join(snapshots, newer), "r+")
  try {
    writeSync(fd, randomBytes(length), 0, length, offset)
  } finally {
    closeSync(fd)
  }
}

/** Puts the good bytes back under the served name (a new inode) and waits until the API serves them again. */
const restore = async () => {
  copyFileSync(pristine, join(snapshots, `${newer}.restore`))
  renameSync(join(snapshots, `${newer}.restore`), join(snapshots, newer))
  expect(await waitFor(async () => (await healthOf()).last_scraped_date === "2026-11-20", 10_000)).toBe(true)
  expect(await waitFor(async () => (await healthOf()).status === "ok", 5000)).toBe(true)
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-damaged-"))
  const { mini } = await writeMiniSample(join(work, "mini"))
  dataDir = join(work, "data")
  snapshots = join(dataDir, "snapshots")
  expect((await runCli(dataDir, ["pipeline", "run", "--source", mini, "--date", "2026-11-19"])).code).toBe(0)
  older = readFileSync(join(snapshots, "CURRENT"), "utf8").trim()
  expect((await runCli(dataDir, ["pipeline", "run", "--source", mini])).code).toBe(0)
  newer = readFileSync(join(snapshots, "CURRENT"), "utf8").trim()
  pristine = join(work, "pristine.sqlite")
  copyFileSync(join(snapshots, newer), pristine)
  const db = new Database(pristine, { readonly: true })
  try {
    assetIds = db.prepare("SELECT DISTINCT asset_id FROM quotas ORDER BY asset_id").pluck().all() as number[]
    conceptIds = db.prepare("SELECT concept_id FROM funds ORDER BY concept_id").pluck().all() as number[]
  } finally {
    db.close()
  }
  key = (await createKey(dataDir, { email: "ops@example.cl", tier: "internal", dailyQuota: null })).key // no daily quota: many reads
  server = await startServer({ dataDir, pollMillis: 50 })
})
afterAll(async () => {
  await server?.close()
  log.restore()
  rmSync(work, { recursive: true, force: true })
})

describe("random bytes written into the served snapshot file", () => {
  it("over everything past its first page: reads answer 503 with Retry-After; the file is checked again and the previous batch serves instead", async () => {
    expect(await healthOf()).toMatchObject({ status: "ok", last_scraped_date: "2026-11-20" })
    log.clear()
    const size = statSync(join(snapshots, newer)).size
    scribble(4096, size - 4096)
    // lookups of ids on the event loop, and an all-funds answer at an earlier date (rendered in a worker thread)
    const [during, rendered] = await Promise.all([readEveryId(), get(`${server.url}/api/all-funds?date=2026-11-18`, { "x-api-key": key })])
    expectNo404Or500([...during, rendered])
    // the first reads come long before a check in a worker thread can end: they read the damage
    expect(during[0]!.status).toBe(503)
    expect(rendered.status).toBe(503)
    expect(await waitFor(async () => (await healthOf()).last_scraped_date === "2026-11-19", 10_000)).toBe(true)
    expect((await healthOf()).status).toBe("degraded")
    const after = await readEveryId()
    expect(after.every((a) => a.status === 200)).toBe(true)
    expect(log.loud().some((l) => /failed its check again/.test(l.msg) && l.file === newer)).toBe(true)
    expect(log.loud().some((l) => /instead/.test(l.msg) && l.current === newer && l.serving === older)).toBe(true)
    await restore()
  })

  it("over the middle of the file: no lookup of an existing id is a 404 or a 500; the file is refused once checked", async () => {
    log.clear()
    const size = statSync(join(snapshots, newer)).size
    scribble(Math.floor(size / 3), Math.floor(size / 3))
    const answers: JsonResponse[] = []
    // until the API serves the previous batch instead of the damaged file
    const deadline = Date.now() + 10_000
    while ((await healthOf()).last_scraped_date !== "2026-11-19" && Date.now() < deadline) answers.push(...(await readEveryId()))
    answers.push(...(await readEveryId()))
    expectNo404Or500(answers)
    expect(await healthOf()).toMatchObject({ status: "degraded", last_scraped_date: "2026-11-19" })
    expect(log.loud().some((l) => /failed its check again/.test(l.msg) && l.file === newer)).toBe(true)
  })
})
