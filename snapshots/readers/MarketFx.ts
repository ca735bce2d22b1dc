/**
 * Conversion to CLP for market totals: CLP as it is, USD × the observed dollar (indicators, USD)
 * of the date (the last observation on or before it, at most TOLERANCE_DAYS old). EUR has no rate
 * in the batch's data, so EUR amounts are left out of CLP totals and counted as unconverted.
 */
import type Database from "better-sqlite3"
import { currencyOf } from "../../schemas/FundClass.ts"
import { addDays } from "../compute/Calendar.ts"
import { prepared } from "./MarketDb.ts"
import { TOLERANCE_DAYS } from "./MarketUniverse.ts"

/** CLP per USD on `date` (YYYYMMDD), or null without a recent enough observation. */
export const usdOn = (db: Database.Database, date: number): number | null => {
  const row = prepared(db, "SELECT date, value FROM indicators WHERE indicator = 'USD' AND date <= ? ORDER BY date DESC LIMIT 1").get(
    date,
  ) as { date: number; value: number } | undefined
  return row === undefined || row.date < addDays(date, -TOLERANCE_DAYS) ? null : row.value
}

/** `amount` in CLP, or null when it cannot be converted (EUR, unknown currency, no USD rate). */
export const toClp = (amount: number | null, currencyCode: string | null, usdClp: number | null): number | null => {
  if (amount === null) return null
  switch (currencyOf(currencyCode)) {
    case "CLP":
      return amount
    case "USD":
      return usdClp === null ? null : amount * usdClp
    default:
      return null
  }
}
