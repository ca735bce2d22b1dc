/** Every computation, in the order they run (a later one may read an earlier one's tables). */
import type { Computation } from "./Computation.ts"
import { MARKET_COMPUTATIONS } from "./MarketComputations.ts"
import { ReturnsComputation } from "./ReturnsComputation.ts"

export const COMPUTATIONS: ReadonlyArray<Computation> = [ReturnsComputation, ...MARKET_COMPUTATIONS]
