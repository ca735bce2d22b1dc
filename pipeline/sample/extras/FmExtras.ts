/**
 * FM data sets of the sample beyond the registry and the cartola: monthly TAC tables, monthly
 * NACI/EXTR portfolios, article 107 regulations and the curated series renames.
 */
import { makePrng } from "../Prng.ts"
import { writeArticle107Files } from "./FmArticle107Files.ts"
import type { ExtrasContext } from "./ExtrasContext.ts"
import { streamFor } from "./ExtrasContext.ts"
import { writePortfolioFiles } from "./FmPortfolioFiles.ts"
import { writeRenamesFile } from "./FmRenamesFile.ts"
import { writeTacFiles } from "./FmTacFiles.ts"

/** Writes this group's files into `ctx.out`; returns their paths. */
export const writeFmExtras = async (ctx: ExtrasContext): Promise<Array<string>> => {
  // One seed per kind of file, drawn in a fixed order, so that changing one kind leaves the others' bytes alone.
  const fm = streamFor(ctx, "fm")
  const [tac, portfolio, article107] = [0, 1, 2].map(() => makePrng(fm.int(0, 0xffffffff)))
  return [
    ...(await writeTacFiles(ctx, tac!)),
    ...(await writePortfolioFiles(ctx, portfolio!)),
    ...(await writeArticle107Files(ctx, article107!)),
    await writeRenamesFile(ctx)
  ]
}
