import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

// Node's compile cache (type-stripped, compiled modules on disk, the folder ./fds uses), for the
// workers and every process a test starts (they inherit the environment): a CLI child starts in
// ~1.2 s instead of ~1.6 s, and the spawning test files took ~22% less (keysCli + cliArgs, 47 s →
// 36 s, first run with an empty cache). Node writes each entry to a temporary file and renames it.
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL("tools/.compile-cache", import.meta.url))

/**
 * Files that measure time, hold a deadline against a loaded machine, or start a fleet of
 * processes (replicas, PostgreSQL, haproxy, Chromium, the pipeline's own second core): they run
 * one at a time, after the others, with the machine to themselves. Every other file runs two at a
 * time (vitest's default on 2 cores is one worker; most files wait on a child process or a
 * socket far more than they compute).
 */
const ALONE = [
  "test/replicas/**/*.test.ts",
  "test/operations/**/*.test.ts",
  "test/e2e/**/*.test.ts",
  "test/**/*.browser.test.ts",
  "test/http/docs-page.test.ts",
  "test/http/landing-page.test.ts",
  "test/http/accessLog.test.ts",
  "test/http/connections.test.ts",
  "test/api/swap*.test.ts",
  "test/api/serve.test.ts",
  "test/batches/pastSnapshots.test.ts",
  "test/ops/{kill,lock,swapLoad,daemon,runState,diskFull,damagedServed,alerts,alertsDaemon,bucketDaemon,realCmf}.test.ts",
  "test/pipeline/{ChildProcess,Offload,ParseAhead,RecognizeAhead,CartolaDownload}.test.ts",
]

export default defineConfig({
  test: {
    // V8's JIT-page tracking under memory protection keys (on a CPU with PKU) can abort a worker
    // that loads code in several threads (Node's TypeScript stripping is WebAssembly): "Check
    // failed: jit_page.has_value()" killed test/pipeline/Increment.test.ts's worker once in two
    // clean runs (2026-12-03). The workers, and the threads they start, run without it.
    execArgv: ["--no-memory-protection-keys"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // What a test writes to its console (the in-process servers' and the pipeline's log lines, and
    // the children's output that test/support/testLog.ts passes on) is kept, and printed only
    // for a test, suite or file that fails. `vitest run --silent=false` prints it all.
    silent: "passed-only",
    // a folder for the one build of the small sample the files that serve it share
    globalSetup: ["test/support/smallSampleSetup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: ["test/**/*.test.ts"],
          exclude: ALONE,
          maxWorkers: Math.max(2, availableParallelism()),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: "alone", include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
})
