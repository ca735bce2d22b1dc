/**
 * Fund flows (net subscriptions), the arithmetic the pipeline's totals (pipeline/compute/MarketFlows.ts)
 * and the API's per-series and per-fund days (api/market/MarketFlowsRows.ts) share: a series-day
 * flows (CUOTAS_APORTADAS − CUOTAS_RESCATADAS) × VALOR_CUOTA of that day's cartola row, in the
 * series' accounting currency; in CLP, CLP as it is and USD × the observed dollar of the same date
 * (snapshots/readers/MarketFx.ts); EUR and unknown currencies have no CLP value (left out, counted).
 */
import { currencyOf } from "../../schemas/FundClass.ts"

/** The accounting currency a flow is summed in: ISO (CLP, USD, EUR), else the CMF code as given, else "unknown". */
export const flowCurrency = (code: string | null): string => currencyOf(code) ?? (code?.trim() || "unknown")

/** Sums of series-days of one entity, period and currency. */
export class FlowTotals {
  subscribed = 0
  redeemed = 0
  net = 0
  subscribedClp = 0
  redeemedClp = 0
  netClp = 0
  /** Series-days summed (units reported). */
  seriesDays = 0
  /** Series-days with a value but no units (a provisional BPR value): left out. */
  unreported = 0
  /** Series-days summed in the currency whose CLP value is unknown (EUR, or USD without a rate). */
  unconverted = 0
  readonly series = new Set<number>()

  /**
   * Adds one series-day: `unitsSubscribed`/`unitsRedeemed` (null: not reported), its `price`, and
   * the CLP per unit of its currency on that date (1 for CLP, the observed dollar for USD; null: none).
   */
  add(assetId: number, unitsSubscribed: number | null, unitsRedeemed: number | null, price: number, clpPerUnit: number | null): void {
    this.series.add(assetId)
    if (unitsSubscribed === null || unitsRedeemed === null) {
      this.unreported++
      return
    }
    const subscribed = unitsSubscribed * price
    const redeemed = unitsRedeemed * price
    const net = (unitsSubscribed - unitsRedeemed) * price
    this.subscribed += subscribed
    this.redeemed += redeemed
    this.net += net
    this.seriesDays++
    if (clpPerUnit === null) {
      this.unconverted++
      return
    }
    this.subscribedClp += subscribed * clpPerUnit
    this.redeemedClp += redeemed * clpPerUnit
    this.netClp += net * clpPerUnit
  }

  /** The CLP sums, or null when no summed series-day could be converted. */
  clp(): { readonly subscribed: number; readonly redeemed: number; readonly net: number } | null {
    return this.seriesDays > this.unconverted ? { subscribed: this.subscribedClp, redeemed: this.redeemedClp, net: this.netClp } : null
  }
}

/** CLP per unit of `currency` (flowCurrency's) on a date with observed dollar `usdClp`: null when it has no rate. */
export const clpPerUnit = (currency: string, usdClp: number | null): number | null =>
  currency === "CLP" ? 1 : currency === "USD" ? usdClp : null
