/** Parsed UF and observed-dollar values (data set `indicators`): what `real_uf` and `clp` valuations deflate or convert with. */
import { Schema } from "effect"

/** `UF` (unidad de fomento, CLP per UF) or `USD` (dólar observado, CLP per USD). */
export const IndicatorName = Schema.Literals(["UF", "USD"]).annotate({
  description: "UF (CLP per unidad de fomento) or USD (dólar observado, CLP per US dollar)",
})
export type IndicatorName = typeof IndicatorName.Type

/** Which API answer a value came from: the Central Bank's SIETE series or the CMF (ex-SBIF) API. */
export const IndicatorProvider = Schema.Literals(["bcentral_siete", "cmf_api"])
export type IndicatorProvider = typeof IndicatorProvider.Type

/** One published value of an indicator on one calendar day. */
export interface IndicatorRecord {
  readonly indicator: IndicatorName
  /** YYYY-MM-DD */
  readonly date: string
  /** Pesos per unit, always > 0. */
  readonly value: number
  readonly provider: IndicatorProvider
}
