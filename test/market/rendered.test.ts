/**
 * Answers rendered in the rendering thread (api/market/OffThreadRender.ts) over real HTTP, when
 * the pinned snapshot's file is removed from disk while the server runs (the server still holds
 * it open): a thread that never opened the file answers 503 snapshot_changed with Retry-After,
 * never rows of another batch; one that has it open keeps rendering from it (the same batch).
 * Stored answers are unaffected either way.
 */
import { readdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { expectErrorShape, header } from "../support/server.ts"
import { type MarketClient, startMarket } from "./client.ts"

const clients: MarketClient[] = []
afterAll(async () => {
  for (const c of clients) await c.close()
})

const removeSnapshotFiles = (c: MarketClient) => {
  for (const f of readdirSync(c.fixture.snapshotsDir).filter((f) => f.endsWith(".sqlite"))) rmSync(join(c.fixture.snapshotsDir, f))
}

describe("rendering when the snapshot file is gone", () => {
  it("before the thread opened it: 503 snapshot_changed for renderings; stored answers stay 200", async () => {
    const c = await startMarket()
    clients.push(c)
    const stored = await c.call("/api/all-funds")
    expect(stored.status).toBe(200)
    removeSnapshotFiles(c)
    for (const path of ["/api/all-funds?category=equity", "/api/market-summary?date=2026-03-03"]) {
      const res = await c.call(path)
      expect(res.status, path).toBe(503)
      expectErrorShape(res.body, 503)
      expect(res.body.error).toBe("snapshot_changed")
      expect(Number(header(res, "retry-after"))).toBeGreaterThan(0)
    }
    expect((await c.call("/api/all-funds")).text).toBe(stored.text)
  })

  it("after the thread opened it: renderings go on from the open file, the same as before", async () => {
    const c = await startMarket()
    clients.push(c)
    const first = await c.call("/api/all-funds?category=equity")
    expect(first.status).toBe(200)
    const before = await c.call("/api/market-summary?date=2026-03-03")
    expect(before.status).toBe(200)
    removeSnapshotFiles(c)
    const other = await c.call("/api/all-funds?fund_family=accionario-nacional")
    expect(other.status).toBe(200)
    expect(other.body.data.length).toBeGreaterThan(0)
    expect((await c.call("/api/all-funds?category=equity")).text).toBe(first.text)
    expect((await c.call("/api/market-summary?date=2026-03-03")).text).toBe(before.text)
  })
})
