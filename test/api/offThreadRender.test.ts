/**
 * The rendering thread (api/market/OffThreadRender.ts): answers from the real worker on a real
 * snapshot (all-funds filtered, a market summary at an earlier date), a file that is gone, a bound on waiting
 * renderings, and a worker that dies (what waited fails, the next rendering starts a new one).
 * Failing workers are small scripts given as data: URLs.
 */

import { join } from "node:path"
import { it as effectIt } from "@effect/vitest"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { MAX_WAITING, makeRenderer, OffThreadRenderer, type RenderAnswer } from "../../api/market/OffThreadRender.ts"
import { ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { publishMarketSnapshot } from "../market/marketSnapshot.ts"
import { makeDataDir } from "../support/snapshotFixture.ts"

const script = (source: string) => new URL(`data:text/javascript,${encodeURIComponent(source)}`)
const dir = makeDataDir()
const file = publishMarketSnapshot(dir.snapshotsDir)
afterAll(() => dir.cleanup())

const request = (path: string) => ({ kind: "allFunds" as const, path, requested: "mutual_fund" as const, cutoff: null, filters: { category: "equity" }, graceWeekdays: 10 })

describe("the rendering thread", () => {
  it("renders a filtered answer from the snapshot file, as UTF-8 JSON bytes", async () => {
    const r = makeRenderer()
    try {
      const answer = (await r.render(request(join(dir.snapshotsDir, file)))) as RenderAnswer & { bytes: Uint8Array }
      expect(answer.bytes).toBeInstanceOf(Uint8Array)
      const body = JSON.parse(new TextDecoder().decode(answer.bytes))
      expect(body.data.length).toBeGreaterThan(0)
      expect(body.data.every((row: { category: string }) => row.category.toLowerCase() === "equity")).toBe(true)
      // the batch it was rendered from, named in its meta: the file's name
      expect(body.meta.batch_id).toBe(file.replace(/\.sqlite$/, ""))
    } finally {
      await r.close()
    }
  })

  it("renders a market summary at an earlier date; before any quote there is nothing (the route's 422)", async () => {
    const r = makeRenderer()
    try {
      const path = join(dir.snapshotsDir, file)
      const answer = (await r.render({ kind: "marketSummary", path, cutoff: 20260303, graceWeekdays: 10 })) as RenderAnswer & { bytes: Uint8Array }
      const body = JSON.parse(new TextDecoder().decode(answer.bytes))
      expect([body.meta.date, body.meta.batch_id]).toEqual(["2026-03-03", file.replace(/\.sqlite$/, "")])
      expect(await r.render({ kind: "marketSummary", path, cutoff: 20250101, graceWeekdays: 10 })).toMatchObject({ empty: true })
    } finally {
      await r.close()
    }
  })

  it("a file that is no longer there answers gone (the route's 503 snapshot_changed)", async () => {
    const r = makeRenderer()
    try {
      expect(await r.render(request(join(dir.snapshotsDir, "2020-01-01-0000000000000000.sqlite")))).toMatchObject({ gone: true })
    } finally {
      await r.close()
    }
  })

  it(`at most ${MAX_WAITING} renderings wait; closing fails the waiting ones`, async () => {
    const r = makeRenderer(script(`import { parentPort } from "node:worker_threads"; parentPort.on("message", () => {})`))
    const waiting = Array.from({ length: MAX_WAITING }, (_, i) => r.render(request(`/x${i}`)))
    expect(waiting.every((p) => p !== undefined)).toBe(true)
    expect(r.render(request("/another"))).toBeUndefined()
    // a task already waiting is shared, not refused
    expect(r.render(request("/x0"))).toBe(waiting[0])
    await r.close()
    for (const answer of await Promise.all(waiting)) expect(answer).toMatchObject({ failed: "the server is stopping" })
  })

  it("the end of a failed worker does not fail what the next worker renders", async () => {
    // an uncaught error: Node reports "error", then "exit" a little later; a rendering asked in
    // between goes to a new worker and must not be failed by the old one's exit
    const source = `import { parentPort } from "node:worker_threads"
      parentPort.on("message", (m) => {
        if (m.path === "/crash") throw new Error("boom")
        setTimeout(() => parentPort.postMessage({ id: m.id, gone: true }), 50)
      })`
    const r = makeRenderer(script(source))
    try {
      const failed = await r.render(request("/crash"))
      expect(failed).toMatchObject({ failed: expect.stringContaining("boom") })
      expect(await r.render(request("/other"))).toMatchObject({ gone: true })
    } finally {
      await r.close()
    }
  })

  it("a rendering that hangs past the timeout fails, and its worker is ended", async () => {
    const r = makeRenderer(script(`import { parentPort } from "node:worker_threads"; parentPort.on("message", () => {})`), 200)
    try {
      expect(await r.render(request("/slow"))).toMatchObject({ failed: "a rendering took more than 0.2 s; the rendering worker was ended" })
    } finally {
      await r.close()
    }
  })

  it("a worker that exits fails what waited, and the next rendering gets a new worker", async () => {
    const source = `import { parentPort } from "node:worker_threads"
      parentPort.on("message", (m) => (m.path === "/crash" ? process.exit(3) : parentPort.postMessage({ id: m.id, gone: true })))`
    const r = makeRenderer(script(source))
    try {
      const failed = await r.render(request("/crash"))
      expect(failed).toMatchObject({ failed: "the rendering worker exited (code 3)" })
      expect(await r.render(request("/other"))).toMatchObject({ gone: true })
    } finally {
      await r.close()
    }
  })
})

describe("the rendering service", () => {
  effectIt.live(`beyond ${MAX_WAITING} waiting renderings a request answers 503 render_busy with Retry-After`, () =>
    Effect.gen(function* () {
      const renderer = yield* OffThreadRenderer
      for (let i = 0; i < MAX_WAITING; i++) yield* Effect.forkChild(renderer.render(request(`/x${i}`)))
      yield* Effect.yieldNow
      const busy = yield* Effect.flip(renderer.render(request("/another")))
      expect(busy).toBeInstanceOf(ServiceUnavailable)
      expect(busy.reason).toBe("render_busy")
      expect(busy.retryAfter).toBe(2)
    }).pipe(Effect.provide(OffThreadRenderer.layerOn(script(`import { parentPort } from "node:worker_threads"; parentPort.on("message", () => {})`)))),
  )
})
