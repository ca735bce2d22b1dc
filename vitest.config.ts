import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // What a test writes to its console (the in-process servers' and the pipeline's log lines, and
    // the children's output that test/support/testLog.ts passes on) is kept, and printed only
    // for a test, suite or file that fails. `vitest run --silent=false` prints it all.
    silent: "passed-only",
  },
})
