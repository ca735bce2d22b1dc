/**
 * /api/batches after a rollback and a roll forward, over real HTTP on batches the real pipeline
 * published (the CLI as a child process): A, B and C published, rolled back to A, rolled forward
 * to C. Each batch's `current_intervals` come from the ledger's moves of CURRENT in order; a sweep
 * written here, independent of the code, checks that the intervals never overlap, leave no gap
 * after the first publish, and that exactly one batch was current at every instant. Then the
 * ledger made unreadable (garbage bytes, then gone after it listed batches): /api/batches, one
 * batch, `?batch=` reads (past and current) and /api/changes answer 503 ledger_unavailable with
 * Retry-After, never 404 or an empty list, and /health's reasons say so.
 */
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ledgerRows, runCli, writeMiniSample } from "../ops/support/ops.ts"
import { createKey, expectErrorShape, type RunningServer, startServer, waitFor } from "../support/server.ts"

process.env.FDS_STALE_AFTER_HOURS = "1000000"

// biome-ignore lint/suspicious/noExplicitAny: answers are plain JSON
type Json = any

interface Interval {
  readonly from: string
  readonly to: string | null
}

let work: string
let mini: string
let dataDir: string
let server: RunningServer
let key: string
const ids: Record<string, string> = {}

const snapshots = () => join(dataDir, "snapshots")
const currentFile = () => readFileSync(join(snapshots(), "CURRENT"), "utf8").trim()
const cli = (...args: string[]) => runCli(dataDir, ["pipeline", ...args])

const call = async (target: string): Promise<{ status: number; headers: Record<string, unknown>; body: Json }> => {
  const res = await request(server.url + target, { method: "GET", headers: { "x-api-key": key } })
  const text = await res.body.text()
  return { status: res.statusCode, headers: res.headers, body: text === "" ? null : JSON.parse(text) }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-intervals-"))
  ;({ mini } = await writeMiniSample(join(work, "mini")))
  dataDir = join(work, "data")
  for (const date of ["2026-11-18", "2026-11-19", "2026-11-20"]) {
    const r = await cli("run", "--source", mini, "--date", date)
    expect(r.stdout, r.stderr).toMatch(new RegExp(`^published ${date}: `))
    ids[date] = currentFile().replace(/\.sqlite$/, "")
  }
  for (const date of ["2026-11-18", "2026-11-20"]) {
    const r = await cli("rollback", "--to", date, "--reason", "test")
    expect(r.code, r.stderr).toBe(0)
    expect(currentFile()).toBe(`${ids[date]}.sqlite`)
  }
  server = await startServer({ dataDir, pollMillis: 50 })
  key = (await createKey(dataDir, { email: "intervals@example.cl", tier: "internal" })).key
}, 120_000)

afterAll(async () => {
  await server?.close()
  rmSync(work, { recursive: true, force: true })
  rmSync(`${join(work, "mini")}-full`, { recursive: true, force: true })
})

/** Exactly one interval holds each instant from the first `from` on (checked at every bound and between bounds). */
const sweep = (intervals: ReadonlyArray<Interval & { readonly id: string }>): void => {
  const bounds = [...new Set(intervals.flatMap((i) => (i.to === null ? [i.from] : [i.from, i.to])))].sort()
  const probes: string[] = []
  for (const [k, b] of bounds.entries()) {
    probes.push(b)
    const next = bounds[k + 1]
    if (next !== undefined) probes.push(new Date((Date.parse(b) + Date.parse(next)) / 2).toISOString())
  }
  probes.push("9999-12-31T00:00:00.000Z")
  for (const t of probes) {
    const holding = intervals.filter((i) => i.from <= t && (i.to === null || t < i.to)).map((i) => i.id)
    expect(holding, `batches current at ${t}`).toHaveLength(1)
  }
  const before = new Date(Date.parse(bounds[0]!) - 1).toISOString()
  expect(intervals.filter((i) => i.from <= before && (i.to === null || before < i.to))).toEqual([])
}

describe("published batches' intervals after a rollback and a roll forward", () => {
  it("gives each batch the spans it was current, from the ledger's moves in order: no overlap, exactly one current at any instant", async () => {
    const res = await call("/api/batches")
    expect(res.status).toBe(200)
    const byDate = Object.fromEntries((res.body.data as Json[]).map((b) => [b.id.slice(0, 10), b]))
    expect(Object.keys(byDate).sort()).toEqual(["2026-11-18", "2026-11-19", "2026-11-20"])

    // the ledger's moves of CURRENT, read here on their own
    const moves = ledgerRows(dataDir)
      .filter((r) => r.type === "BatchPublished" || r.type === "BatchRolledBack")
      .map((r) => String(r.payload.file).slice(0, 10))
    expect(moves).toEqual(["2026-11-18", "2026-11-19", "2026-11-20", "2026-11-18", "2026-11-20"])

    const a = byDate["2026-11-18"].attributes
    const b = byDate["2026-11-19"].attributes
    const c = byDate["2026-11-20"].attributes
    expect(a.current_intervals).toHaveLength(2)
    expect(b.current_intervals).toHaveLength(1)
    expect(c.current_intervals).toHaveLength(2)
    // A: published, replaced by B; rolled back to, replaced by the roll forward to C
    expect(a.current_intervals[0].to).toBe(b.current_intervals[0].from)
    expect(a.current_intervals[1].from).toBe(c.current_intervals[0].to)
    expect(a.current_intervals[1].to).toBe(c.current_intervals[1].from)
    expect(c.current_intervals[1].to).toBeNull()
    // published_at: the first interval's start; superseded_at: the last one's end
    for (const x of [a, b, c]) {
      expect(x.published_at).toBe(x.current_intervals[0].from)
      expect(x.superseded_at).toBe(x.current_intervals.at(-1).to)
    }
    // C was replaced by the rollback for a while: it is current now, but its first span ended
    expect(c.current_intervals[0].to).not.toBeNull()
    expect(a.superseded_at).not.toBeNull()
    expect([a.current, b.current, c.current]).toEqual([false, false, true])

    sweep(Object.values(byDate).flatMap((x: Json) => (x.attributes.current_intervals as Interval[]).map((i) => ({ ...i, id: x.id }))))

    // the contract holds the new field
    const doc = (await call("/openapi.json")).body
    expect(Object.keys(doc.components.schemas.BatchAttributes.properties)).toContain("current_intervals")
    expect(doc.components.schemas.CurrentInterval.required).toEqual(["from", "to"])
  })

  it("an unreadable ledger: 503 ledger_unavailable with Retry-After on the batches, ?batch= and /api/changes; /health says so", async () => {
    const ledger = join(dataDir, "ledger.sqlite")
    const expect503 = async (target: string) => {
      const res = await call(target)
      expect(res.status, `${target}: ${JSON.stringify(res.body)}`).toBe(503)
      expectErrorShape(res.body, 503)
      expect(res.body.error, target).toBe("ledger_unavailable")
      expect(Number(res.headers["retry-after"]), target).toBeGreaterThan(0)
    }
    const targets = () => [
      "/api/batches",
      `/api/batches/${ids["2026-11-19"]}`,
      `/api/batches/${ids["2026-11-20"]}`,
      `/api/asset_providers?batch=${ids["2026-11-19"]}`,
      `/api/asset_providers?batch=${ids["2026-11-20"]}`,
      `/api/changes?from_batch=${ids["2026-11-18"]}`,
    ]
    const healthReasons = async (): Promise<string[]> => ((await request(`${server.url}/health`)).body.json() as Promise<Json>).then((h) => h.reasons)

    expect((await call(`/api/asset_providers?batch=${ids["2026-11-19"]}`)).status).toBe(200)
    // garbage in place of the ledger (its WAL folded in and moved away first)
    renameSync(ledger, `${ledger}.good`)
    rmSync(`${ledger}-wal`, { force: true })
    rmSync(`${ledger}-shm`, { force: true })
    writeFileSync(ledger, Buffer.alloc(8192, 0x5a))
    for (const target of targets()) await expect503(target)
    expect(await healthReasons()).toEqual(expect.arrayContaining([expect.stringContaining("ledger cannot be read")]))
    // the current batch still serves requests that name none
    expect((await call("/api/asset_providers")).status).toBe(200)

    // gone after it listed batches: not "nothing published"
    rmSync(ledger)
    for (const target of targets()) await expect503(target)

    // back: served again
    renameSync(`${ledger}.good`, ledger)
    expect(await waitFor(async () => (await call("/api/batches")).status === 200, 5_000)).toBe(true)
    expect((await call(`/api/asset_providers?batch=${ids["2026-11-19"]}`)).status).toBe(200)
    expect(await healthReasons()).not.toEqual(expect.arrayContaining([expect.stringContaining("ledger")]))
  })
})
