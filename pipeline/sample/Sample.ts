import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { dayOf } from "./Calendar.ts"
import { writeCartolaFiles } from "./CartolaFiles.ts"
import type { ExtrasContext } from "./extras/ExtrasContext.ts"
import { writeFiExtras } from "./extras/FiExtras.ts"
import { writeFmExtras } from "./extras/FmExtras.ts"
import { writeMarketExtras } from "./extras/MarketExtras.ts"
import { makePrng } from "./Prng.ts"
import { registryText } from "./RegistryFile.ts"
import { buildUniverse } from "./Universe.ts"
import { SCALES } from "./UniverseConfig.ts"

export interface SampleOptions {
  /** Folder to write into (created if missing; other files in it are left alone). */
  readonly out: string
  readonly scale: "small" | "full"
  readonly seed: number
  /** Last day of the history, YYYY-MM-DD. */
  readonly endDate: string
}

export interface SampleWritten {
  /** Paths of the files written: `fm_ident2.txt`, then the monthly cartolas in date order. */
  readonly files: Array<string>
  /** Cartola data rows written, duplicates included. */
  readonly rows: number
  /** Cartola rows written twice verbatim within a file. */
  readonly duplicateRows: number
}

/**
 * Writes a deterministic CMF-like sample (same options → byte-identical files): `fm_ident2.txt`
 * (FM registry, every RUN 2–3 times) and `ffmm_todos_YYYYMMDD_YYYYMMDD.txt` per calendar month
 * (first day .. last day, the last one clamped to `endDate`), latin-1, rows on business days only.
 *
 * `small`: 5 administrators, 30 funds (6 terminated, 2 of them before the history), ~100 series,
 * from 2019-01-02. `full`: 36 administrators, 1,350 funds (450 active), ~2,900 series, from
 * 2007-12-31 (~10M rows, ~2 GB, written month by month).
 *
 * Edge cases at both scales: administrator 0's name has Ñ, administrator 1's NOM_ADM is UTF-8 mojibake
 * in the cartola, 3's has Í; fund 0 (type 3) renames series B to BPRIV from 2024-03-01; fund 1's
 * second series ends 2026-09-23 (absorbed, not linked); fund 2 (PROM, equity) publishes a ×1.6 quota
 * jump on 2023-06-14 on its first series; funds 2, 3 are PROM and 4 is EUR; funds 5 and 6 pay
 * distributions (FACTOR DE REPARTO 1.01–1.03, quota dropping by that factor) on the first business
 * day on or after May 15 and Nov 15; younger series start after their fund; some months repeat a few
 * rows of one day verbatim. ("Fund i" is the i-th fund generated; its RUN depends on the seed.)
 */
export const writeSample = async (options: SampleOptions): Promise<SampleWritten> => {
  const config = SCALES[options.scale]
  const endDay = dayOf(options.endDate)
  if (endDay < dayOf(config.historyStart) + 400) {
    throw new Error(`endDate ${options.endDate} must be at least 400 days after ${config.historyStart}`)
  }
  const prng = makePrng(options.seed)
  const universe = buildUniverse(prng, config, endDay)
  await mkdir(options.out, { recursive: true })
  const registry = join(options.out, "fm_ident2.txt")
  await writeFile(registry, Buffer.from(registryText(prng, universe), "latin1"))
  const cartolas = await writeCartolaFiles(prng, universe, options.out, config.duplicateMonthChance)
  const ctx: ExtrasContext = { out: options.out, scale: options.scale, config, seed: options.seed, universe, endDay, endDate: options.endDate }
  const extras = [...(await writeFmExtras(ctx)), ...(await writeFiExtras(ctx)), ...(await writeMarketExtras(ctx))]
  return {
    files: [registry, ...cartolas.files.map((name) => join(options.out, name)), ...extras],
    rows: cartolas.rows,
    duplicateRows: cartolas.duplicateRows
  }
}
