/**
 * Settings checked at start (`node api/main.ts serve` and `config check`, what ./fds runs): a bad
 * value stops the server before it listens with one line naming the variable, the value (`***`
 * for a secret) and what it accepts, exit 2; `config check` prints the effective settings with
 * secrets as ***; secrets can come from `<NAME>_FILE`.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { main, root } from "../replicas/support/replica.ts"

const dir = mkdtempSync(join(tmpdir(), "fds-settings-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
/** A data folder that is a file: refused at start (it failed after listening, with a stack trace). */
const aFile = join(dir, "a-file")
writeFileSync(aFile, "not a folder")

/** Runs `node api/main.ts <args>` with `env`: exit code, stdout, stderr. */
const run = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  promisify(execFile)(process.execPath, [main, ...args], { cwd: root, env: { ...process.env, FDS_DATA_DIR: dir, PORT: "0", ...env }, timeout: 30_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  )

describe("settings validated at start", () => {
  it.each([
    ["PORT", "notaport", "fds: PORT=notaport is not valid: a whole number from 0 to 65535 (0: any free port)"],
    ["FDS_RATE_LIMIT_PER_SECOND", "abc", "fds: FDS_RATE_LIMIT_PER_SECOND=abc is not valid: requests per second per address, a number ≥ 0 (0: no limit)"],
    ["FDS_STALE_AFTER_HOURS", "xyz", "fds: FDS_STALE_AFTER_HOURS=xyz is not valid: hours, a number > 0"],
    ["FDS_DRAIN_SECONDS", "-1", "fds: FDS_DRAIN_SECONDS=-1 is not valid"],
    ["FDS_METRICS_ALLOW", "10.0.0.0/99", "fds: FDS_METRICS_ALLOW=10.0.0.0/99 is not valid: comma-separated addresses or CIDR networks"],
    // a drain longer than a 32-bit timer was cut to 1 ms
    ["FDS_DRAIN_SECONDS", "99999999", "fds: FDS_DRAIN_SECONDS=99999999 is not valid: seconds from 0 to 3600"],
    ["FDS_FLEET_ROLE", "leader", "fds: FDS_FLEET_ROLE=leader is not valid: primary or replica"],
    // anything but on or off joined the fleet
    ["FDS_FLEET", "no", "fds: FDS_FLEET=no is not valid: on or off"],
    ["FDS_FLEET_HEARTBEAT_MS", "0", "fds: FDS_FLEET_HEARTBEAT_MS=0 is not valid: a whole number of ms from 50 to 60000"],
    ["FDS_FLEET_SWITCH_TIMEOUT_SECONDS", "-5", "fds: FDS_FLEET_SWITCH_TIMEOUT_SECONDS=-5 is not valid: seconds from 1 to 3600"],
    ["FDS_DATA_DIR", aFile, `fds: FDS_DATA_DIR=${aFile} is not valid: a folder (one that does not exist yet is made)`],
  ])("serve stops before listening on %s=%s, naming it", async (name, value, line) => {
    const { code, stderr } = await run(["serve"], { [name]: value })
    expect(code).toBe(2)
    expect(stderr).toContain(line)
    expect(stderr).not.toContain("Listening")
    expect(stderr).not.toContain("ConfigError")
  })

  it("a bad secret is named, never printed", async () => {
    const { code, stderr } = await run(["serve"], { FDS_ACCOUNTS_URL: "mysql://admin:hunter2-secret@db/x" })
    expect(code).toBe(2)
    expect(stderr).toContain("fds: FDS_ACCOUNTS_URL=*** is not valid: a postgres:// or postgresql:// URL")
    expect(stderr).not.toContain("hunter2")
  })

  it("config check prints the effective settings, secrets as ***, and exits 2 on a bad one", async () => {
    const secretFile = join(dir, "secret")
    writeFileSync(secretFile, "a-service-secret-of-at-least-32-bytes-long\n")
    const ok = await run(["config", "check"], { FDS_SECRET_FILE: secretFile, FDS_DRAIN_SECONDS: "12", PORT: "9090" })
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain("PORT=9090\n")
    expect(ok.stdout).toContain("FDS_DRAIN_SECONDS=12\n")
    expect(ok.stdout).toContain("FDS_SECRET=***\n")
    expect(ok.stdout).toContain("FDS_RATE_LIMIT_PER_SECOND=10  (default)")
    expect(ok.stdout).not.toContain("a-service-secret")
    const bad = await run(["config", "check"], { PORT: "70000" })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("fds: PORT=70000 is not valid")
    const missing = await run(["config", "check"], { FDS_ACCOUNTS_URL_FILE: join(dir, "nowhere") })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(`fds: FDS_ACCOUNTS_URL_FILE=${join(dir, "nowhere")} is not valid: a readable file (ENOENT)`)
    // a device or a FIFO is no secret file: refused at once (a read of /dev/zero grew to gigabytes, a FIFO blocked for ever)
    const began = performance.now()
    const device = await run(["config", "check"], { FDS_SECRET_FILE: "/dev/zero" })
    expect(device.code).toBe(2)
    expect(device.stderr).toContain("fds: FDS_SECRET_FILE=/dev/zero is not valid: a regular file (not a device, FIFO or folder)")
    const fifo = join(dir, "fifo")
    await promisify(execFile)("mkfifo", [fifo])
    const blocked = await run(["config", "check"], { FDS_SECRET_FILE: fifo })
    expect(blocked.code).toBe(2)
    expect(blocked.stderr).toContain("a regular file (not a device, FIFO or folder)")
    expect(performance.now() - began).toBeLessThan(25_000)
    const huge = join(dir, "huge")
    writeFileSync(huge, "x".repeat(70 * 1024))
    const tooBig = await run(["config", "check"], { FDS_SECRET_FILE: huge })
    expect(tooBig.code).toBe(2)
    expect(tooBig.stderr).toContain("a file of at most 65536 bytes")
    const both = await run(["config", "check"], { FDS_SECRET: "x".repeat(40), FDS_SECRET_FILE: secretFile })
    expect(both.code).toBe(2)
    expect(both.stderr).toContain("not both FDS_SECRET and FDS_SECRET_FILE")
  })
})
