/**
 * A dropped workbook too damaged for any data set to recognise is rejected saying that it cannot
 * be read as a workbook (not that it "matches no CMF data set", which sends ops looking for a
 * naming mistake), naming the file; CURRENT is untouched.
 */
import { Effect } from "effect"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { runPipelineLive } from "../../pipeline/Pipeline.ts"
import { tacWorkbook } from "../support/workbooks.ts"

const work = mkdtempSync(join(tmpdir(), "fds-damaged-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe("a damaged workbook in the inbox", () => {
  it("is rejected as a workbook that cannot be read, naming the file", async () => {
    const inbox = join(work, "inbox")
    mkdirSync(inbox)
    const whole = tacWorkbook([[20261031, "AGF", "FONDO", 6, "PESOS", "A", "NA", "NA", "NA", "NA", 1.2, "NA", 0.1, 1.3, "NA", "NA", "NA", "NA"]])
    // cut in the middle of its OLE2 streams: the signature says XLS, the sectors are missing
    writeFileSync(join(inbox, "fmdfm_costos_202610.xls"), whole.subarray(0, 1536))
    const result = await Effect.runPromise(
      Effect.result(
        runPipelineLive({
          dataDir: join(work, "data"),
          sources: [{ kind: "folder", path: inbox }],
          today: "2026-11-25",
          historyStart: "2026-01-01",
          fetch: { timeoutMillis: 1000, retries: 0, retryBaseMillis: 10 },
        }),
      ),
    )
    expect(result._tag).toBe("Failure")
    if (result._tag === "Failure") {
      expect(result.failure.reason).toMatch(/fmdfm_costos_202610\.xls cannot be read as a workbook: .+ \(stored as raw [0-9a-f]{12}\)/)
    }
  })
})
