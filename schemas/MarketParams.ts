/**
 * Query and path parameters of the market routes. Each is checked at the edge: a value outside
 * its set or range answers 422 naming the parameter (never clamped). Words are those of
 * schemas/FundClass.ts (categories) and schemas/records/AfmCategories.ts (RAR families).
 */
import { Schema } from "effect"
import { FUND_TYPE_CATEGORY } from "./FundClass.ts"
import { QueryInt } from "./QueryInt.ts"
import { AFM_FAMILIES, type AfmFamily } from "./records/AfmCategories.ts"

const CATEGORY_WORDS: ReadonlySet<string> = new Set(Object.values(FUND_TYPE_CATEGORY))

const FAMILY_KEYS: ReadonlyMap<string, AfmFamily> = new Map(
  Object.values(AFM_FAMILIES).flatMap((f) => [[f.familyRar.toLowerCase(), f] as const, [f.slug, f] as const]),
)

/** A RAR family by display name ("Accionario eeuu") or slug ("accionario-eeuu"), case-insensitive. */
export const familyOf = (text: string): AfmFamily | undefined => FAMILY_KEYS.get(text.trim().toLowerCase())

export const Vehicle = Schema.Literals(["mutual_fund", "etf", "investment_fund", "all"]).annotate({
  description: "mutual_fund (default), etf, investment_fund or all",
})

/** Whether `s` is a category word, case-insensitive. */
export const isCategory = (s: string): boolean => CATEGORY_WORDS.has(s.toLowerCase())
export const CATEGORY_RULE = `one of ${[...CATEGORY_WORDS].join(", ")} (case-insensitive)`

export const Category = Schema.String.check(Schema.makeFilter((s: string) => isCategory(s) || CATEGORY_RULE)).annotate({ description: "Fund category (CMF fund type as a word), case-insensitive", examples: ["equity"] })

export const FundFamily = Schema.String.check(
  Schema.makeFilter((s: string) => familyOf(s) !== undefined || "an AFM RAR family name (e.g. Accionario eeuu) or its slug"),
).annotate({ description: "AFM RAR family: display name or slug, case-insensitive", examples: ["Accionario eeuu"] })

/** PESOS/CLP or DOLAR/USD, case-insensitive; normalised with `indexCurrencyOf`. */
export const IndexCurrency = Schema.String.check(
  Schema.makeFilter((s: string) => /^(pesos|clp|dolar|usd)$/i.test(s) || "PESOS or DOLAR (CLP and USD accepted)"),
).annotate({ description: "Index currency: PESOS or DOLAR (CLP, USD accepted), case-insensitive" })
export const indexCurrencyOf = (s: string): "PESOS" | "DOLAR" => (/^(pesos|clp)$/i.test(s) ? "PESOS" : "DOLAR")

export const AgfMetric = Schema.Literals(["patrimony", "shareholders"]).annotate({ description: "patrimony (default) or shareholders" })
export const TacDirection = Schema.Literals(["up", "down"]).annotate({ description: "up (default): largest rises; down: largest drops" })
export const PortfolioMarket = Schema.Literals(["N", "E", "all"]).annotate({ description: "N national, E foreign, all (default)" })

/** YYYY-MM with a real month (01–12). */
export const YearMonth = Schema.String.check(Schema.isPattern(/^\d{4}-(0[1-9]|1[0-2])$/u)).annotate({
  description: "A month, YYYY-MM",
  examples: ["2026-10"],
})
export const isYearMonth = (s: string): boolean => /^\d{4}-(0[1-9]|1[0-2])$/u.test(s)

export const ReportLimit = QueryInt(1, 100, "1 to 100 (default 15)")

/** A fund RUN, with or without its check digit (8043 or 8043-8). */
export const RunParam = Schema.String.check(Schema.isPattern(/^[0-9]{1,9}(-[0-9kK])?$/u)).annotate({
  description: "Fund RUN, with or without check digit (8043-8)",
})
