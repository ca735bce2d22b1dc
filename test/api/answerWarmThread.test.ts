/**
 * The warm's thread (api/snapshot/AnswerWarm.ts WarmThread, AnswerWarmWorker.ts): the answers of
 * a batch are computed in a worker thread on its file, opened there again, and posted back. On a
 * real snapshot file: the answers are the routes' (JSON read back and checked against the
 * fixture's own rows), the settings sent with the thread are the ones the routes read there, a
 * file that is not the checked one fails the order and keeps nothing, and a thread that dies
 * fails its warm instead of hanging it.
 */
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { type WarmAnswer, type WarmRequest, WarmThread } from "../../api/snapshot/AnswerWarm.ts"
import { fileIdentity } from "../../api/snapshot/FileIdentity.ts"
import { verifySnapshot } from "../../api/snapshot/SnapshotVerification.ts"
import { openHandlesOf } from "../support/descriptors.ts"
import { waitFor } from "../support/server.ts"
import { makeFixtureA, testCrc32 } from "../support/snapshotFixture.ts"

const fx = makeFixtureA()
afterAll(() => fx.cleanup())
/** Each test's threads, ended after it (a thread is kept a minute for a swap that follows). */
const threads: WarmThread[] = []
const made = (env: Record<string, string>, options: { readonly script?: URL; readonly startMillis?: number } = {}): WarmThread => {
  const thread = new WarmThread(env, options)
  threads.push(thread)
  return thread
}
afterEach(() => {
  for (const thread of threads.splice(0)) thread.end()
})

const file = fx.snapshot.finished.file
const order = () => ({
  dir: fx.snapshotsDir,
  file,
  identity: fileIdentity(join(fx.snapshotsDir, file)),
  verified: verifySnapshot(fx.snapshotsDir, file),
})
const request = (target: string, accept = ""): WarmRequest => ({ key: `${target}\naccept: ${accept}`, target, accept })
const always = () => true

describe("WarmThread", () => {
  it("answers each request with the route's 200 on the batch's file, posted back as it is computed; its readers closed after", async () => {
    const thread = made({})
    const got: WarmAnswer[] = []
    const outcome = await thread.warm(
      order(),
      [
        request("http://127.0.0.1:1/api/asset_providers"),
        request("http://127.0.0.1:1/api/all-funds"),
        request("http://127.0.0.1:1/api/nowhere"),
        // a filter: rendered by a rendering thread of the warm's thread (api/market/OffThreadRender.ts)
        request("http://127.0.0.1:1/api/all-funds?category=equity"),
      ],
      64 * 1024 * 1024,
      (answer) => {
        got.push(answer)
        return true
      },
      always,
      60_000,
    )
    expect(outcome).toMatchObject({ hot: 4, warmed: 3, stopped: null, damaged: false, failed: null })
    expect(got.map((a) => [a.key.split("\n")[0], a.status, a.contentType])).toEqual([
      ["http://127.0.0.1:1/api/asset_providers", 200, "application/json"],
      ["http://127.0.0.1:1/api/all-funds", 200, "application/json"],
      ["http://127.0.0.1:1/api/all-funds?category=equity", 200, "application/json"],
    ])
    const batchId = file.replace(/\.sqlite$/, "")
    // fixture A: two AGFs, four mutual fund series, two of them (Beta Dólar's) equity (test/support/snapshotFixture.ts)
    const providers = JSON.parse(Buffer.from(got[0]!.body).toString("utf8")) as { data: Array<{ attributes: { name: string } }> }
    expect(providers.data.map((p) => p.attributes.name).sort()).toEqual(["Alfa AGF S.A.", "Beta AGF S.A."])
    type Funds = { data: Array<{ fundName: string; category: string }>; meta: { batch_id: string; count: number } }
    const funds = JSON.parse(Buffer.from(got[1]!.body).toString("utf8")) as Funds
    expect([funds.data.length, funds.meta.count, funds.meta.batch_id]).toEqual([4, 4, batchId])
    const equity = JSON.parse(Buffer.from(got[2]!.body).toString("utf8")) as Funds
    expect(equity.data.map((r) => [r.fundName, r.category])).toEqual([
      ["Fondo Mutuo Beta Dólar", "equity"],
      ["Fondo Mutuo Beta Dólar", "equity"],
    ])
    // the thread is kept for the next warm, but its connection and its rendering thread's are gone
    const path = join(fx.snapshotsDir, file)
    expect(await waitFor(async () => openHandlesOf(path) === 0, 5000, 25)).toBe(true)
  }, 30_000)

  it("the thread reads the server's settings it was started with, not its own environment's", async () => {
    // FDS_ENABLE_CLP is off in the test environment: the clp valuation answers 503 unless the thread was given it
    expect(process.env.FDS_ENABLE_CLP).toBeUndefined()
    const target = request(`http://127.0.0.1:1/api/real_assets/${testCrc32("fm:8043:A")}/returns?valuation=clp`)
    const kept = async (env: Record<string, string>) => {
      const got: WarmAnswer[] = []
      await made(env).warm(order(), [target], 1 << 26, (a) => got.push(a) > 0, always, 60_000)
      return got
    }
    const on = await kept({ FDS_ENABLE_CLP: "true" })
    expect(on.map((a) => a.status)).toEqual([200])
    const returns = JSON.parse(Buffer.from(on[0]!.body).toString("utf8")) as { meta?: { valuation?: string } }
    expect(JSON.stringify(returns)).toContain('"clp"')
    expect(await kept({})).toEqual([]) // the 503 basis_not_enabled is not kept
  }, 30_000)

  it("a thread is kept for the next warm, one whose order failed on its file too; end() ends the one kept", async () => {
    const thread = made({})
    const one = [request("http://h/api/asset_providers")]
    const first = await thread.warm(order(), one, 1 << 26, () => true, always, 60_000)
    const second = await thread.warm(order(), one, 1 << 26, () => true, always, 60_000)
    expect([first.failed, second.failed, second.warmed]).toEqual([null, null, 1])
    expect(second.threadId).toBe(first.threadId)
    const failing = await thread.warm({ ...order(), identity: "not-this-file" }, one, 1 << 26, () => true, always, 60_000)
    expect(failing.threadId).toBe(first.threadId)
    expect(failing.failed).toMatch(/changed after it was checked/)
    const after = await thread.warm(order(), one, 1 << 26, () => true, always, 60_000)
    expect([after.threadId, after.warmed]).toEqual([first.threadId, 1])
    thread.end()
    const again = await thread.warm(order(), one, 1 << 26, () => true, always, 60_000)
    expect(again.threadId).not.toBe(first.threadId)
    expect(again.warmed).toBe(1)
  }, 30_000)

  it("a thread not ready in time fails its warm; one ended by end() (the server stopping) gives its warm up", async () => {
    // a thread that loads nothing and never answers
    const silent = new URL("data:text/javascript,setInterval(() => {}, 1000)")
    const slow = await made({}, { script: silent, startMillis: 300 }).warm(order(), [request("http://h/api/all-funds")], 1 << 26, () => true, always, 60_000)
    expect(slow).toMatchObject({ warmed: 0, failed: "the warm's thread was not ready after 0.3 s", stopped: null })
    expect(slow.millis).toBeGreaterThanOrEqual(300)
    const stopping = made({}, { script: silent })
    const pending = stopping.warm(order(), [request("http://h/api/all-funds")], 1 << 26, () => true, always, 60_000)
    await new Promise((resolve) => setTimeout(resolve, 100))
    stopping.end()
    expect(await pending).toMatchObject({ warmed: 0, failed: null, stopped: "abandoned" })
  }, 30_000)

  it("the thread keeps the budget itself: it stops at the first answer after it", async () => {
    const days = `http://h/api/real_assets/${testCrc32("fm:8043:A")}/days`
    const targets = Array.from({ length: 30 }, (_, i) => request(`${days}?from_date=2026-01-${String(1 + i).padStart(2, "0")}`))
    // the first answer takes more than a millisecond: the budget is spent as it ends
    const outcome = await made({}).warm(order(), targets, 1 << 26, () => true, always, 1)
    expect(outcome).toMatchObject({ hot: 30, warmed: 1, stopped: "budget", failed: null })
  }, 30_000)

  it("a file that is not the one checked fails the order: nothing is answered", async () => {
    const thread = made({})
    const got: WarmAnswer[] = []
    const outcome = await thread.warm({ ...order(), identity: "not-this-file" }, [request("http://h/api/all-funds")], 1 << 26, (a) => got.push(a) > 0, always, 60_000)
    expect(got).toEqual([])
    expect(outcome.warmed).toBe(0)
    expect(outcome.failed).toMatch(/changed after it was checked/)
  }, 30_000)

  it("a thread that dies fails its warm, which ends", async () => {
    const thread = made({}, { script: new URL("data:text/javascript,process.exit(3)") })
    const outcome = await thread.warm(order(), [request("http://h/api/all-funds")], 1 << 26, () => true, always, 60_000)
    expect(outcome).toMatchObject({ warmed: 0, failed: "the warm's thread exited (code 3)" })
  }, 30_000)
})
