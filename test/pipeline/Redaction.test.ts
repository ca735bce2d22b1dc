/**
 * A URL's user and password never reach a run's reason (STATUS.json, the ledger, the command
 * line): a CMF base URL with user-info that fails names the address with `***@`.
 */
import { Effect } from "effect"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { runPipelineLive } from "../../pipeline/Pipeline.ts"

const work = mkdtempSync(join(tmpdir(), "fds-redact-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe("a source URL's credentials", () => {
  it("are hidden in the reason of a failed run and in STATUS.json", async () => {
    const dataDir = join(work, "data")
    const result = await Effect.runPromise(
      Effect.result(
        runPipelineLive({
          dataDir,
          sources: [{ kind: "http", baseUrl: "http://ops:Sup3rS3cret@127.0.0.1:1" }],
          today: "2026-11-25",
          historyStart: "2026-11-01",
          fetch: { timeoutMillis: 1000, retries: 0, retryBaseMillis: 10 },
        }),
      ),
    )
    expect(result._tag).toBe("Failure")
    if (result._tag === "Failure") {
      expect(result.failure.reason).toMatch(/^CMF source http:\/\/\*\*\*@127\.0\.0\.1:1\//)
      expect(result.failure.reason).not.toContain("Sup3rS3cret")
    }
    const status = readFileSync(join(dataDir, "snapshots", "STATUS.json"), "utf8")
    expect(status).toContain("***@127.0.0.1:1")
    expect(status).not.toContain("Sup3rS3cret")
  })
})
