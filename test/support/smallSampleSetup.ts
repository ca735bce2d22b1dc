/**
 * Global setup: a folder for this test run's one build of the small sample
 * (test/support/smallSample.ts), removed when the run ends. Nothing is built unless a test asks.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    /** Where test/support/smallSample.ts keeps this run's build of the small sample. */
    smallSampleCache: string
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "fds-small-sample-run-"))
  project.provide("smallSampleCache", dir)
  return () => rmSync(dir, { recursive: true, force: true })
}
