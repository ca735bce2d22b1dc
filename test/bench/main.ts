/**
 * `make bench`: speed figures, printed and written to test/bench/results/<time>.json. Never
 * asserted in tests. Each part runs its servers side by side with a bounded load on loopback;
 * quote medians and ratios from one run (the machine is shared and noisy).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { benchAnswers } from "./answers.ts"
import { benchBatches } from "./batches.ts"
import { benchBeforeAfter } from "./beforeAfter.ts"
import { benchDays } from "./days.ts"
import { benchLookups } from "./lookups.ts"
import { benchMarket } from "./market.ts"
import { benchMcp } from "./mcp.ts"
import { benchParquetWriters } from "./parquetWriters.ts"
import { benchPipeline } from "./pipeline.ts"
import { benchPostgres } from "./postgres.ts"
import { benchQuota } from "./quota.ts"
import { benchReturns } from "./returns.ts"
import { benchSwap } from "./swap.ts"
import { benchWebhooks } from "./webhooks.ts"

const parts: Record<string, () => Promise<Record<string, unknown>>> = {
  days: benchDays,
  answers: benchAnswers,
  quota: benchQuota,
  returns: benchReturns,
  market: benchMarket,
  lookups: benchLookups,
  mcp: benchMcp,
  postgres: benchPostgres,
  swap: benchSwap,
  batches: benchBatches,
  pipeline: benchPipeline,
  webhooks: benchWebhooks,
  parquet: benchParquetWriters,
  // only when BENCH_BEFORE names a commit to measure this checkout against (beforeAfter.ts)
  "before-after": benchBeforeAfter,
}

const only = process.env.BENCH_ONLY?.split(",")
const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version }
for (const [name, run] of Object.entries(parts)) {
  if (only !== undefined && !only.includes(name)) continue
  if (name === "before-after" && process.env.BENCH_BEFORE === undefined) continue
  console.log(`\n== ${name}`)
  results[name] = await run()
}

const outDir = join(import.meta.dirname, "results")
if (!existsSync(outDir)) mkdirSync(outDir, { recursive: true })
const out = join(outDir, `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`)
writeFileSync(out, JSON.stringify(results, null, 2))
console.log(`\nwritten ${out}`)
