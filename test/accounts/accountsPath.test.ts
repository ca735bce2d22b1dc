/**
 * FDS_ACCOUNTS_PATH puts the SQLite accounts store outside the data folder (a full data disk then
 * leaves the keyed routes alone): `./fds serve` creates it there (0600, its folder too), `./fds
 * keys` and `./fds alerts send` use the same file, and no accounts.sqlite appears in FDS_DATA_DIR.
 * Real processes on a data folder the pipeline published into.
 */
import Database from "better-sqlite3"
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runCli, writeMiniSample } from "../ops/support/ops.ts"
import { main, type Replica, root, startReplica, stopReplica } from "../replicas/support/replica.ts"
import { call } from "./support/accountsServer.ts"

const DATA = "/api/asset_providers"
const opsMain = join(root, "ops", "main.ts")

describe("FDS_ACCOUNTS_PATH: the accounts store outside the data folder", () => {
  let work = ""
  let dataDir = ""
  let accountsPath = ""
  let env: Record<string, string> = {}
  let replica: Replica | undefined

  const run = async (script: string, args: ReadonlyArray<string>) => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, ...args], {
        cwd: root,
        env: { ...process.env, ...env },
        timeout: 30_000,
      })
      return { code: 0, stdout, stderr }
    } catch (e) {
      const failed = e as { code?: number; stdout?: string; stderr?: string }
      return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" }
    }
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "fds-accounts-path-"))
    const { mini } = await writeMiniSample(join(work, "mini"))
    dataDir = join(work, "data")
    const published = await runCli(dataDir, ["pipeline", "run", "--source", mini, "--date", "2026-11-19"])
    expect(published.stdout, published.stderr).toMatch(/^published 2026-11-19: /)
    // a folder that does not exist yet, on what would be another volume
    accountsPath = join(work, "accounts-volume", "fds", "accounts.sqlite")
    env = { FDS_DATA_DIR: dataDir, FDS_ACCOUNTS_PATH: accountsPath, FDS_RATE_LIMIT_PER_SECOND: "0" }
  })
  afterAll(async () => {
    await stopReplica(replica)
    rmSync(work, { recursive: true, force: true })
    rmSync(`${work}-full`, { recursive: true, force: true })
  })

  it("serve creates the file there (0600), not in the data folder; a key made by `keys create` under the same setting works against it", async () => {
    replica = await startReplica(env)
    expect(existsSync(accountsPath), "the accounts file at FDS_ACCOUNTS_PATH").toBe(true)
    expect(statSync(accountsPath).mode & 0o777).toBe(0o600)
    expect(existsSync(join(dataDir, "accounts.sqlite")), "no accounts file in the data folder").toBe(false)

    const created = await run(main, ["keys", "create", "--email", "elsewhere@example.cl"])
    expect(created.code, created.stderr).toBe(0)
    const key = created.stdout.trim()
    const reply = await call(replica.url + DATA, { headers: { "x-api-key": key } })
    expect(reply.status, reply.text).toBe(200)
    const info = await call(`${replica.url}/api/key/info`, { headers: { "x-api-key": key } })
    expect(info.body).toMatchObject({ requests_today: 1 })
    const usage = await run(main, ["keys", "usage", key.slice(4, 12), "--days", "1"])
    expect(usage.stdout.trim().split("\n")[1]?.split(/\s+/).at(-1)).toBe("1")
    expect(existsSync(join(dataDir, "accounts.sqlite"))).toBe(false)
  })

  it("`alerts send` claims its rounds in the same file, and creates none in the data folder", async () => {
    const sent = await run(opsMain, ["alerts", "send"])
    expect(sent.code, sent.stderr).toBe(0)
    expect(sent.stdout).toContain("alert mails of the batch of 2026-11-19")
    expect(existsSync(join(dataDir, "accounts.sqlite"))).toBe(false)
    const db = new Database(accountsPath, { readonly: true })
    try {
      const rounds = db.prepare("SELECT kind, batch_date FROM alert_rounds").all()
      expect(rounds.length).toBeGreaterThan(0)
    } finally {
      db.close()
    }
  })
})
