/**
 * AFM families as indices for the market summary: per family and per AFM currency (PESOS,
 * DOLAR), the day's change is the average of its series' changes weighted by their opening
 * patrimony (the patrimony of the quote the change starts from): Σ pᵢ·rᵢ / Σ pᵢ over the series
 * with a change and an opening patrimony > 0. The monthly change weighs the monthly changes the
 * same way (opening = the monthly base quote). The family's headline currency is the one with the
 * largest patrimony in CLP (ties: PESOS).
 */
import { AFM_FAMILY_BY_NAME } from "../../schemas/AfmFamilies.ts"
import { round10 } from "./MarketRows.ts"
import type { MarketRow } from "./MarketRows.ts"
import { toClp } from "./MarketFx.ts"

const weighted = (pairs: ReadonlyArray<readonly [weight: number | null, change: number | null]>): number | null => {
  let w = 0
  let wr = 0
  for (const [p, r] of pairs) {
    if (p === null || r === null || !(p > 0)) continue
    w += p
    wr += p * r
  }
  return w > 0 ? round10(wr / w) : null
}

const sum = (xs: ReadonlyArray<number | null>): number | null => {
  let total: number | null = null
  for (const x of xs) if (x !== null) total = (total ?? 0) + x
  return total
}

export interface CurrencyPart {
  readonly dailyChange: number | null
  readonly monthlyChange: number | null
  /** In the currency's own unit (CLP for PESOS, USD for DOLAR). */
  readonly patrimony: number | null
  readonly patrimonyClp: number | null
  readonly seriesCount: number
}

const currencyPart = (rows: ReadonlyArray<MarketRow>, usdClp: number | null): CurrencyPart => ({
  dailyChange: weighted(rows.map((r) => [r.previousPatrimony, r.dailyChange] as const)),
  monthlyChange: weighted(rows.map((r) => [r.monthlyPatrimony, r.monthlyChange] as const)),
  patrimony: sum(rows.map((r) => r.patrimony)),
  patrimonyClp: sum(rows.map((r) => toClp(r.patrimony, r.currencyCode, usdClp))),
  seriesCount: rows.length,
})

/** The currency with the largest CLP patrimony; PESOS on a tie or when neither converts. */
export const headlineCurrency = (parts: Readonly<Record<string, { readonly patrimonyClp: number | null }>>): string => {
  let chosen: string | null = null
  let best = Number.NEGATIVE_INFINITY
  for (const currency of ["PESOS", "DOLAR"]) {
    const part = parts[currency]
    if (part === undefined) continue
    const size = part.patrimonyClp ?? Number.NEGATIVE_INFINITY
    if (chosen === null || size > best) {
      chosen = currency
      best = size
    }
  }
  return chosen ?? "PESOS"
}

/** Families of the classified rows, largest CLP patrimony first (then by name). */
export const familySummaries = (rows: ReadonlyArray<MarketRow>, usdClp: number | null) => {
  const byFamily = new Map<string, MarketRow[]>()
  for (const r of rows) {
    if (r.familyRar === null) continue
    const list = byFamily.get(r.familyRar)
    if (list === undefined) byFamily.set(r.familyRar, [r])
    else list.push(r)
  }
  const out = [...byFamily.entries()].map(([family, members]) => {
    const byCurrency: Record<string, CurrencyPart> = {}
    for (const currency of ["PESOS", "DOLAR"]) {
      const inCurrency = members.filter((r) => r.afmCurrency === currency)
      if (inCurrency.length > 0) byCurrency[currency] = currencyPart(inCurrency, usdClp)
    }
    const indexCurrency = headlineCurrency(byCurrency)
    const head = byCurrency[indexCurrency]
    const info = AFM_FAMILY_BY_NAME.get(family)
    return {
      family,
      name: family,
      slug: members[0]!.familySlug,
      displayGroup: info?.displayGroup ?? null,
      indexCurrency,
      dailyChange: head?.dailyChange ?? null,
      monthlyChange: head?.monthlyChange ?? null,
      patrimonyClp: sum(members.map((r) => toClp(r.patrimony, r.currencyCode, usdClp))),
      seriesCount: members.length,
      fundCount: new Set(members.map((r) => r.conceptId)).size,
      byCurrency: Object.fromEntries(
        Object.entries(byCurrency).map(([c, p]) => [
          c,
          { dailyChange: p.dailyChange, monthlyChange: p.monthlyChange, patrimony: p.patrimony, seriesCount: p.seriesCount },
        ]),
      ),
    }
  })
  return out.sort((a, b) => (b.patrimonyClp ?? -1) - (a.patrimonyClp ?? -1) || (a.family < b.family ? -1 : 1))
}
