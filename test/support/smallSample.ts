/**
 * The bundled small sample (seed 42, ending Friday 2026-11-20) published through the real
 * pipeline, for the tests that serve a realistic batch: writeSample → runPipelineLive into a
 * data folder, as `fds sample` and a first run would.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { runPipelineLive } from "../../pipeline/Pipeline.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"

/** Writes the sample into `sampleDir` and publishes it into `dataDir`; throws unless the run published. */
const build = async (sampleDir: string, dataDir: string): Promise<void> => {
  await writeSample({ out: sampleDir, scale: "small", seed: 42, endDate: "2026-11-20" })
  const outcome = await Effect.runPromise(
    runPipelineLive({
      dataDir,
      sources: [{ kind: "folder", path: sampleDir }],
      today: "2026-11-22",
      historyStart: "2019-01-01",
      fetch: { timeoutMillis: 1000, retries: 0, retryBaseMillis: 1 },
    }),
  )
  if (outcome.outcome !== "published") throw new Error(`the small sample was not published: ${outcome.outcome}`)
}

/**
 * The small sample published into `dataDir`; with `sampleDir`, the sample's files are kept there
 * (tests that read a CMF file themselves).
 */
export const publishSmallSample = async (dataDir: string, options: { readonly sampleDir?: string } = {}): Promise<void> => {
  const sample = options.sampleDir ?? mkdtempSync(join(tmpdir(), "fds-small-sample-"))
  try {
    await build(sample, dataDir)
  } finally {
    if (options.sampleDir === undefined) rmSync(sample, { recursive: true, force: true })
  }
}
