/**
 * The parse ahead of a cold build (pipeline/ParseAhead.ts): the files not yet cached are
 * parsed into the cache in two processes (this one and a child), and the build's load then finds every one cached and gives
 * what it gives without the parse ahead: the same rows, repairs, dates and records of every file.
 * A file that fails to parse is left to the load, which reports it as before.
 */

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadInputs } from "../../pipeline/Load.ts"
import { collectFolder } from "../../pipeline/Collect.ts"
import type { LoadedInputs } from "../../pipeline/LoadedInputs.ts"
import { type RawFileObserved, SqliteLedger } from "../../pipeline/ledger/Ledger.ts"
import { childProcessOffload, offloadSetting } from "../../pipeline/offload/Offload.ts"
import { FolderRawStore } from "../../pipeline/RawStore.ts"
import { envProvider } from "../../pipeline/Settings.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { halves, parseAhead } from "../../pipeline/ParseAhead.ts"
import { DiskParsedCache, ParsedCache } from "../../pipeline/ParsedCache.ts"

/** A child process beside this thread, as on the two cores the build has. */
const twoCores = childProcessOffload(2)

let work: string
let ledger: SqliteLedger
let raw: FolderRawStore
let inputs: ReadonlyArray<RawFileObserved>

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-parse-ahead-"))
  const sample = join(work, "sample")
  await writeSample({ out: sample, scale: "small", seed: 7, endDate: "2026-11-20" })
  ledger = new SqliteLedger(join(work, "ledger.sqlite"))
  raw = new FolderRawStore(join(work, "raw"))
  await Effect.runPromise(collectFolder(ledger, raw, sample))
  inputs = ledger.currentInputs()
}, 120_000)
afterAll(() => {
  ledger.close()
  rmSync(work, { recursive: true, force: true })
})

/** Every file as the load gives it: its summary and its data read back. */
const contentOf = (loaded: LoadedInputs) =>
  [...loaded.files].map(([dataSet, files]) => [
    dataSet,
    files.map((f) => {
      const data = f.data() as unknown
      // a cartola's data is its columns, loaded when staged
      const read = typeof data === "object" && data !== null && "load" in data ? (data as { load: () => unknown }).load() : data
      return { name: f.name, rows: f.rows, repairs: f.repairs, firstDate: f.firstDate, latestDate: f.latestDate, read }
    }),
  ])

describe("the parse ahead", () => {
  it("splits each data set's files between the two processes, alternately", () => {
    const file = (data_set: string, n: number) => ({ data_set, name: `${data_set}-${n}` }) as unknown as RawFileObserved
    const [mine, theirs] = halves([file("a", 1), file("b", 1), file("a", 2), file("a", 3), file("b", 2)])
    expect(theirs.map((f) => f.name)).toEqual(["a-1", "b-1", "a-3"])
    expect(mine.map((f) => f.name)).toEqual(["a-2", "b-2"])
  })

  it("parses every file not yet cached in two processes; the load then gives what it gives without it", async () => {
    const ahead = new DiskParsedCache(join(work, "ahead"))
    const figures = await parseAhead(twoCores, raw, inputs, ahead, 0)
    expect(figures).not.toBeNull()
    expect(figures!.files).toBe(inputs.length)
    expect(figures!.child_files).toBe(halves(inputs)[1].length)
    expect(figures!.child_ms).not.toBeNull()
    expect(figures!.failed).toBe(0)
    for (const i of inputs) expect(ahead.hasSummary({ sha256: i.sha256, name: i.name }), i.name).toBe(true)
    // nothing left to parse: a second call does nothing
    expect(await parseAhead(twoCores, raw, inputs, ahead, 0)).toBeNull()

    const plain = new DiskParsedCache(join(work, "plain"))
    const withAhead = await Effect.runPromise(loadInputs(raw, inputs, ahead))
    const without = await Effect.runPromise(loadInputs(raw, inputs, plain))
    expect(withAhead.repairs).toEqual(without.repairs)
    expect([withAhead.firstQuotaDate, withAhead.latestQuotaDate, withAhead.fiUnavailable]).toEqual([without.firstQuotaDate, without.latestQuotaDate, without.fiUnavailable])
    expect(contentOf(withAhead)).toEqual(contentOf(without))
    // the two processes wrote their entries under their own temporary names: none is left
    for (const dir of readdirSync(join(work, "ahead", "cache"))) {
      expect(readdirSync(join(work, "ahead", "cache", dir)).filter((f) => f.endsWith(".tmp"))).toEqual([])
    }
  }, 120_000)

  it("leaves a file that fails to the load, which reports it as before", async () => {
    const cartolas = inputs.filter((i) => i.data_set === "cartola_diaria")
    // a cartola whose data row lost its columns, stored as a raw file under a cartola's name
    const bad = "RUN_ADM;NOM_ADM\n1;X\n"
    const path = join(work, "bad.txt")
    writeFileSync(path, bad)
    const sha = raw.put(Buffer.from(bad))
    const broken: RawFileObserved = { ...cartolas[0]!, sha256: sha, bytes: bad.length, name: "ffmm_todos_20261101_20261120.txt" }
    const cache = new DiskParsedCache(join(work, "failing"))
    const figures = await parseAhead(twoCores, raw, [...inputs.filter((i) => i !== cartolas[0]), broken], cache, 0)
    expect(figures!.failed).toBe(1)
    expect(cache.hasSummary({ sha256: sha, name: broken.name })).toBe(false)
    const load = await Effect.runPromise(Effect.result(loadInputs(raw, [broken], cache)))
    expect(load._tag).toBe("Failure")
    expect(JSON.stringify(load)).toContain("ffmm_todos_20261101_20261120.txt")
  }, 120_000)

  it("does not run for a store in memory, below its byte floor, or when turned off", async () => {
    expect(await parseAhead(twoCores, raw, inputs, new DiskParsedCache(join(work, "floor")))).toBeNull()
    const memory = Effect.runSync(Effect.gen(function* () {
      return yield* ParsedCache
    }).pipe(Effect.provide(ParsedCache.layerMemory)))
    expect(await parseAhead(twoCores, raw, inputs, memory, 0)).toBeNull()
    // FDS_PARSE_AHEAD=0, read through Config: everything on this thread
    const off = Effect.runSync(offloadSetting.parse(envProvider({ FDS_PARSE_AHEAD: "0" })))
    expect(off.cores).toBe(1)
    expect(await parseAhead(off, raw, inputs, new DiskParsedCache(join(work, "off")), 0)).toBeNull()
  })
})
