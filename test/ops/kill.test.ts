/**
 * The pipeline killed (SIGKILL) at each stage of a run: `node pipeline/main.ts pipeline run` as a
 * child process on a small real sample, killed at an exact moment by the crash preload (or from
 * outside when the build's temporary file appears). After each kill nothing is half published
 * (CURRENT names the previous complete snapshot, or the new complete one if the kill came after
 * its rename; every file under a final name is complete), the API serves what CURRENT names, and
 * reports the run killed (STATUS.json still says `running`, its process gone), and the next run
 * says so, recovers (takes over the dead run's lock, sweeps its leftovers) and publishes.
 */
import { createPublicKey, verify } from "node:crypto"
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { get, startServer } from "../support/server.ts"
import { type CliOptions, expectNothingHalfPublished, type SnapshotsState, ledgerRows, readStatusFile, runCli, writeMiniSample } from "./support/ops.ts"

process.env.FDS_STALE_AFTER_HOURS = "1000000" // /health must not depend on today's date here

let work: string
let mini: string
let template: string
let previous: string
let cases = 0

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-kill-"))
  ;({ mini } = await writeMiniSample(join(work, "mini")))
  template = join(work, "template")
  const first = await runCli(template, ["pipeline", "run", "--source", mini, "--date", "2026-11-19"])
  expect(first.stdout).toMatch(/^published 2026-11-19: /)
  previous = expectNothingHalfPublished(template).current!
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A copy of the data folder with 2026-11-19 published (or an empty one). */
const dataDirFor = (fresh: boolean): string => {
  const dir = join(work, `case-${++cases}`)
  if (!fresh) cpSync(template, dir, { recursive: true })
  return dir
}

const healthOf = async (dataDir: string): Promise<{ status: string; last_scraped_date: string | null; reasons: string[] }> => {
  const server = await startServer({ dataDir })
  try {
    const res = await get(server.url + "/health")
    const body = res.body as { status: string; last_scraped_date: string | null; reasons: string[] }
    // HTTP 503 exactly when nothing can be served (api/system/Readiness.ts)
    expect(res.status).toBe(body.status === "unavailable" ? 503 : 200)
    return body
  } finally {
    await server.close()
  }
}

/** Kills a run as `crash` says, checks the wreck, then checks that the next run recovers. */
const killThenRecover = async (options: {
  readonly fresh?: boolean
  readonly crash?: CliOptions["crash"]
  readonly onSpawn?: CliOptions["onSpawn"]
  /** CURRENT after the kill: "previous", "new" (2026-11-20) or null. */
  readonly expectCurrent: "previous" | "new" | null
  readonly recovery: "published" | "unchanged"
  /** What the kill left behind, proving it came at the intended moment. */
  readonly wreck?: (state: SnapshotsState, dataDir: string) => void
}) => {
  const dataDir = dataDirFor(options.fresh === true)
  const killed = await runCli(dataDir, ["pipeline", "run", "--source", mini], {
    ...(options.crash === undefined ? {} : { crash: options.crash }),
    ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }),
  })
  expect(killed.signal, `killed run: ${killed.stdout}${killed.stderr}`).toBe("SIGKILL")
  expect(existsSync(join(dataDir, "pipeline.lock")), "the dead run's lock stays behind").toBe(true)

  const wreck = expectNothingHalfPublished(dataDir)
  if (options.expectCurrent === null) expect(wreck.current).toBeNull()
  else if (options.expectCurrent === "previous") expect(wreck.current).toBe(previous)
  else expect(wreck.current).toMatch(/^2026-11-20-/)
  options.wreck?.(wreck, dataDir)
  const health = await healthOf(dataDir)
  // the dead run's `running` is reported: killed (nothing served: unavailable says more)
  expect(readStatusFile(dataDir)).toMatchObject({ outcome: "running", finished_at: null })
  expect(health.status).toBe(wreck.current === null ? "unavailable" : "degraded")
  if (wreck.current !== null) expect(health.reasons).toEqual([expect.stringContaining("was killed before it finished")])
  expect(health.last_scraped_date).toBe(wreck.current?.slice(0, 10) ?? null)

  const next = await runCli(dataDir, ["pipeline", "run", "--source", mini])
  expect(next.code, next.stderr).toBe(0)
  expect(next.stderr).toContain("fds: warning: the previous pipeline run was killed")
  expect(next.stdout).toMatch(options.recovery === "published" ? /^published 2026-11-20: / : /^unchanged: 2026-11-20 is already published/)
  const after = expectNothingHalfPublished(dataDir)
  expect(after.current).toMatch(/^2026-11-20-/)
  expect(after.leftovers).toEqual([])
  expect(after.withManifest).toEqual(after.finals)
  expect(existsSync(join(dataDir, "pipeline.lock"))).toBe(false)
  expect(readStatusFile(dataDir)).toMatchObject({ outcome: options.recovery, batch_date: "2026-11-20", file: after.current })
  const published = ledgerRows(dataDir).filter((r) => r.type === "BatchPublished" && r.payload.file === after.current)
  expect(published).toHaveLength(1)
  expect((await healthOf(dataDir)).last_scraped_date).toBe("2026-11-20")
  // the batch served has its whole release, signed (a kill while it was written left none half made)
  const id = after.current!.replace(/\.sqlite$/, "")
  const snapshots = join(dataDir, "snapshots")
  const release = readFileSync(join(snapshots, `${id}.release.json`))
  const publicKey = createPublicKey(readFileSync(join(snapshots, "release-key.pem")))
  expect(verify(null, release, publicKey, readFileSync(join(snapshots, `${id}.release.sig`)))).toBe(true)
  expect(JSON.parse(release.toString("utf8")).batch_id).toBe(id)
}

const SNAPSHOT = "-[0-9a-f]{16}\\.sqlite$"

describe("the pipeline killed at each stage", () => {
  it("while collecting raw files into an empty data folder: nothing published, the next run publishes", () =>
    killThenRecover({
      fresh: true,
      crash: { fn: "renameSync", when: "after", path: "/raw/[0-9a-f]{2}/[0-9a-f]{64}$", nth: 5 },
      expectCurrent: null,
      recovery: "published",
      wreck: (_state, dataDir) => {
        const types = ledgerRows(dataDir).map((r) => r.type)
        expect(types.length).toBeGreaterThanOrEqual(4) // killed after the 5th raw file, before recording it
        expect(types.every((t) => t === "RawFileObserved")).toBe(true)
      },
    }))

  const leftover = (pattern: RegExp) => (state: SnapshotsState) => expect(state.leftovers.some((n) => pattern.test(n)), state.leftovers.join()).toBe(true)
  const noLeftover = (state: SnapshotsState) => expect(state.leftovers).toEqual([])
  const unmanifested = (state: SnapshotsState) =>
    expect(state.finals.filter((f) => !state.withManifest.includes(f))).toEqual([expect.stringMatching(/^2026-11-20-/)])
  const builtNotPublished = (state: SnapshotsState, dataDir: string) => {
    const rows = ledgerRows(dataDir)
    expect(state.withManifest.some((f) => f.startsWith("2026-11-20-"))).toBe(true)
    expect(rows.some((r) => r.type === "BatchPublished" && r.payload.batch_date === "2026-11-20")).toBe(false)
  }

  it.each([
    ["while parsing (reading the parse cache)", { fn: "readFileSync", when: "after", path: "/cache/cartola", nth: 3 }, "previous", "published", noLeftover],
    ["with the snapshot complete under its temporary name", { fn: "renameSync", when: "before", path: SNAPSHOT }, "previous", "published", leftover(/^\.build-.*\.sqlite\.tmp$/)],
    ["right after the snapshot's rename, before its manifest", { fn: "renameSync", when: "after", path: SNAPSHOT }, "previous", "published", unmanifested],
    ["with the manifest under its temporary name", { fn: "renameSync", when: "before", path: "\\.manifest\\.json$" }, "previous", "published", leftover(/\.manifest\.json\.\d+\.tmp$/)],
    ["after the manifest, before BatchBuilt and CURRENT", { fn: "renameSync", when: "after", path: "\\.manifest\\.json$" }, "previous", "published", builtNotPublished],
    ["with the release manifest written, before its signature", { fn: "renameSync", when: "before", path: "\\.release\\.sig$" }, "previous", "published", leftover(/\.release\.sig\.\d+\.tmp$/)],
    ["with CURRENT.tmp written, before its rename", { fn: "renameSync", when: "before", path: "/CURRENT$" }, "previous", "published", leftover(/^CURRENT\.\d+\.tmp$/)],
    ["after CURRENT's rename, before BatchPublished", { fn: "renameSync", when: "after", path: "/CURRENT$" }, "new", "published", builtNotPublished],
    // the second STATUS.json: the first marks the run running, before it works
    ["after publishing, before STATUS.json", { fn: "renameSync", when: "before", path: "STATUS\\.json$", nth: 2 }, "new", "unchanged", leftover(/^STATUS\.json\.\d+\.tmp$/)],
  ] as const)("%s", (_name, crash, expectCurrent, recovery, wreck) => killThenRecover({ crash, expectCurrent, recovery, wreck }))

  it("from outside, while the build's temporary file is being written", async () => {
    let seen = false
    await killThenRecover({
      onSpawn: (child) => {
        const dir = join(work, `case-${cases}`, "snapshots")
        const poll = setInterval(() => {
          if (existsSync(dir) && readdirSync(dir).some((n) => n.startsWith(".build-") && n.endsWith(".sqlite.tmp"))) {
            seen = true
            child.kill("SIGKILL")
          }
        }, 2)
        child.on("close", () => clearInterval(poll))
      },
      expectCurrent: "previous",
      recovery: "published",
      wreck: (state) => expect(state.leftovers.some((n) => n.startsWith(".build-"))).toBe(true),
    })
    expect(seen, "the build's temporary file was seen before the kill").toBe(true)
  })
})
