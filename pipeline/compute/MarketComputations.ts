/** The market computations, in order: family indices, administrators' months, fund flows, then the ready answers. */
import type { Computation } from "./Computation.ts"
import { marketAgfMonthly } from "./MarketAgfMonthly.ts"
import { marketFamilyIndex } from "./MarketFamilyIndex.ts"
import { marketFlows } from "./MarketFlows.ts"
import { marketReady } from "./MarketReady.ts"

export const MARKET_COMPUTATIONS: ReadonlyArray<Computation> = [marketFamilyIndex, marketAgfMonthly, marketFlows, marketReady]
