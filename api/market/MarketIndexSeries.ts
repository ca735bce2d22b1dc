/**
 * /api/families/{family_rar}/index from the precomputed points (market_family_index). Each
 * family/currency's points are rendered to JSON once per snapshot; a request slices them from
 * `from_date` (inclusive). The base point (100) has no `change`.
 */
import type Database from "better-sqlite3"
import { toIsoDate } from "../../snapshots/compute/Calendar.ts"
import { memoLru, prepared } from "../../snapshots/readers/MarketDb.ts"
import { headlineCurrency } from "../../snapshots/readers/MarketFamilies.ts"
import { BASE_VALUE } from "../../snapshots/readers/MarketIndexMath.ts"

export const FAMILY_INDEX_METHODOLOGY =
  "family_index_v1: base 100 on the family's first quote date, per AFM currency; each later quote date t changes the index by " +
  "Σ opening patrimony × (quota(t)/quota(t0) − 1) / Σ opening patrimony over the family's series quoted on both t and the " +
  "previous quote date t0 with an opening patrimony > 0 (price index: distributions not reinvested)."

interface CurrencyRow {
  currency: string
  first_date: number
  last_date: number
  patrimony_clp: number | null
}

export const familyCurrencies = (db: Database.Database, slug: string): CurrencyRow[] =>
  prepared(db, "SELECT currency, first_date, last_date, patrimony_clp FROM market_family_currencies WHERE family_slug = ? ORDER BY currency").all(
    slug,
  ) as CurrencyRow[]

/** The currency with the largest patrimony in CLP on the index's last date. */
export const defaultCurrency = (rows: ReadonlyArray<CurrencyRow>): string =>
  headlineCurrency(Object.fromEntries(rows.map((r) => [r.currency, { patrimonyClp: r.patrimony_clp }])))

interface Rendered {
  readonly dates: ReadonlyArray<number>
  readonly items: ReadonlyArray<string>
}

const rendered = (db: Database.Database, slug: string, currency: string): Rendered =>
  memoLru(db, "familyIndex", `${slug}|${currency}`, 128, () => {
    const rows = prepared(db, "SELECT date, value, change FROM market_family_index WHERE family_slug = ? AND currency = ? ORDER BY date")
      .raw(true)
      .all(slug, currency) as Array<[number, number, number | null]>
    return {
      dates: rows.map((r) => r[0]),
      items: rows.map(([date, value, change]) =>
        change === null
          ? `{"date":"${toIsoDate(date)}","value":${value}}`
          : `{"date":"${toIsoDate(date)}","value":${value},"change":${change}}`,
      ),
    }
  })

/** The index points from `fromDate` (inclusive) as JSON array items. */
export const indexItems = (db: Database.Database, slug: string, currency: string, fromDate: number): ReadonlyArray<string> => {
  const r = rendered(db, slug, currency)
  let lo = 0
  let hi = r.dates.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (r.dates[mid]! < fromDate) lo = mid + 1
    else hi = mid
  }
  return r.items.slice(lo)
}

export const familyIndexMeta = (
  family: { familyRar: string; slug: string } | null,
  familyText: string,
  currency: string | null,
  currencies: ReadonlyArray<CurrencyRow>,
  available: boolean,
) => ({
  family: family?.familyRar ?? familyText,
  family_slug: family?.slug ?? null,
  currency,
  availableCurrencies: currencies.map((c) => c.currency),
  base: BASE_VALUE,
  baseDate: (() => {
    const row = currencies.find((c) => c.currency === currency)
    return row === undefined ? null : toIsoDate(row.first_date)
  })(),
  methodology: "family_index_v1",
  methodologyDescription: FAMILY_INDEX_METHODOLOGY,
  available,
})
