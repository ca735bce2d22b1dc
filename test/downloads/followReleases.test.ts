/**
 * `./fds follow` copies each batch's signed release beside the batch (ops/FollowRelease.ts): a
 * primary API (`serve`, a real process) on two batches the real pipeline CLI published, a
 * follower (the command, one poll at a time) into a replica's data folder, and a replica API on
 * it. The replica then holds the primary's release, signature, public key and build manifest byte
 * for byte, serves the release routes, and `fds verify --from <replica> --pubkey <primary's key>`
 * holds over the whole chain. A release whose signature does not verify is not copied (the batch
 * is followed all the same, a warning names the release).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { followCommand } from "../../ops/FollowCommand.ts"
import { verifyCommand } from "../../ops/VerifyCommand.ts"
import { envProvider } from "../../pipeline/Settings.ts"
import { runCli, writeMiniSample } from "../ops/support/ops.ts"
import { type Replica, startReplica, stopReplica } from "../replicas/support/replica.ts"
import { createKey, waitFor } from "../support/server.ts"

const env = { FDS_STALE_AFTER_HOURS: "1000000", FDS_RATE_LIMIT_PER_SECOND: "0" }

const work = mkdtempSync(join(tmpdir(), "fds-follow-releases-"))
const primaryDir = join(work, "primary")
const replicaDir = join(work, "replica")
const primarySnapshots = join(primaryDir, "snapshots")
const replicaSnapshots = join(replicaDir, "snapshots")
let mini: string
let primary: Replica
let primaryKey: string
const ids: string[] = []
const logged: Array<{ level: string; msg: string; fields: Record<string, unknown> }> = []

const publish = async (date: string): Promise<string> => {
  const r = await runCli(primaryDir, ["pipeline", "run", "--source", mini, "--date", date], { env })
  expect(r.code, r.stderr).toBe(0)
  const id = readFileSync(join(primarySnapshots, "CURRENT"), "utf8").trim().replace(/\.sqlite$/, "")
  ids.push(id)
  return id
}

/** Until the primary's API serves `id` (it swaps to what CURRENT names by itself). */
const primaryServes = (id: string) =>
  waitFor(async () => ((await (await fetch(`${primary.url}/health`)).json()) as { batch_id?: string }).batch_id === id, 30_000, 100)

/** One poll of `./fds follow --from <primary> --once` into the replica's folder. */
const followOnce = () =>
  followCommand(["--from", primary.url, "--once"], envProvider({ ...env, FDS_DATA_DIR: replicaDir, FDS_FOLLOW_KEY: primaryKey }), (level, msg, fields) =>
    logged.push({ level, msg, fields: { ...fields } }),
  )

const sameBytes = (name: string) => expect(readFileSync(join(replicaSnapshots, name)).equals(readFileSync(join(primarySnapshots, name))), name).toBe(true)

beforeAll(async () => {
  mini = (await writeMiniSample(join(work, "mini"))).mini
  await publish("2026-11-19")
  primary = await startReplica({ ...env, FDS_DATA_DIR: primaryDir })
  primaryKey = (await createKey(primaryDir, { email: "replica@example.cl", tier: "internal" })).key
}, 120_000)
afterAll(async () => {
  await stopReplica(primary)
  rmSync(work, { recursive: true, force: true })
})

describe("./fds follow copies the releases", () => {
  it("the replica keeps each batch's release, signature, public key and build manifest, byte for byte, and fds verify holds against it", async () => {
    expect(await followOnce()).toBe(0)
    expect(await primaryServes(await publish("2026-11-20"))).toBe(true)
    expect(await followOnce()).toBe(0)
    for (const id of ids) {
      for (const name of [`${id}.release.json`, `${id}.release.sig`, `${id}.manifest.json`, `${id}.sqlite`]) sameBytes(name)
      // the Parquet files the release lists, copied too
      const parquet = readdirSync(join(primarySnapshots, `${id}.parquet`))
      expect(parquet.length).toBeGreaterThan(0)
      for (const file of parquet) sameBytes(`${id}.parquet/${file}`)
    }
    sameBytes("release-key.pem")
    expect(logged.filter((l) => l.msg === "release copied").map((l) => l.fields.batch)).toEqual(ids)

    const replica = await startReplica({ ...env, FDS_DATA_DIR: replicaDir })
    try {
      const readerKey = (await createKey(replicaDir, { email: "reader@example.cl", tier: "internal" })).key
      const pubkey = join(work, "primary-key.pem")
      writeFileSync(pubkey, readFileSync(join(primarySnapshots, "release-key.pem")))
      let out = ""
      const log = vi.spyOn(console, "log").mockImplementation((line: unknown) => {
        out += `${String(line)}\n`
      })
      const error = vi.spyOn(console, "error").mockImplementation((line: unknown) => {
        out += `${String(line)}\n`
      })
      let code: number
      try {
        code = await verifyCommand(["--from", replica.url, "--key", readerKey, "--pubkey", pubkey])
      } finally {
        log.mockRestore()
        error.mockRestore()
      }
      expect(code, out).toBe(0)
      expect(out).toContain(`verified: ${ids[1]} and its files; the chain back to ${ids[0]} (2 release(s))`)
    } finally {
      await stopReplica(replica)
    }
  }, 90_000)

  it("a release whose signature does not verify is not copied; the batch is followed all the same", async () => {
    const id = ids[1]!
    // the replica lost the batch's files: the next poll fetches them again, from a primary whose signature was altered
    for (const name of [`${id}.sqlite`, `${id}.manifest.json`, `${id}.release.json`, `${id}.release.sig`]) rmSync(join(replicaSnapshots, name))
    const sigPath = join(primarySnapshots, `${id}.release.sig`)
    const good = readFileSync(sigPath)
    const bad = Buffer.from(good)
    bad[0] = bad[0]! ^ 0xff
    writeFileSync(sigPath, bad)
    try {
      expect(await followOnce()).toBe(0)
    } finally {
      writeFileSync(sigPath, good)
    }
    expect(existsSync(join(replicaSnapshots, `${id}.sqlite`))).toBe(true)
    expect(readFileSync(join(replicaSnapshots, "CURRENT"), "utf8").trim()).toBe(`${id}.sqlite`)
    expect(existsSync(join(replicaSnapshots, `${id}.release.json`))).toBe(false)
    expect(existsSync(join(replicaSnapshots, `${id}.release.sig`))).toBe(false)
    const warning = logged.find((l) => l.msg === "the batch's release is not copied; the batch is followed without it")
    expect(warning?.fields).toMatchObject({ batch: id, error: expect.stringContaining(`release ${id}: the signature does not verify`) })
  }, 60_000)
})
