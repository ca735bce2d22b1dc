/**
 * Market data sets of the sample: UF and dólar observado (SIETE JSON per year, the last dólar year
 * as a CMF API answer), AFM categories, CMF spheres, the benchmark catalog and one price CSV per
 * benchmark symbol. All drawn from the "market" PRNG stream, consistent with `ctx.universe`.
 */
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import type { ExtrasContext } from "./ExtrasContext.ts"
import { streamFor } from "./ExtrasContext.ts"
import { benchmarkCatalogText, benchmarkPricesCsv, SAMPLE_BENCHMARKS } from "./MarketBenchmarks.ts"
import { afmCategoriesText, cmfSpheresText } from "./MarketClassification.ts"
import { writeIndicatorFiles } from "./MarketIndicators.ts"

/** Writes this group's files into `ctx.out`; returns their paths. */
export const writeMarketExtras = async (ctx: ExtrasContext): Promise<Array<string>> => {
  const prng = streamFor(ctx, "market")
  const { universe } = ctx
  const files = await writeIndicatorFiles(ctx.out, prng, universe.historyStart, ctx.endDay)
  const latin1Files: Array<[string, string]> = [
    ["afm_categorias.txt", afmCategoriesText(prng, universe)],
    ["cmf_esferas.txt", cmfSpheresText(prng, universe)],
    ["benchmarks_catalogo.txt", benchmarkCatalogText()]
  ]
  for (const b of SAMPLE_BENCHMARKS) {
    latin1Files.push([b.fileName, benchmarkPricesCsv(prng, b, universe.historyStart, ctx.endDay)])
  }
  for (const [name, text] of latin1Files) {
    await writeFile(join(ctx.out, name), Buffer.from(text, "latin1"))
    files.push(join(ctx.out, name))
  }
  return files
}
