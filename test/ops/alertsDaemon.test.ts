/**
 * The daemon's afterPublish hook (where ops/main.ts sends the alert mails), with the real
 * pipeline on a small sample, ticking every second in-process: the hook runs once after each run
 * that published, never after an unchanged or rejected one; a hook that throws is logged as an
 * error and the daemon goes on; stopping the daemon aborts a hook in progress through its signal.
 */
import { copyFileSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Daemon, type Published, startDaemon } from "../../pipeline/daemon/Daemon.ts"
import { waitFor } from "../support/server.ts"
import { writeMiniSample } from "./support/ops.ts"

interface LogLine {
  readonly level: string
  readonly msg: string
  readonly [key: string]: unknown
}

let work: string
let full: string
let source: string
let daemon: Daemon | null = null

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-after-publish-"))
  const sample = await writeMiniSample(join(work, "mini"))
  source = sample.mini
  full = sample.full
})
afterAll(async () => {
  await daemon?.stop()
  rmSync(work, { recursive: true, force: true })
})

describe("pipeline daemon: afterPublish", () => {
  it("runs after a published run only; its failure is logged and the daemon goes on; stop aborts it", async () => {
    const lines: LogLine[] = []
    const calls: Array<{ readonly published: Published; readonly signal: AbortSignal }> = []
    let behaviour: "fields" | "throw" | "hang" = "fields"
    daemon = startDaemon({
      cron: "* * * * * *",
      retry: { retries: 0, baseMillis: 10 },
      runOptions: () => ({
        dataDir: join(work, "data"),
        sources: [{ kind: "folder", path: source }],
        today: "2026-11-22",
        historyStart: "2026-01-01",
        fetch: { timeoutMillis: 2000, retries: 0, retryBaseMillis: 10 },
      }),
      log: (level, msg, fields = {}) => lines.push({ level, msg, ...fields }),
      afterPublish: async (published, signal) => {
        calls.push({ published, signal })
        if (behaviour === "throw") throw new Error("SMTP said no")
        if (behaviour === "hang") await new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted"))))
        return { mails: 3 }
      },
    })
    const finished = (outcome: string, after = 0) => lines.findIndex((l, i) => i > after && l.msg === "run finished" && l.outcome === outcome)
    const until = async (index: () => number) => {
      expect(await waitFor(async () => index() >= 0, 30_000, 20), JSON.stringify(lines.slice(-5))).toBe(true)
      return index()
    }

    // 1. Published: the hook runs once with the outcome, and its fields are logged.
    const published = await until(() => finished("published"))
    expect(await waitFor(async () => lines.some((l) => l.msg === "after publish finished"), 10_000, 20)).toBe(true)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.published).toMatchObject({ outcome: "published", batchDate: "2026-11-20", file: lines[published]!.file })
    expect(lines.find((l) => l.msg === "after publish finished")).toMatchObject({ level: "info", run: lines[published]!.run, batch_date: "2026-11-20", mails: 3 })

    // 2. Nothing new: unchanged, no hook.
    const unchanged = await until(() => finished("unchanged", published))
    // 3. A file that matches no data set: rejected, no hook.
    writeFileSync(join(source, "junk.txt"), "this is not a CMF file\n")
    const rejected = await until(() => finished("rejected", unchanged))
    expect(calls).toHaveLength(1)

    // 4. New TAC data: published again; the hook throws: logged as an error, and the next runs go on.
    unlinkSync(join(source, "junk.txt"))
    behaviour = "throw"
    copyFileSync(join(full, "fm_tac_202610.txt"), join(source, "fm_tac_202610.txt"))
    const again = await until(() => finished("published", rejected))
    const failed = await until(() => lines.findIndex((l, i) => i > again && l.msg === "after publish failed"))
    expect(lines[failed]).toMatchObject({ level: "error", run: lines[again]!.run, reason: "Error: SMTP said no" })
    await until(() => finished("unchanged", failed))
    expect(calls).toHaveLength(2)

    // 5. Published once more, the hook still at work when the daemon stops: aborted, logged as a warning.
    behaviour = "hang"
    copyFileSync(join(full, "fm_tac_202609.txt"), join(source, "fm_tac_202609.txt"))
    await until(() => finished("published", failed))
    expect(await waitFor(async () => calls.length === 3, 10_000, 20)).toBe(true)
    await daemon.stop()
    daemon = null
    expect(calls[2]!.signal.aborted).toBe(true)
    expect(lines.filter((l) => l.msg === "after publish failed").at(-1)).toMatchObject({ level: "warn", reason: "Error: aborted" })
    expect(lines.at(-1)).toMatchObject({ msg: "daemon stopped" })

    // One call per published run.
    expect(lines.filter((l) => l.msg === "run finished" && l.outcome === "published")).toHaveLength(3)
  }, 120_000)
})
