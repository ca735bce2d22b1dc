/** Every computation, in the order they run (a later one may read an earlier one's tables). */
import type { Computation } from "./Computation.ts"
import { MARKET_COMPUTATIONS } from "./MarketComputations.ts"
import { ReturnsComputation } from "./ReturnsComputation.ts"

export const COMPUTATIONS: ReadonlyArray<Computation> = [ReturnsComputation, ...MARKET_COMPUTATIONS]

/**
 * Computations that read only the staged facts (not another computation's tables): the build runs
 * them in a worker thread beside the others (see ComputeWorker.ts), and writes their rows where
 * they would have run.
 */
export const ALONGSIDE: ReadonlySet<string> = new Set(["market_family_index", "market_agf_monthly"])
