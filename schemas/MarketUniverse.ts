/**
 * Which funds a market view covers (`universe` on /api/market-summary, /api/all-funds and
 * /api/screener; issue #31 item 6). `current` (the default): today's funds, so a historical date
 * is a backtest over them (survivorship bias). `as_of`: the funds and series alive on the
 * requested `date`, those ended since included, with their values as of then
 * (snapshots/readers/MarketUniverse.ts, `universeAsOf`).
 */
import { Schema } from "effect"

export const UNIVERSES = ["current", "as_of"] as const
export type Universe = (typeof UNIVERSES)[number]

/** The query parameter. Absent means `current`; the answer then names no universe where it never did (byte-identical). */
export const UniverseParam = Schema.Literals(UNIVERSES).annotate({
  description:
    "current (default): today's funds (a historical date is a backtest over them: survivorship bias); " +
    "as_of: the funds and series alive on `date` (required), including those ended since, with their values as of that date",
})

/** The word an answer names its universe with (`meta.universe`): the reference contract's `current_vigente`, or `as_of`. */
export const UNIVERSE_WORDS = ["current_vigente", "as_of"] as const
export type UniverseWord = (typeof UNIVERSE_WORDS)[number]

export const universeWord = (universe: Universe): UniverseWord => (universe === "as_of" ? "as_of" : "current_vigente")

export const UNIVERSE_META_DESCRIPTION =
  "current_vigente: series of funds current in the CMF registry that still report; " +
  "as_of: the series alive on the requested date (universe=as_of), funds closed since included"

export const UniverseMeta = Schema.Literals(UNIVERSE_WORDS).annotate({ description: UNIVERSE_META_DESCRIPTION })
