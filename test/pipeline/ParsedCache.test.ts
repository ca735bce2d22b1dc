/** The parse cache keeps one version: folders of another (never read again) are removed when it opens. */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { DiskParsedCache, PARSED_CACHE_VERSION } from "../../pipeline/ParsedCache.ts"

describe("ParsedCache versions", () => {
  it("removes cartola-v*/records-v* folders of other versions, keeps its own and anything else", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "fds-parsed-cache-"))
    try {
      const cache = join(dataDir, "cache")
      const old = PARSED_CACHE_VERSION - 1
      for (const name of [`cartola-v${old}`, `records-v${old}`, `cartola-v${PARSED_CACHE_VERSION}`, "notes"]) {
        mkdirSync(join(cache, name), { recursive: true })
        writeFileSync(join(cache, name, "x.bin"), "x")
      }
      new DiskParsedCache(dataDir)
      expect(existsSync(join(cache, `cartola-v${old}`))).toBe(false)
      expect(existsSync(join(cache, `records-v${old}`))).toBe(false)
      expect(existsSync(join(cache, `cartola-v${PARSED_CACHE_VERSION}`, "x.bin"))).toBe(true)
      expect(existsSync(join(cache, "notes", "x.bin"))).toBe(true)
      // a data folder without a cache yet is no error
      new DiskParsedCache(join(dataDir, "elsewhere"))
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
