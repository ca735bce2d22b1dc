/**
 * A folder collect with many files to recognise recognises them on both cores
 * (pipeline/RecognizeAhead.ts): the ledger and the raw store get what a collect on one thread
 * gives, in the folder's order, and an unrecognised file still rejects the collect naming it.
 */

import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { collectFolder } from "../../pipeline/Collect.ts"
import { SqliteLedger } from "../../pipeline/ledger/Ledger.ts"
import { childProcessOffload, inProcessLayer, offloadSetting } from "../../pipeline/offload/Offload.ts"
import { FolderRawStore } from "../../pipeline/RawStore.ts"
import { recognizeAhead } from "../../pipeline/RecognizeAhead.ts"
import { envProvider } from "../../pipeline/Settings.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"

/** A child process beside this thread, as on the two cores the build has. */
const twoCores = childProcessOffload(2)

let work: string
let sample: string

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-recognize-"))
  sample = join(work, "sample")
  await writeSample({ out: sample, scale: "small", seed: 9, endDate: "2026-11-20" })
}, 120_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** Collects `dir` into a fresh ledger and raw store: what it observed, the ledger's inputs, the stored files. */
const collectInto = async (name: string, dir: string, aheadMinBytes: number | undefined, oneCore = false) => {
  const ledger = new SqliteLedger(join(work, `${name}.sqlite`))
  const raw = new FolderRawStore(join(work, `${name}-raw`))
  try {
    const collect = collectFolder(ledger, raw, dir, undefined, aheadMinBytes).pipe(Effect.provide(oneCore ? inProcessLayer : Layer.empty))
    const result = await Effect.runPromise(Effect.result(collect))
    const stored = readdirSync(raw.dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort()
    return { result, inputs: ledger.currentInputs(), stored }
  } finally {
    ledger.close()
  }
}

describe("recognising a folder's files on both cores", () => {
  it("gives the ledger what a collect on one thread gives, in the folder's order", async () => {
    const ahead = await collectInto("ahead", sample, 0)
    const plain = await collectInto("plain", sample, 0, true)
    expect(ahead.result._tag).toBe("Success")
    expect(ahead.result).toEqual(plain.result)
    expect(ahead.inputs).toEqual(plain.inputs)
    expect(ahead.inputs.length).toBe(readdirSync(sample).length)
    expect(ahead.stored).toEqual(plain.stored)
    // no temporary file of either process is left
    expect(ahead.stored.filter((f) => f.endsWith(".tmp"))).toEqual([])
  }, 120_000)

  it("recognises each file once, half of them in a child process; an unrecognised file still rejects the collect naming it", async () => {
    const raw = new FolderRawStore(join(work, "direct-raw"))
    const paths = readdirSync(sample)
      .sort()
      .map((f) => join(sample, f))
    const recognized = await recognizeAhead(twoCores, raw, paths, 0)
    expect(recognized).not.toBeNull()
    expect([...recognized!.keys()].sort()).toEqual(paths)
    expect([...recognized!.values()].every((r) => r.dataSet !== null && r.key !== null)).toBe(true)

    const inbox = join(work, "inbox")
    mkdirSync(inbox)
    for (const f of readdirSync(sample).slice(0, 20)) copyFileSync(join(sample, f), join(inbox, f))
    writeFileSync(join(inbox, "0000_notes.txt"), "nothing CMF publishes\n")
    const rejected = await collectInto("rejected", inbox, 0)
    expect(rejected.result._tag).toBe("Failure")
    expect(JSON.stringify(rejected.result)).toContain("0000_notes.txt")
    // it was stored (for inspection), as on one thread
    expect(rejected.stored.length).toBeGreaterThan(0)
  }, 120_000)

  it("does not run below its byte floor, for fewer than two files, or when turned off", async () => {
    const raw = new FolderRawStore(join(work, "off-raw"))
    const paths = readdirSync(sample).map((f) => join(sample, f))
    expect(await recognizeAhead(twoCores, raw, paths, Number.MAX_SAFE_INTEGER)).toBeNull()
    expect(await recognizeAhead(twoCores, raw, paths.slice(0, 1), 0)).toBeNull()
    // FDS_PARSE_AHEAD=0, read through Config: everything on this thread
    const off = Effect.runSync(offloadSetting.parse(envProvider({ FDS_PARSE_AHEAD: "0" })))
    expect(await recognizeAhead(off, raw, paths, 0)).toBeNull()
  })
})
