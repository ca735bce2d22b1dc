/**
 * Staging: parsed CMF records → the snapshot's tables. It only renames, casts, deduplicates and
 * keys rows; no computation. Rows after the batch date are left out (a batch is a cutoff).
 * Conflicting duplicates across files reject the batch, naming both places.
 */
import { Effect } from "effect"
import type { CartolaRecord, FmRegistryRecord } from "../schemas/CmfRecords.ts"
import { dateToInt } from "../schemas/Dates.ts"
import { assetId, conceptId, providerId } from "../schemas/Ids.ts"
import type { AdministratorsTable, FundsTable, QuotasTable, SeriesTable } from "../snapshots/Tables.ts"
import { type CmfFileInvalid, cmfFileInvalid } from "./sources/CmfFileInvalid.ts"

export interface ParsedFile {
  readonly name: string
  readonly registry?: ReadonlyArray<FmRegistryRecord>
  readonly cartola?: ReadonlyArray<CartolaRecord>
}

export interface StagedBatch {
  readonly administrators: AdministratorsTable[]
  readonly funds: FundsTable[]
  readonly series: SeriesTable[]
  readonly quotas: QuotasTable[]
  readonly repairs: Record<string, number>
}

interface QuotaSource {
  readonly row: QuotasTable
  readonly file: string
  readonly line: number
}

export const stage = (files: ReadonlyArray<ParsedFile>, batchDate: string): Effect.Effect<StagedBatch, CmfFileInvalid> =>
  Effect.suspend(() => {
    const cutoff = dateToInt(batchDate)
    const repairs: Record<string, number> = { duplicate_rows_across_files: 0, rows_after_batch_date: 0, funds_missing_from_registry: 0 }
    const administrators = new Map<number, AdministratorsTable>()
    const funds = new Map<number, FundsTable>()

    for (const file of files) {
      for (const r of file.registry ?? []) {
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
    }

    const bySeries = new Map<number, { run: number; serie: string; currency: string; rows: Map<number, QuotaSource> }>()
    for (const file of files) {
      for (const r of file.cartola ?? []) {
        const date = dateToInt(r.date)
        if (date > cutoff) {
          repairs.rows_after_batch_date!++
          continue
        }
        const id = assetId(r.run, r.serie)
        let series = bySeries.get(id)
        if (series === undefined) {
          series = { run: r.run, serie: r.serie.trim().toUpperCase(), currency: r.currencyCode, rows: new Map() }
          bySeries.set(id, series)
        } else if (series.run !== r.run || series.serie !== r.serie.trim().toUpperCase()) {
          return Effect.fail(
            cmfFileInvalid({
              dataSet: "cartola_diaria",
              file: file.name,
              line: r.line,
              field: "SERIE",
              detail: `series id collision between ${series.run}/${series.serie} and ${r.run}/${r.serie}`,
            }),
          )
        }
        const row: QuotasTable = {
          asset_id: id,
          date,
          price: r.price,
          patrimony: r.patrimony,
          holders: r.holders,
          factor_ajuste: r.factorAjuste,
          factor_reparto: r.factorReparto,
        }
        const seen = series.rows.get(date)
        if (seen !== undefined) {
          if (sameQuota(seen.row, row)) {
            repairs.duplicate_rows_across_files!++
            continue
          }
          return Effect.fail(
            cmfFileInvalid({
              dataSet: "cartola_diaria",
              file: file.name,
              line: r.line,
              field: "VALOR_CUOTA",
              detail: `RUN ${r.run} serie ${r.serie} on ${r.date} conflicts with ${seen.file} line ${seen.line}`,
            }),
          )
        }
        series.rows.set(date, { row, file: file.name, line: r.line })
        if (!funds.has(r.run)) {
          // A fund reporting daily values that the registry does not list: keep it, and say so.
          const pid = providerId(r.agfRut)
          if (!administrators.has(pid)) administrators.set(pid, { provider_id: pid, rut: r.agfRut, name: r.agfName })
          funds.set(r.run, {
            concept_id: conceptId(r.run),
            run: r.run,
            provider_id: pid,
            name: `FONDO MUTUO RUN ${r.run}`,
            short_name: null,
            fund_type: null,
            currency: r.currencyCode,
            start_date: null,
            end_date: null,
            is_current: 1,
          })
          repairs.funds_missing_from_registry!++
        }
      }
    }

    const series: SeriesTable[] = []
    const quotas: QuotasTable[] = []
    for (const id of [...bySeries.keys()].sort((a, b) => a - b)) {
      const s = bySeries.get(id)!
      const dates = [...s.rows.keys()].sort((a, b) => a - b)
      series.push({
        asset_id: id,
        concept_id: conceptId(s.run),
        run: s.run,
        serie: s.serie,
        currency: s.currency,
        first_date: dates[0]!,
        last_date: dates[dates.length - 1]!,
      })
      for (const d of dates) quotas.push(s.rows.get(d)!.row)
    }

    return Effect.succeed({
      administrators: [...administrators.values()].sort((a, b) => a.provider_id - b.provider_id),
      funds: [...funds.values()].sort((a, b) => a.concept_id - b.concept_id),
      series,
      quotas,
      repairs,
    })
  })

const sameQuota = (a: QuotasTable, b: QuotasTable): boolean =>
  a.price === b.price &&
  a.patrimony === b.patrimony &&
  a.holders === b.holders &&
  a.factor_ajuste === b.factor_ajuste &&
  a.factor_reparto === b.factor_reparto
