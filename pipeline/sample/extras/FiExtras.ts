/** Fi data sets of the sample beyond the registry and the cartola (filled in by their own work). */
import type { ExtrasContext } from "./ExtrasContext.ts"

/** Writes this group's files into `ctx.out`; returns their paths. */
export const writeFiExtras = async (_ctx: ExtrasContext): Promise<Array<string>> => []
