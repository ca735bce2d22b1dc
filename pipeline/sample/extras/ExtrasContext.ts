/** What each group of extra sample files gets: the FM universe, and its own PRNG stream. */
import type { ScaleConfig } from "../UniverseConfig.ts"
import type { Universe } from "../Universe.ts"
import { makePrng, type Prng } from "../Prng.ts"

export interface ExtrasContext {
  readonly out: string
  readonly scale: "small" | "full"
  readonly config: ScaleConfig
  readonly seed: number
  /** The FM market the registry and cartola were written from (RUNs, series, dates, currencies). */
  readonly universe: Universe
  /** Last day of the history as days since epoch, and as YYYY-MM-DD. */
  readonly endDay: number
  readonly endDate: string
}

/**
 * A PRNG stream of its own for one group of files, so that adding files to one group never
 * changes the bytes another group writes for the same seed.
 */
export const streamFor = (ctx: ExtrasContext, group: string): Prng => {
  let h = ctx.seed >>> 0
  for (const c of group) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0
  return makePrng(h)
}
