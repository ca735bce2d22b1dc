/**
 * The run's stores as services: the same batch run on the data folder's stores and on the
 * in-memory ones (ledger, raw store, parse cache) publishes the same content hash, and the
 * in-memory run leaves nothing of them in its data folder (only its snapshot and STATUS.json).
 * The batch's phases log under a span of their name (pipeline/run/Batch.ts).
 */
import { Effect, Logger } from "effect"
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { memoryStores, runPipeline, runPipelineLive } from "../../pipeline/Pipeline.ts"
import type { RunOptions } from "../../pipeline/RunOptions.ts"
import { reproduce } from "../../pipeline/Reproduce.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { jsonLogger } from "../../snapshots/Log.ts"
import { readCurrent } from "../../snapshots/Pointer.ts"

let work = ""
let sample = ""
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-memory-stores-"))
  sample = join(work, "sample")
  await writeSample({ out: sample, scale: "small", seed: 7, endDate: "2026-11-20" })
}, 60_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

const options = (dataDir: string): RunOptions => ({
  dataDir,
  sources: [{ kind: "folder", path: sample }],
  today: "2026-11-22",
  historyStart: "2026-01-01",
  fetch: { timeoutMillis: 1000, retries: 0, retryBaseMillis: 10 },
})

describe("the run's stores as services", () => {
  it("in memory: the same content hash as on the data folder; the ledger remembers within the layer; reproduce matches", async () => {
    const live = await Effect.runPromise(runPipelineLive(options(join(work, "live"))))
    expect(live.outcome).toBe("published")
    expect(existsSync(join(work, "live", "ledger.sqlite"))).toBe(true)

    const memoryDir = join(work, "memory")
    const [first, again, reproduced] = await Effect.runPromise(
      Effect.gen(function* () {
        const first = yield* runPipeline(options(memoryDir))
        // the same layer: the in-memory ledger has the inputs and the batch already
        const again = yield* runPipeline(options(memoryDir))
        const reproduced = yield* reproduce(memoryDir, first.batchDate, { restore: false })
        return [first, again, reproduced] as const
      }).pipe(Effect.provide(memoryStores)),
    )
    expect(first.outcome).toBe("published")
    if (first.outcome !== "published" || live.outcome !== "published") return
    expect(first.batchDate).toBe(live.batchDate)
    expect(first.rowCounts).toEqual(live.rowCounts)
    expect(first.contentHash).toBe(live.contentHash)
    expect(again).toMatchObject({ outcome: "unchanged", file: first.file })
    expect(reproduced).toMatchObject({ outcome: "match", actualHash: live.contentHash, onDisk: { state: "same" } })

    // Nothing of the stores on disk: no ledger, no raw files, no parsed files.
    expect(readCurrent(join(memoryDir, "snapshots"))).toBe(first.file)
    expect(existsSync(join(memoryDir, "ledger.sqlite"))).toBe(false)
    expect(existsSync(join(memoryDir, "raw"))).toBe(false)
    const cache = existsSync(join(memoryDir, "cache")) ? readdirSync(join(memoryDir, "cache")) : []
    expect(cache.filter((name) => /^(cartola|records)-v/u.test(name))).toEqual([])
    expect(existsSync(join(work, "live", "raw"))).toBe(true)
  }, 180_000)

  it("each phase's log lines carry its span: collect, then stage, then write", async () => {
    const lines: string[] = []
    const outcome = await Effect.runPromise(
      runPipeline(options(join(work, "phases"))).pipe(Effect.provide(memoryStores), Effect.provide(Logger.layer([jsonLogger((line) => lines.push(line))]))),
    )
    expect(outcome.outcome).toBe("published")
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; spans?: Record<string, number> })
    const spansOf = (msg: string) => Object.keys(logged.find((l) => l.msg === msg)?.spans ?? {})
    expect(spansOf("collected")).toEqual(["collect"])
    expect(spansOf("loaded")).toEqual(["stage"])
    expect(spansOf("staged")).toEqual(["stage"])
    expect(spansOf("built")).toEqual(["write"])
    const order = logged.map((l) => l.msg).filter((m) => ["collected", "loaded", "staged", "built"].includes(m))
    expect(order).toEqual(["collected", "loaded", "staged", "built"])
  }, 180_000)
})
