/**
 * Pieces every returns-shaped answer shares (FM and FI `/returns`, compare rows): the quota
 * currency label of a series, and the CMF spheres body as of a requested date.
 */
import { currencyOf } from "../../schemas/FundClass.ts"
import type { CmfSpheresTable } from "../../snapshots/tables/Market.ts"

const QUOTA_CURRENCY: Readonly<Record<string, "PESOS" | "DOLAR" | "EURO">> = { CLP: "PESOS", USD: "DOLAR", EUR: "EURO" }

/** PESOS, DOLAR or EURO for a series' currency code; null when it is another or unknown. */
export const quotaCurrencyOf = (currencyCode: string | null): "PESOS" | "DOLAR" | "EURO" | null =>
  QUOTA_CURRENCY[currencyOf(currencyCode) ?? ""] ?? null

/** The `cmf_spheres` body: the CMF rating known on or before `cutoff` (YYYY-MM-DD), or why not. */
export const cmfSpheresBody = (row: CmfSpheresTable | undefined, cutoff: string) => {
  const base = { source: "CMF" as const, indicator: "ind_rar_pond" as const, scale_min: 1 as const, scale_max: 5 as const }
  if (row === undefined) {
    return { ...base, value: null, status: "unavailable" as const, reason: "not_in_source" as const, as_of_date: null, family: null, investor_type: null }
  }
  const known = { as_of_date: row.as_of, family: row.family, investor_type: row.investor_type }
  if (row.as_of > cutoff) return { ...base, ...known, value: null, status: "unavailable" as const, reason: "source_after_requested_date" as const }
  if (row.spheres === null) return { ...base, ...known, value: null, status: "unavailable" as const, reason: "not_rated_by_cmf" as const }
  return { ...base, ...known, value: row.spheres, status: "available" as const, reason: null }
}
