/**
 * The release signing key (snapshots/releases/ReleaseKey.ts): FDS_RELEASE_SIGNING_KEY (PEM,
 * redacted), FDS_RELEASE_SIGNING_KEY_FILE, else one generated once into the data folder (0600) and
 * reused; a key that is not Ed25519, or both settings, refused naming the setting, never its text;
 * a key that is not the one earlier releases were signed with, or a generated key file gone while
 * releases exist, refused (never regenerated) unless FDS_RELEASE_NEW_KEY=true.
 */
import { execFile } from "node:child_process"
import { generateKeyPairSync, type KeyObject } from "node:crypto"
import { promisify } from "node:util"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ConfigProvider, Effect, Redacted } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { releaseSigningKey } from "../../snapshots/releases/ReleaseKey.ts"
import { main, root } from "../replicas/support/replica.ts"
import { keyFingerprint, publicKeyPem } from "../../snapshots/releases/Release.ts"

const dir = mkdtempSync(join(tmpdir(), "fds-release-key-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const pemOf = (key: KeyObject) => key.export({ type: "pkcs8", format: "pem" }).toString()

const keyWith = (env: Record<string, string>, dataDir = dir) =>
  Effect.runSync(
    Effect.result(Effect.provideService(releaseSigningKey(dataDir), ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))),
  )

describe("the release signing key", () => {
  it("is generated once into the data folder (0600) and reused", () => {
    const data = mkdtempSync(join(dir, "data-"))
    const first = keyWith({}, data)
    const second = keyWith({}, data)
    if (first._tag !== "Success" || second._tag !== "Success") throw new Error("no key")
    expect(statSync(join(data, "release-signing-key.pem")).mode & 0o777).toBe(0o600)
    expect(publicKeyPem(Redacted.value(first.success))).toBe(publicKeyPem(Redacted.value(second.success)))
    expect(String(first.success)).not.toContain("PRIVATE")
  })

  it("comes from FDS_RELEASE_SIGNING_KEY or FDS_RELEASE_SIGNING_KEY_FILE when set", () => {
    const { privateKey } = generateKeyPairSync("ed25519")
    const inline = keyWith({ FDS_RELEASE_SIGNING_KEY: pemOf(privateKey) })
    if (inline._tag !== "Success") throw new Error("refused")
    expect(publicKeyPem(Redacted.value(inline.success))).toBe(publicKeyPem(privateKey))
    const file = join(dir, "given.pem")
    writeFileSync(file, pemOf(privateKey))
    const fromFile = keyWith({ FDS_RELEASE_SIGNING_KEY_FILE: file })
    if (fromFile._tag !== "Success") throw new Error("refused")
    expect(publicKeyPem(Redacted.value(fromFile.success))).toBe(publicKeyPem(privateKey))
  })

  it("refuses a key that is not Ed25519, a missing file and both settings, naming the setting, never the key", () => {
    const rsa = pemOf(generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey)
    const wrong = keyWith({ FDS_RELEASE_SIGNING_KEY: rsa })
    expect(wrong._tag).toBe("Failure")
    const message = wrong._tag === "Failure" ? String((wrong.failure as { message?: string }).message) : ""
    expect(message).toContain("FDS_RELEASE_SIGNING_KEY holds a rsa key")
    expect(message).not.toContain("PRIVATE KEY")
    const missing = keyWith({ FDS_RELEASE_SIGNING_KEY_FILE: join(dir, "nope.pem") })
    expect(missing._tag === "Failure" ? String((missing.failure as { message?: string }).message) : "").toContain("nope.pem: ENOENT")
    const both = keyWith({ FDS_RELEASE_SIGNING_KEY: rsa, FDS_RELEASE_SIGNING_KEY_FILE: join(dir, "given.pem") })
    expect(both._tag === "Failure" ? String((both.failure as { message?: string }).message) : "").toContain("not both")
    expect(readFileSync(join(dir, "given.pem"), "utf8")).toContain("PRIVATE KEY")
  })
})

describe("a signing key that is not the one earlier releases were signed with", () => {
  const messageOf = (r: ReturnType<typeof keyWith>) => (r._tag === "Failure" ? String((r.failure as { message?: string }).message) : "")
  /** A data folder whose snapshots/ holds the public key of earlier releases, signed with `signer`. */
  const signedBefore = (signer: KeyObject) => {
    const data = mkdtempSync(join(dir, "signed-"))
    mkdirSync(join(data, "snapshots"))
    writeFileSync(join(data, "snapshots", "release-key.pem"), publicKeyPem(signer))
    return data
  }

  it("a lost generated key file is refused, not regenerated, naming the file and FDS_RELEASE_NEW_KEY", () => {
    const earlier = generateKeyPairSync("ed25519").privateKey
    const data = signedBefore(earlier)
    const lost = keyWith({}, data)
    expect(lost._tag).toBe("Failure")
    expect(messageOf(lost)).toContain(`${join(data, "release-signing-key.pem")} is missing, but releases were signed before (key sha256 ${keyFingerprint(earlier)})`)
    expect(messageOf(lost)).toContain("FDS_RELEASE_NEW_KEY=true")
    expect(existsSync(join(data, "release-signing-key.pem"))).toBe(false)
    // releases there without the public key beside them: refused all the same
    rmSync(join(data, "snapshots", "release-key.pem"))
    writeFileSync(join(data, "snapshots", "2026-11-20-0123456789abcdef.release.json"), "{}")
    expect(messageOf(keyWith({}, data))).toContain("is missing, but releases were signed before (key sha256 unknown)")
    // on purpose: a new key is generated
    const started = keyWith({ FDS_RELEASE_NEW_KEY: "true" }, data)
    expect(started._tag).toBe("Success")
    expect(existsSync(join(data, "release-signing-key.pem"))).toBe(true)
  })

  it("another key given or kept is refused; the same key is accepted; FDS_RELEASE_NEW_KEY lets a new one in", () => {
    const earlier = generateKeyPairSync("ed25519").privateKey
    const data = signedBefore(earlier)
    const same = keyWith({ FDS_RELEASE_SIGNING_KEY: pemOf(earlier) }, data)
    expect(same._tag).toBe("Success")
    const other = generateKeyPairSync("ed25519").privateKey
    const refused = keyWith({ FDS_RELEASE_SIGNING_KEY: pemOf(other) }, data)
    expect(messageOf(refused)).toContain(
      `the key in FDS_RELEASE_SIGNING_KEY (sha256 ${keyFingerprint(other)}) is not the one the releases so far were signed with (sha256 ${keyFingerprint(earlier)})`,
    )
    writeFileSync(join(data, "release-signing-key.pem"), pemOf(other), { mode: 0o600 })
    expect(messageOf(keyWith({}, data))).toContain(`the key in ${join(data, "release-signing-key.pem")} (sha256 ${keyFingerprint(other)}) is not the one`)
    expect(keyWith({ FDS_RELEASE_SIGNING_KEY: pemOf(other), FDS_RELEASE_NEW_KEY: "true" }, data)._tag).toBe("Success")
  })
})

describe("./fds config check", () => {
  /** `node api/main.ts config check` on the data folder `data`. */
  const configCheck = (data: string, env: Record<string, string> = {}) =>
    promisify(execFile)(process.execPath, [main, "config", "check"], { cwd: root, env: { ...process.env, FDS_DATA_DIR: data, ...env }, timeout: 30_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    )

  it("checks the release signing key as a publish would (nothing generated): its SHA-256, or why it cannot sign", async () => {
    const earlier = generateKeyPairSync("ed25519").privateKey
    const data = mkdtempSync(join(dir, "check-"))
    mkdirSync(join(data, "snapshots"))
    writeFileSync(join(data, "snapshots", "release-key.pem"), publicKeyPem(earlier))
    const lost = await configCheck(data)
    expect(lost.code).toBe(2)
    expect(lost.stderr).toContain(`fds: ${join(data, "release-signing-key.pem")} is missing, but releases were signed before`)
    expect(existsSync(join(data, "release-signing-key.pem"))).toBe(false)
    writeFileSync(join(data, "release-signing-key.pem"), pemOf(earlier), { mode: 0o600 })
    const ok = await configCheck(data)
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stdout).toContain(`release signing key: Ed25519 from ${join(data, "release-signing-key.pem")}, public key sha256 ${keyFingerprint(earlier)}`)
    expect(ok.stdout).not.toContain("PRIVATE KEY")
  }, 60_000)
})
