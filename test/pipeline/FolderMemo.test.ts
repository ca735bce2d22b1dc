/**
 * The folder source's memo (pipeline/FolderMemo.ts): a file whose stat stamp is unchanged is not
 * read again, and any change of content — even one that keeps the size and puts the old
 * modification time back — or a raw copy gone from the store makes the file be read again.
 */
import { Effect } from "effect"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { collectFolder } from "../../pipeline/Collect.ts"
import { FolderMemo } from "../../pipeline/FolderMemo.ts"
import { SqliteLedger } from "../../pipeline/ledger/Ledger.ts"
import { FolderRawStore, sha256 } from "../../pipeline/RawStore.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"

let work: string
let inbox: string
let ledger: SqliteLedger
let raw: FolderRawStore
const memoPath = () => join(work, "cache", "folder-v1.json")
/** Files remembered however recently written (the tests write them just before). */
const collect = (settleMillis = 0) => Effect.runPromise(collectFolder(ledger, raw, inbox, new FolderMemo(memoPath(), { settleMillis })))
const remembered = (): string[] => (JSON.parse(readFileSync(memoPath(), "utf8")) as Array<[string, unknown]>).map(([path]) => path).sort()

beforeEach(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-memo-"))
  inbox = join(work, "inbox")
  mkdirSync(inbox)
  const sample = join(work, "sample")
  await writeSample({ out: sample, scale: "small", seed: 3, endDate: "2026-11-20" })
  for (const f of ["fm_ident2.txt", "ffmm_todos_20261101_20261120.txt"]) copyFileSync(join(sample, f), join(inbox, f))
  ledger = new SqliteLedger(join(work, "ledger.sqlite"))
  raw = new FolderRawStore(join(work, "raw"))
})
afterEach(() => {
  ledger.close()
  rmSync(work, { recursive: true, force: true })
})

describe("the folder memo", () => {
  it("gives the same observations on a second run, with nothing new for the ledger", async () => {
    const first = await collect()
    expect(first.appended).toBe(2)
    const second = await collect()
    expect(second.appended).toBe(0)
    expect(second.observed).toEqual(first.observed)
    expect(second.observed.map((o) => o.sha256)).toEqual(
      ["ffmm_todos_20261101_20261120.txt", "fm_ident2.txt"].map((f) => sha256(readFileSync(join(inbox, f)))),
    )
  })

  it("reads a file again when its content changed, even with the same size and the old modification time", async () => {
    const file = join(inbox, "ffmm_todos_20261101_20261120.txt")
    // A whole-second modification time, so that it can be put back exactly after the write.
    const noon = new Date("2026-11-20T15:00:00Z")
    utimesSync(file, noon, noon)
    await collect()
    const before = statSync(file, { bigint: true })
    const bytes = readFileSync(file)
    // Same length: one digit of a quota value changed.
    const at = bytes.indexOf(0x35) // a "5"
    bytes[at] = 0x36
    writeFileSync(file, bytes)
    utimesSync(file, noon, noon)
    const after = statSync(file, { bigint: true })
    expect(after.size).toBe(before.size)
    expect(after.mtimeNs).toBe(before.mtimeNs)
    expect(after.ino).toBe(before.ino)
    const again = await collect()
    const cartola = again.observed.find((o) => o.name === "ffmm_todos_20261101_20261120.txt")!
    expect(cartola.sha256).toBe(sha256(bytes))
    expect(again.appended).toBe(1)
  })

  it("reads a file again when its raw copy is no longer stored, and stores it again", async () => {
    const first = await collect()
    const registry = first.observed.find((o) => o.name === "fm_ident2.txt")!
    rmSync(raw.pathOf(registry.sha256))
    await collect()
    expect(raw.has(registry.sha256)).toBe(true)
    expect(sha256(raw.get(registry.sha256))).toBe(registry.sha256)
  })

  it("does not remember a file changed within the settle time of its reading (a same-size rewrite in that tick would keep its stamp)", async () => {
    await collect(60_000)
    expect(remembered()).toEqual([])
    await collect(0)
    expect(remembered()).toEqual([join(inbox, "ffmm_todos_20261101_20261120.txt"), join(inbox, "fm_ident2.txt")])
  })

  it("a damaged memo is an empty one", async () => {
    await collect()
    writeFileSync(memoPath(), "{not json")
    const again = await collect()
    expect(again.observed).toHaveLength(2)
    expect(again.appended).toBe(0)
  })
})
