/**
 * Query and path parameters of the market routes. Each is checked at the edge: a value outside
 * its set or range answers 422 naming the parameter (never clamped). Words are those of
 * schemas/FundClass.ts (categories, investor classes) and schemas/AfmFamilies.ts (RAR
 * families); the case-insensitive ones decode to their canonical spelling.
 */
import { Schema } from "effect"
import { FUND_TYPE_CATEGORY, INVESTOR_CLASSES } from "./FundClass.ts"
import { caseInsensitive, QueryInt, QueryWord } from "./QueryParams.ts"
import { AFM_FAMILIES, type AfmFamily } from "./AfmFamilies.ts"

const FAMILY_KEYS: ReadonlyMap<string, AfmFamily> = new Map(
  Object.values(AFM_FAMILIES).flatMap((f) => [[f.familyRar.toLowerCase(), f] as const, [f.slug, f] as const]),
)

/** A RAR family by display name ("Accionario eeuu") or slug ("accionario-eeuu"), case-insensitive. */
export const familyOf = (text: string): AfmFamily | undefined => FAMILY_KEYS.get(text.trim().toLowerCase())

export const Vehicle = Schema.Literals(["mutual_fund", "etf", "investment_fund", "all"]).annotate({
  description: "mutual_fund (default), etf, investment_fund or all",
})

const CATEGORIES = [...new Set(Object.values(FUND_TYPE_CATEGORY))]
export const CATEGORY_RULE = `one of ${CATEGORIES.join(", ")} (case-insensitive)`

/** A category word (the CMF fund type as a word), case-insensitive; decoded to its lower-case spelling. */
export const Category = (description = "Fund category (CMF fund type as a word), case-insensitive") =>
  QueryWord(CATEGORIES, caseInsensitive(CATEGORIES), CATEGORY_RULE, description).annotate({ examples: ["equity"] })

const FAMILY_NAMES = Object.values(AFM_FAMILIES).map((f) => f.familyRar)

/** An AFM RAR family by display name or slug, case-insensitive; decoded to its display name. */
export const FundFamily = (description = "AFM RAR family: display name or slug, case-insensitive") =>
  QueryWord(
    FAMILY_NAMES,
    (s) => familyOf(s)?.familyRar,
    "an AFM RAR family name (e.g. Accionario eeuu) or its slug",
    description,
    [...new Set(Object.values(AFM_FAMILIES).flatMap((f) => [f.familyRar, f.slug]))],
  ).annotate({ examples: ["Accionario eeuu"] })

/** PESOS (CLP accepted) or DOLAR (USD accepted), case-insensitive; decoded to PESOS or DOLAR. */
export const Currency = (description: string) =>
  QueryWord(
    ["PESOS", "DOLAR"],
    caseInsensitive(["PESOS", "DOLAR"], { CLP: "PESOS", USD: "DOLAR" }),
    "PESOS/CLP or DOLAR/USD (case-insensitive)",
    description,
    ["PESOS", "CLP", "DOLAR", "USD"],
  )

export const InvestorClass = QueryWord(
  INVESTOR_CLASSES,
  caseInsensitive(INVESTOR_CLASSES),
  `one of ${INVESTOR_CLASSES.join(", ")} (case-insensitive)`,
  "Investor class: APV, Institutional or Retail, case-insensitive; other → 422",
)

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
