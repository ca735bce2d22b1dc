/**
 * The FI/ETF files of the sample, from the "fi" PRNG stream (see `FiUniverse.ts` for the market and
 * `FI_EDGE` for which fund is which edge case):
 * - `fi_consulta_{FIRES,FINRE}_{VI,NV}.html`: the four CMF list pages (data set 5);
 * - `fi_valores_<RUN>_<YYYY>.html`: a values tab per fund with daily values and calendar year
 *   (data set 6; small: the last two years, full: from 2015);
 * - `fi_cartera_{nac,ext}_<RUN>_<YYYYMM>.html`: IFRS portfolios of the last four published quarters
 *   for some funds (data set 7);
 * - `fi_fichas.txt`: fact-sheet review, `RUN;SERIE;TAC;ESTADO_REVISION;FECHA_FICHA` (data set 13);
 * - `etf_tickers.txt`: `RUN;SERIE;TICKER;BOLSA` (data set 14a).
 *
 * `small`: 6 administrators (FM administrators 0 and 2 among them), 20 funds, 12 with values.
 * `full`: 50 administrators (30 also FM), 1,650 funds, ~380 with values, 12 ETFs.
 */
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { dmyOf } from "../Calendar.ts"
import { type ExtrasContext, streamFor } from "./ExtrasContext.ts"
import { writePortfolioPages } from "./FiPortfolioPages.ts"
import { registryPages, type SampleFile } from "./FiRegistryPages.ts"
import { buildFiUniverse, type FiUniverse } from "./FiUniverse.ts"
import { writeValuesPages } from "./FiValuesPages.ts"

/** Fact sheets: one line per series that has one; TAC alternates "," and "." as decimal mark. */
export const factSheetText = (universe: FiUniverse): string => {
  const lines = ["RUN;SERIE;TAC;ESTADO_REVISION;FECHA_FICHA"]
  for (const fund of universe.funds) {
    for (const s of fund.series) {
      if (s.sheet === null) continue
      const tac = s.sheet.tacPercent === null ? "" : s.sheet.tacPercent.toFixed(2)
      lines.push([fund.run, s.label, lines.length % 2 === 0 ? tac.replace(".", ",") : tac, s.sheet.review, dmyOf(s.sheet.day)].join(";"))
    }
  }
  return lines.join("\r\n") + "\r\n"
}

export const etfTickerText = (universe: FiUniverse): string => {
  const lines = ["RUN;SERIE;TICKER;BOLSA"]
  for (const fund of universe.funds) for (const s of fund.series) if (s.ticker !== null) lines.push(`${fund.run};${s.label};${s.ticker};BCS`)
  return lines.join("\n") + "\n"
}

/** Writes this group's files into `ctx.out`; returns their paths. */
export const writeFiExtras = async (ctx: ExtrasContext): Promise<Array<string>> => {
  const prng = streamFor(ctx, "fi")
  const universe = buildFiUniverse(prng, ctx.scale, ctx.universe, ctx.endDay)
  const paths: Array<string> = []
  const emit = async ({ name, bytes }: SampleFile): Promise<void> => {
    const path = join(ctx.out, name)
    await writeFile(path, bytes)
    paths.push(path)
  }
  for (const file of registryPages(universe)) await emit(file)
  await writeValuesPages(prng, universe, emit)
  await writePortfolioPages(prng, universe, emit)
  await emit({ name: "fi_fichas.txt", bytes: Buffer.from(factSheetText(universe), "latin1") })
  await emit({ name: "etf_tickers.txt", bytes: Buffer.from(etfTickerText(universe), "latin1") })
  return paths
}
