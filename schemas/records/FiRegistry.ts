/** One investment fund (FI/ETF) of a CMF list page (`consulta.php?entidad=FIRES|FINRE&Estado=VI|NV`). */
import { Schema } from "effect"

/** CMF register of the fund: FIRES = rescatable (redeemable), FINRE = no rescatable. */
export const FiRegulatoryType = Schema.Literals(["FIRES", "FINRE"]).annotate({
  description: "CMF register of an investment fund: FIRES (rescatable) or FINRE (no rescatable)"
})
export type FiRegulatoryType = typeof FiRegulatoryType.Type

/** Which list the row came from: `Estado=VI` (vigentes) is active, `Estado=NV` inactive. */
export const FiListStatus = Schema.Literals(["active", "inactive"]).annotate({
  description: "active when listed as vigente (VI), inactive when listed as no vigente (NV)"
})
export type FiListStatus = typeof FiListStatus.Type

export interface FiRegistryRecord {
  /** Row of the list table (1 = its header row). */
  readonly line: number
  /** Fund RUN without check digit (the check digit was verified). */
  readonly run: number
  /** Fund name ("Entidad"), mojibake repaired. */
  readonly name: string
  /** Administrator name as the list writes it (no RUT on these pages). */
  readonly agfName: string
  readonly regulatoryType: FiRegulatoryType
  /**
   * From the list, not the row: a RUN can be on both the VI and the NV list of the same type (real
   * RUN 9251); deciding which wins is staging's job.
   */
  readonly status: FiListStatus
  /** The row's own state cell ("Estado") on pages that have one, as written; null otherwise. */
  readonly stateText: string | null
}
