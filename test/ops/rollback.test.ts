/**
 * `pipeline rollback --to D` through the CLI on a real data folder: refused (CURRENT untouched)
 * for a day retention removed (naming `reproduce --restore`), a day never published, bad
 * arguments or a busy data folder; otherwise CURRENT is re-pointed, the ledger records
 * BatchRolledBack, STATUS.json says so and the running API swaps by itself. A later run with
 * unchanged inputs holds the rollback and says so; a roll forward or new CMF files lift it.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { get, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { expectNothingHalfPublished, ledgerRows, readStatusFile, runCli, writeMiniSample } from "./support/ops.ts"

process.env.FDS_STALE_AFTER_HOURS = "1000000"

let work: string
let mini: string
let dataDir: string
let server: RunningServer
const published: Record<string, string> = {}
const env = { FDS_RETENTION_DAYS: "2" } // keeps 11-19 and 11-20 (and month ends), removes 11-18

const current = () => readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim()
const servedDate = async () => ((await get(server.url + "/health")).body as { last_scraped_date: string }).last_scraped_date
const cli = (...args: string[]) => runCli(dataDir, ["pipeline", ...args], { env })

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-rollback-"))
  ;({ mini } = await writeMiniSample(join(work, "mini")))
  dataDir = join(work, "data")
  for (const date of ["2026-11-18", "2026-11-19", "2026-11-20"]) {
    const r = await cli("run", "--source", mini, "--date", date)
    expect(r.stdout).toMatch(new RegExp(`^published ${date}: `))
    published[date] = current()
  }
  server = await startServer({ dataDir, pollMillis: 50 })
})
afterAll(async () => {
  await server?.close()
  rmSync(work, { recursive: true, force: true })
})

describe("pipeline rollback", () => {
  it("refuses a day whose file retention removed, naming reproduce --restore; CURRENT untouched", async () => {
    expect(readdirSync(join(dataDir, "snapshots"))).not.toContain(published["2026-11-18"])
    const r = await cli("rollback", "--to", "2026-11-18")
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`the snapshot of 2026-11-18 (${published["2026-11-18"]}) was removed by retention`)
    expect(r.stderr).toContain("./fds pipeline reproduce --date 2026-11-18 --restore")
    expect(current()).toBe(published["2026-11-20"])
    expect(ledgerRows(dataDir).some((e) => e.type === "BatchRolledBack")).toBe(false)
  })

  it("refuses a day never published, bad arguments, and a data folder another live process holds", async () => {
    const never = await cli("rollback", "--to", "2026-11-17")
    expect([never.code, never.stderr]).toEqual([1, expect.stringContaining("no batch was published for 2026-11-17")])
    expect((await cli("rollback", "--to", "2026-02-30")).code).toBe(2)
    expect((await cli("rollback")).code).toBe(2)
    writeFileSync(join(dataDir, "pipeline.lock"), `${process.pid}\n`) // this test process: alive
    try {
      const busy = await cli("rollback", "--to", "2026-11-19")
      expect([busy.code, busy.stderr]).toEqual([3, expect.stringContaining(`another pipeline process (pid ${process.pid})`)])
      expect((await cli("run", "--source", mini)).code).toBe(3)
    } finally {
      rmSync(join(dataDir, "pipeline.lock"))
    }
    expect(current()).toBe(published["2026-11-20"])
  })

  it("re-points CURRENT, records BatchRolledBack and STATUS.json; the running API swaps by itself", async () => {
    expect(await servedDate()).toBe("2026-11-20")
    const r = await cli("rollback", "--to", "2026-11-19", "--reason", "bad quotas from CMF")
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^rolled back to 2026-11-19: /)
    expect(current()).toBe(published["2026-11-19"])
    expect(expectNothingHalfPublished(dataDir).current).toBe(published["2026-11-19"])
    expect(ledgerRows(dataDir).at(-1)).toMatchObject({
      type: "BatchRolledBack",
      payload: { batch_date: "2026-11-19", file: published["2026-11-19"], from_file: published["2026-11-20"], reason: "bad quotas from CMF" },
    })
    expect(readStatusFile(dataDir)).toMatchObject({ outcome: "rolled_back", batch_date: "2026-11-19", file: published["2026-11-19"] })
    expect(await waitFor(async () => (await servedDate()) === "2026-11-19", 5000)).toBe(true)
    expect(((await get(server.url + "/health")).body as { status: string }).status).toBe("ok")
  })

  it("a later run with unchanged inputs holds the rollback and says so", async () => {
    const events = ledgerRows(dataDir).length
    const r = await cli("run", "--source", mini)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^unchanged: held by the rollback to 2026-11-19 .*no new CMF file since/)
    expect(current()).toBe(published["2026-11-19"])
    expect(ledgerRows(dataDir)).toHaveLength(events)
    expect(readStatusFile(dataDir)).toMatchObject({ outcome: "unchanged", batch_date: "2026-11-19", reason: expect.stringContaining("held by the rollback") })
  })

  it("rolling forward to the newest batch lifts the hold; new CMF files publish again", async () => {
    const forward = await cli("rollback", "--to", "2026-11-20")
    expect(forward.code, forward.stderr).toBe(0)
    expect(current()).toBe(published["2026-11-20"])
    const again = await cli("run", "--source", mini)
    expect(again.stdout).toMatch(/^unchanged: 2026-11-20 is already published/)

    await cli("rollback", "--to", "2026-11-19")
    expect(current()).toBe(published["2026-11-19"])
    // A corrected November file from CMF (one quota of 2026-11-20 differs): new input, new batch.
    const corrected = join(work, "corrected")
    mkdirSync(corrected)
    const name = "ffmm_todos_20261101_20261120.txt"
    const lines = readFileSync(join(mini, name), "latin1").split("\n")
    const i = lines.findIndex((l) => l.split(";")[3] === "20261120")
    const cells = lines[i]!.split(";")
    cells[12] = String(Number(cells[12]!.replace(",", ".")) + 1)
    lines[i] = cells.join(";")
    writeFileSync(join(corrected, name), lines.join("\n"), "latin1")
    copyFileSync(join(mini, "fm_ident2.txt"), join(corrected, "fm_ident2.txt"))
    const fresh = await cli("run", "--source", corrected)
    expect(fresh.code, fresh.stderr).toBe(0)
    expect(fresh.stdout).toMatch(/^published 2026-11-20: /)
    expect(current()).not.toBe(published["2026-11-20"])
    expect(await waitFor(async () => (await servedDate()) === "2026-11-20", 5000)).toBe(true)
  })

  it("a day built twice (a CMF correction): --file picks the earlier build; a file not published for the day is refused", async () => {
    const corrected = current()
    expect(corrected).not.toBe(published["2026-11-20"])
    const latest = await cli("rollback", "--to", "2026-11-20")
    expect(latest.stdout).toContain(`unchanged: CURRENT already names ${corrected}`)
    expect(latest.stdout).toContain(`2026-11-20 has 2 published builds, oldest first: ${published["2026-11-20"]}, ${corrected}; --file chooses one`)
    const wrong = await cli("rollback", "--to", "2026-11-20", "--file", published["2026-11-19"]!)
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain(`${published["2026-11-19"]} was not published for 2026-11-20 (its builds: ${published["2026-11-20"]}, ${corrected})`)
    expect(current()).toBe(corrected)
    // an auditor rebuilds either build of the day from the ledger and the raw store
    const both = [await cli("reproduce", "--date", "2026-11-20", "--file", published["2026-11-20"]!), await cli("reproduce", "--date", "2026-11-20")]
    expect(both.map((r) => [r.code, r.stdout.startsWith("match: ")])).toEqual([[0, true], [0, true]])
    expect(both[0]!.stdout).toContain(published["2026-11-20"]!.slice(11, 27))
    expect(both[1]!.stdout).toContain(corrected.slice(11, 27))
    const notBuilt = await cli("reproduce", "--date", "2026-11-20", "--file", published["2026-11-19"]!)
    expect([notBuilt.code, notBuilt.stderr]).toEqual([1, expect.stringContaining(`${published["2026-11-19"]} was not built for 2026-11-20 (its builds: ${published["2026-11-20"]}, ${corrected})`)])
    const earlier = await cli("rollback", "--to", "2026-11-20", "--file", published["2026-11-20"]!, "--reason", "the correction was wrong")
    expect(earlier.code, earlier.stderr).toBe(0)
    expect(current()).toBe(published["2026-11-20"])
    expect(ledgerRows(dataDir).at(-1)).toMatchObject({
      type: "BatchRolledBack",
      payload: { batch_date: "2026-11-20", file: published["2026-11-20"], from_file: corrected, reason: "the correction was wrong" },
    })
  })

  it("a day restored by reproduce --restore can be rolled back to", async () => {
    const restored = await cli("reproduce", "--date", "2026-11-18", "--restore")
    expect(restored.stdout).toMatch(/^match: .*restored/)
    const r = await cli("rollback", "--to", "2026-11-18")
    expect(r.code, r.stderr).toBe(0)
    expect(current()).toBe(published["2026-11-18"])
    expect(await waitFor(async () => (await servedDate()) === "2026-11-18", 5000)).toBe(true)
  })
})
