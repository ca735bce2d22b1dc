/**
 * The fleet's settings and the secrets from files, read through a ConfigProvider: defaults, a bad
 * value named, the accounts URL never in a message, and `<NAME>_FILE` as `<NAME>` for every reader.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Config, ConfigProvider, Effect, Redacted } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { fleetSettings } from "../../api/snapshot/FleetSettings.ts"
import { withSecretFiles } from "../../api/system/Settings.ts"

const URL = "postgres://fds:hunter2@db.example.cl/fds"
const read = (env: Record<string, string>) => Effect.runSync(Effect.result(fleetSettings.parse(ConfigProvider.fromUnknown(env))))

describe("fleetSettings (Config)", () => {
  it("null without FDS_ACCOUNTS_URL or with FDS_FLEET=off; else the documented defaults", () => {
    expect(read({})).toMatchObject({ _tag: "Success", success: null })
    expect(read({ FDS_ACCOUNTS_URL: URL, FDS_FLEET: "off", FDS_FLEET_ROLE: "leader" })).toMatchObject({ _tag: "Success", success: null })
    expect(read({ FDS_ACCOUNTS_URL: URL })).toMatchObject({
      _tag: "Success",
      success: { url: URL, role: "replica", switchTimeoutSeconds: 60, heartbeatMillis: 1000, liveSeconds: 5 },
    })
    expect(read({ FDS_ACCOUNTS_URL: URL, FDS_FLEET_ROLE: "primary", FDS_FLEET_HEARTBEAT_MS: "200" })).toMatchObject({
      _tag: "Success",
      success: { role: "primary", heartbeatMillis: 200, liveSeconds: 3 },
    })
  })

  it("a bad value fails naming the variable, and never says the accounts URL", () => {
    const message = (env: Record<string, string>) => {
      const r = read({ FDS_ACCOUNTS_URL: URL, ...env })
      if (r._tag === "Success") throw new Error("expected a configuration error")
      expect(String(r.failure)).not.toContain("hunter2")
      return r.failure.cause.message
    }
    expect(message({ FDS_FLEET: "no" })).toBe('FDS_FLEET must be on or off, got "no"')
    expect(message({ FDS_FLEET_ROLE: "leader" })).toBe('FDS_FLEET_ROLE must be primary or replica, got "leader"')
    expect(message({ FDS_FLEET_SWITCH_TIMEOUT_SECONDS: "-5" })).toBe('FDS_FLEET_SWITCH_TIMEOUT_SECONDS must be a number of seconds from 1 to 3600, got "-5"')
    expect(message({ FDS_FLEET_HEARTBEAT_MS: "0" })).toBe('FDS_FLEET_HEARTBEAT_MS must be a whole number of milliseconds from 50 to 60000, got "0"')
  })
})

describe("withSecretFiles", () => {
  const dir = mkdtempSync(join(tmpdir(), "fds-secret-files-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, "accounts-url")
  writeFileSync(file, `${URL}\n`)
  const under = <A, E>(env: Record<string, string>, effect: Effect.Effect<A, E>) =>
    Effect.runSync(Effect.result(effect.pipe(Effect.provideServiceEffect(ConfigProvider.ConfigProvider, withSecretFiles), Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromUnknown(env)))))

  it("gives every reader <NAME>_FILE's content (less its final newline) as <NAME>, the other settings as before", () => {
    const r = under({ FDS_ACCOUNTS_URL_FILE: file, FDS_FLEET_ROLE: "primary" }, fleetSettings)
    expect(r).toMatchObject({ _tag: "Success", success: { url: URL, role: "primary" } })
    const secret = under({ FDS_ACCOUNTS_URL_FILE: file }, Config.Redacted("FDS_ACCOUNTS_URL"))
    expect(secret._tag === "Success" && Redacted.value(secret.success)).toBe(URL)
  })

  it("refuses both a variable and its _FILE, and a file it cannot read, naming <NAME>_FILE", () => {
    const both = under({ FDS_ACCOUNTS_URL_FILE: file, FDS_ACCOUNTS_URL: URL }, fleetSettings)
    expect(both._tag === "Failure" && both.failure.message).toBe(`FDS_ACCOUNTS_URL_FILE=${file} is not valid: not both FDS_ACCOUNTS_URL and FDS_ACCOUNTS_URL_FILE`)
    const missing = under({ FDS_SECRET_FILE: join(dir, "nowhere") }, fleetSettings)
    expect(missing._tag === "Failure" && missing.failure.message).toBe(`FDS_SECRET_FILE=${join(dir, "nowhere")} is not valid: a readable file (ENOENT)`)
  })
})
