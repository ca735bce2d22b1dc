/**
 * The core tables: administrators and funds from the FM registry; series and their daily values
 * from the daily-values data sets (funds reporting values that the registry does not list are kept,
 * and counted).
 */
import { Effect } from "effect"
import type { FmRegistryRecord } from "../../schemas/CmfRecords.ts"
import { conceptId, providerId } from "../../schemas/Ids.ts"
import type { AdministratorsTable, FundsTable, SeriesTable } from "../../snapshots/Tables.ts"
import type { StageContext } from "../Stage.ts"
import type { CartolaInput } from "./CartolaColumns.ts"
import { mergeQuotas } from "./Quotas.ts"

/** The registry step: one administrator per RUT, one fund per RUN (the latest registry file wins). */
export const stageRegistry = (context: StageContext) =>
  Effect.sync(() => {
    for (const r of context.records<FmRegistryRecord>("fm_registry")) {
      const pid = providerId(r.agfRut)
      context.administrators.set(pid, { provider_id: pid, rut: r.agfRut, name: r.agfName })
      context.funds.set(r.run, {
        concept_id: conceptId(r.run),
        run: r.run,
        provider_id: pid,
        name: r.fundName,
        short_name: r.shortName === "" ? null : r.shortName,
        fund_type: r.fundType,
        currency: r.currencyCode === "" ? null : r.currencyCode,
        start_date: r.startDate,
        end_date: r.endDate,
        is_current: r.endDate === null || r.endDate > context.batchDate ? 1 : 0,
      })
    }
  })

/**
 * The daily-values step: the cartola's columns merged into the quota table (renamed series joined),
 * the series table, and the core every later step keys by.
 */
export const stageDailyValues = (context: StageContext) =>
  Effect.gen(function* () {
    const inputs = context.files("cartola_diaria").map((f) => f.data as CartolaInput)
    const quotas = yield* mergeQuotas(inputs, context.cutoff, context.relabel)
    const { administrators, funds } = context
    let missing = 0
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
        missing++
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
    Object.assign(context.repairs, quotas.repairs, { funds_missing_from_registry: missing })
    const known = new Set(series.map((s) => s.asset_id))
    const aliasRows = context.renameAliases.filter((a) => known.has(a.asset_id))
    context.tables.set("series_aliases", aliasRows)
    context.core = {
      quotas,
      series,
      administrators: [...administrators.values()].sort((a: AdministratorsTable, b) => a.provider_id - b.provider_id),
      funds: [...funds.values()].sort((a: FundsTable, b) => a.concept_id - b.concept_id),
      known,
      aliasOf: new Map(aliasRows.map((a) => [a.alias_id, a.asset_id])),
    }
  })
