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
import { dateToInt } from "../../schemas/Dates.ts"
import { fundEnded } from "../../snapshots/compute/SeriesActivity.ts"
import type { FmBprDailyRecord } from "../../schemas/records/FmBprDaily.ts"
import type { QuotaSourcesTable } from "../../snapshots/tables/FmExtras.ts"
import type { CartolaColumns, CartolaInput, CartolaSeriesInfo } from "./CartolaColumns.ts"
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
        is_current: fundEnded(r.endDate, dateToInt(context.batchDate)) ? 0 : 1,
      })
    }
  })

/**
 * The daily-values step: the cartola's columns merged into the quota table (renamed series joined),
 * the series table, and the core every later step keys by.
 */
export const stageDailyValues = (context: StageContext) =>
  Effect.gen(function* () {
    const cartolas = context.files("cartola_diaria").map((f) => f.data as CartolaInput)
    const bpr = bprInputs(context)
    const quotas = yield* mergeQuotas([...cartolas, ...bpr], context.cutoff, context.relabel)
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
    context.corrections.push(...quotas.corrections)
    const sources: QuotaSourcesTable[] = []
    for (const s of quotas.series) {
      if (s.provisionalRows === 0) continue
      sources.push({
        asset_id: s.assetId,
        source: "fm_bpr_daily",
        rows: s.provisionalRows,
        first_date: s.provisionalFirst,
        last_date: s.provisionalLast,
        latest_from_source: s.provisionalLast === quotas.date[s.end - 1] ? 1 : 0,
      })
    }
    context.tables.set("quota_sources", sources)
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

/** The BPR report's decimals of valor cuota: a cartola value further from it than half a unit of the last is a correction. */
const BPR_PRICE_DECIMALS = 4

/**
 * Each daily BPR file as a provisional input of the quota merge: a row gives way to the cartola's
 * for the same series and date. The BPR names no administrator RUT: it is the registry's; rows of a
 * fund the registry does not list are left out and counted.
 */
const bprInputs = (context: StageContext): CartolaInput[] =>
  context.files("fm_bpr_daily").map((file) => {
    const records = file.data as ReadonlyArray<FmBprDailyRecord>
    const kept = records.filter((r) => context.funds.has(r.run))
    const left = records.length - kept.length
    if (left > 0) context.repairs["fm_bpr_daily.rows_of_funds_not_in_registry"] = (context.repairs["fm_bpr_daily.rows_of_funds_not_in_registry"] ?? 0) + left
    const series: CartolaSeriesInfo[] = []
    const index = new Map<string, number>()
    const n = kept.length
    const columns = {
      seriesIndex: new Int32Array(n),
      date: new Int32Array(n),
      price: new Float64Array(n),
      patrimony: new Float64Array(n),
      holders: new Float64Array(n),
      factorAjuste: new Float64Array(n).fill(Number.NaN),
      factorReparto: new Float64Array(n).fill(Number.NaN),
      line: new Int32Array(n),
    }
    kept.forEach((r, i) => {
      const serie = r.serie.trim().toUpperCase()
      const key = `${r.run}|${serie}`
      let k = index.get(key)
      if (k === undefined) {
        k = series.length
        index.set(key, k)
        const admin = context.administrators.get(context.funds.get(r.run)!.provider_id)!
        series.push({ run: r.run, serie, currencyCode: r.currencyCode, agfRut: admin.rut, agfName: r.agfName ?? admin.name })
      }
      columns.seriesIndex[i] = k
      columns.date[i] = dateToInt(r.date)
      columns.price[i] = r.price
      columns.patrimony[i] = r.patrimony
      columns.holders[i] = r.holders
      columns.line[i] = r.line
    })
    const loaded: CartolaColumns = { file: file.name, series, ...columns, repairs: {} }
    return {
      file: file.name,
      firstDate: columns.date[0] ?? 0,
      load: () => loaded,
      provisional: { dataSet: "fm_bpr_daily", decimals: BPR_PRICE_DECIMALS },
    }
  })
