/**
 * The bundled small sample (seed 42, ending Friday 2026-11-20) published through the real
 * pipeline, for the tests that serve a realistic batch: writeSample → runPipelineLive into a
 * data folder, as `fds sample` and a first run would. The build is the same for every such test,
 * so a test run makes it once (in the folder test/support/smallSampleSetup.ts provides; the first
 * file to ask builds it while the others wait) and each test gets its own copy of the data folder.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { Effect } from "effect"
import { inject } from "vitest"
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

const isExisting = (e: unknown): boolean => (e as NodeJS.ErrnoException | undefined)?.code === "EEXIST"

/** This run's one build (its sample and data folders), made by whichever file asks first. */
const builtOnce = async (cache: string): Promise<{ readonly sample: string; readonly data: string }> => {
  const built = { sample: join(cache, "sample"), data: join(cache, "data") }
  const failed = join(cache, "failed")
  let mine = true
  try {
    mkdirSync(join(cache, "building"))
  } catch (e) {
    if (!isExisting(e)) throw e
    mine = false
  }
  if (mine) {
    try {
      await build(join(cache, "sample.part"), join(cache, "data.part"))
      renameSync(join(cache, "sample.part"), built.sample)
      renameSync(join(cache, "data.part"), built.data) // last: its presence says the build is whole
    } catch (e) {
      writeFileSync(failed, String(e))
      throw e
    }
    return built
  }
  for (const started = Date.now(); !existsSync(built.data); await sleep(250)) {
    if (existsSync(failed)) throw new Error(`the small sample's build failed in another test file: ${readFileSync(failed, "utf8")}`)
    if (Date.now() - started > 600_000) throw new Error("the small sample's build in another test file did not finish in 10 minutes")
  }
  return built
}

/**
 * The small sample published into `dataDir` (a copy of this run's build); with `sampleDir`, the
 * sample's files are there too (tests that read a CMF file themselves).
 */
export const publishSmallSample = async (dataDir: string, options: { readonly sampleDir?: string } = {}): Promise<void> => {
  const cache = inject("smallSampleCache")
  if (cache === undefined) {
    // run without the global setup (another config): built here, as the run would
    const sample = options.sampleDir ?? mkdtempSync(join(tmpdir(), "fds-small-sample-"))
    try {
      await build(sample, dataDir)
    } finally {
      if (options.sampleDir === undefined) rmSync(sample, { recursive: true, force: true })
    }
    return
  }
  const built = await builtOnce(cache)
  cpSync(built.data, dataDir, { recursive: true })
  if (options.sampleDir !== undefined) cpSync(built.sample, options.sampleDir, { recursive: true })
}
