/**
 * Every ```ts block of docs/clients.md runs, as a reader would paste it, against a real server:
 * the blocks of one section (a heading) make one module, run by Node with FDS_BASE_URL and
 * FDS_API_KEY (and FDS_KEY, the name the generic openapi-fetch example reads) from the
 * environment and `{base_url}` replaced by the server's URL; `@fds/client` and `openapi-fetch`
 * resolve to clients/typescript. Each module exits 0 with nothing on stderr.
 */
import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readManifest } from "../../snapshots/Manifest.ts"
import { recordPublished } from "../downloads/ledger.ts"
import { SPHERES } from "../market/compareFixture.ts"
import { publishMarketSnapshot } from "../market/marketSnapshot.ts"
import { createKey, type RunningServer, startServer } from "../support/server.ts"
import { makeDataDir } from "../support/snapshotFixture.ts"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))
const DOC = readFileSync(join(repoRoot, "docs", "clients.md"), "utf8")

/** The ```ts blocks, grouped by the heading they are under, in order. */
const sections = (): Array<{ readonly heading: string; readonly code: string }> => {
  const found: Array<{ heading: string; code: string }> = []
  let heading = ""
  for (const part of DOC.split(/^(#{1,6} .*|```ts\n[\s\S]*?^```)$/m)) {
    if (/^#{1,6} /.test(part)) heading = part
    else if (part.startsWith("```ts\n")) {
      const code = part.slice("```ts\n".length, -"```".length)
      const last = found.at(-1)
      if (last?.heading === heading) last.code += `\n${code}`
      else found.push({ heading, code })
    }
  }
  return found
}

describe("docs/clients.md's TypeScript blocks", () => {
  const dir = makeDataDir()
  const work = mkdtempSync(join(tmpdir(), "fds-docs-ts-"))
  let server: RunningServer
  let key = ""

  beforeAll(async () => {
    const file = publishMarketSnapshot(dir.snapshotsDir, { returns: true, extra: (w) => w.insertRows("cmf_spheres", SPHERES) })
    recordPublished(dir.dataDir, { batchDate: file.slice(0, 10), file, contentHash: readManifest(dir.snapshotsDir, file).content_hash })
    key = (await createKey(dir.dataDir, { email: "docs-ts@example.cl", tier: "internal" })).key
    server = await startServer({ dataDir: dir.dataDir })
    mkdirSync(join(work, "node_modules", "@fds"), { recursive: true })
    symlinkSync(join(repoRoot, "clients", "typescript"), join(work, "node_modules", "@fds", "client"), "dir")
    symlinkSync(join(repoRoot, "clients", "typescript", "node_modules", "openapi-fetch"), join(work, "node_modules", "openapi-fetch"), "dir")
    writeFileSync(join(work, "package.json"), JSON.stringify({ type: "module", private: true }))
  })
  afterAll(async () => {
    await server?.close()
    dir.cleanup()
    rmSync(work, { recursive: true, force: true })
  })

  it("the page has the TypeScript opening (five lines) and a TypeScript package section", () => {
    const opening = sections().find((s) => s.heading === "### TypeScript")
    expect(opening?.code.trimEnd().split("\n")).toHaveLength(5)
    expect(sections().some((s) => s.heading === "## TypeScript package")).toBe(true)
  })

  for (const [index, section] of sections().entries()) {
    it(`${section.heading} runs (${section.code.split("\n").length} lines)`, async () => {
      const file = join(work, `block${index}.ts`)
      writeFileSync(file, section.code.replaceAll("{base_url}", server.url))
      const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [file],
          { cwd: work, timeout: 60_000, env: { ...process.env, FDS_BASE_URL: server.url, FDS_API_KEY: key, FDS_KEY: key, NO_COLOR: "1" } },
          (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }),
        )
      })
      expect(run.stderr).toBe("")
      expect(run.code).toBe(0)
      expect(run.stdout).not.toContain(key)
    })
  }
})
