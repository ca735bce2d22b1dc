/**
 * Tables of precomputed answers (returns, risk, indices, ready JSON, …), one list per area.
 * Each area declares its tables in its own file and adds them here.
 */
import { MARKET_COMPUTED_TABLES } from "./MarketComputed.ts"
import { RETURNS_COMPUTED_TABLES } from "./ReturnsComputed.ts"
import type { TableSpec } from "./TableSpec.ts"

export const COMPUTED_TABLES: ReadonlyArray<TableSpec> = [...RETURNS_COMPUTED_TABLES, ...MARKET_COMPUTED_TABLES]
