/**
 * Staging: parsed inputs → the snapshot's tables. It only renames, casts, deduplicates and keys
 * rows; no computation. Rows after the batch date are left out (a batch is a cutoff).
 */
import { Effect } from "effect"
import type { FmRegistryRecord } from "../schemas/CmfRecords.ts"
import { dateToInt } from "../schemas/Dates.ts"
import { conceptId, providerId } from "../schemas/Ids.ts"
import type { AdministratorsTable, FundsTable, SeriesTable } from "../snapshots/Tables.ts"
import type { CmfFileInvalid } from "./sources/CmfFileInvalid.ts"
import type { CartolaColumns } from "./staging/CartolaColumns.ts"
import { mergeQuotas, type StagedQuotas } from "./staging/Quotas.ts"

export interface StageInputs {
  readonly registry: ReadonlyArray<FmRegistryRecord>
  readonly cartolas: ReadonlyArray<CartolaColumns>
}

export interface StagedBatch {
  readonly administrators: AdministratorsTable[]
  readonly funds: FundsTable[]
  readonly series: SeriesTable[]
  readonly quotas: StagedQuotas
  readonly repairs: Record<string, number>
}

export const stage = (inputs: StageInputs, batchDate: string): Effect.Effect<StagedBatch, CmfFileInvalid> =>
  Effect.gen(function* () {
    const quotas = yield* mergeQuotas(inputs.cartolas, dateToInt(batchDate))
    const repairs: Record<string, number> = { ...quotas.repairs, funds_missing_from_registry: 0 }
    const administrators = new Map<number, AdministratorsTable>()
    const funds = new Map<number, FundsTable>()

    for (const r of inputs.registry) {
      const pid = providerId(r.agfRut)
      administrators.set(pid, { provider_id: pid, rut: r.agfRut, name: r.agfName })
      funds.set(r.run, {
        concept_id: conceptId(r.run),
        run: r.run,
        provider_id: pid,
        name: r.fundName,
        short_name: r.shortName === "" ? null : r.shortName,
        fund_type: r.fundType,
        currency: r.currencyCode === "" ? null : r.currencyCode,
        start_date: r.startDate,
        end_date: r.endDate,
        is_current: r.endDate === null || r.endDate > batchDate ? 1 : 0,
      })
    }

    const series: SeriesTable[] = []
    for (const s of quotas.series) {
      if (!funds.has(s.run)) {
        // A fund reporting daily values that the registry does not list: keep it, and say so.
        const pid = providerId(s.agfRut)
        if (!administrators.has(pid)) administrators.set(pid, { provider_id: pid, rut: s.agfRut, name: s.agfName })
        funds.set(s.run, {
          concept_id: conceptId(s.run),
          run: s.run,
          provider_id: pid,
          name: `FONDO MUTUO RUN ${s.run}`,
          short_name: null,
          fund_type: null,
          currency: s.currencyCode,
          start_date: null,
          end_date: null,
          is_current: 1,
        })
        repairs.funds_missing_from_registry!++
      }
      series.push({
        asset_id: s.assetId,
        concept_id: conceptId(s.run),
        run: s.run,
        serie: s.serie,
        currency: s.currencyCode,
        first_date: quotas.date[s.start]!,
        last_date: quotas.date[s.end - 1]!,
      })
    }

    return {
      administrators: [...administrators.values()].sort((a, b) => a.provider_id - b.provider_id),
      funds: [...funds.values()].sort((a, b) => a.concept_id - b.concept_id),
      series,
      quotas,
      repairs,
    }
  })
