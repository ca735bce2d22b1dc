/**
 * The core tables: administrators and funds from the FM registry; series and their daily values
 * from the daily-values data sets (funds reporting values that the registry does not list are kept,
 * and counted).
 */
import { Effect } from "effect"
import type { FmRegistryRecord } from "./FmRegistry.ts"
import { dateToInt } from "../../../schemas/Dates.ts"
import { conceptId, providerId } from "../../../schemas/Ids.ts"
import type { FmBprDailyRecord } from "./FmBprDaily.ts"
import { fundEnded } from "../../../snapshots/compute/SeriesActivity.ts"
import type { AdministratorsTable, FundsTable, SeriesTable } from "../../../snapshots/Tables.ts"
import type { QuotaSourcesTable } from "../../../snapshots/tables/FmExtras.ts"
import type { IncrementBase } from "../IncrementBase.ts"
import type { StageContext } from "../StageContext.ts"
import type { CartolaColumns, CartolaInput, CartolaSeriesInfo } from "./CartolaInput.ts"
import { type MergedQuotas, mergeQuotasInto } from "./Quotas.ts"

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
    const cartolas = context.files("cartola_diaria").map((f) => f.data() as CartolaInput)
    const bpr = bprInputs(context)
    const { base } = context
    const region = base === null ? null : { from: base.from, seed: base.seed }
    const quotas = yield* mergeQuotasInto([...cartolas, ...bpr], context.cutoff, context.relabel, region, context.quotaSink)
    const { administrators, funds } = context
    let missing = 0
    const series: SeriesTable[] = []
    const listed =
      base === null
        ? quotas.series.map((s) => ({ info: s as CartolaSeriesInfo, assetId: s.assetId, first: s.firstDate, last: s.lastDate }))
        : withBase(base, quotas)
    for (const { info: s, assetId, first, last } of listed) {
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
        asset_id: assetId,
        concept_id: conceptId(s.run),
        run: s.run,
        serie: s.serie,
        currency: s.currencyCode,
        first_date: first,
        last_date: last,
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
        latest_from_source: s.provisionalLast === s.lastDate ? 1 : 0,
      })
    }
    const known = new Set(series.map((s) => s.asset_id))
    const aliasRows = context.renameAliases.filter((a) => known.has(a.asset_id))
    const core = {
      series,
      administrators: [...administrators.values()].sort((a: AdministratorsTable, b) => a.provider_id - b.provider_id),
      funds: [...funds.values()].sort((a: FundsTable, b) => a.concept_id - b.concept_id),
      known,
      aliasOf: new Map(aliasRows.map((a) => [a.alias_id, a.asset_id])),
      quotaSources: {
        bpr_series: sources.filter((s) => s.latest_from_source === 1).length,
        bpr_rows: sources.reduce((n, s) => n + s.rows, 0),
      },
    }
    context.put("administrators", core.administrators)
    context.put("funds", core.funds)
    context.put("series", series)
    context.put("quota_sources", sources)
    context.put("series_aliases", aliasRows)
    context.core = core
  })

/**
 * An increment's series: the previous snapshot's and the merged region's, in asset-id order. A
 * series keeps its first date from before `from`, and takes its last from the region, or its last
 * before `from` when the region has no row of it (a series with neither is gone); its name and
 * currency are what the merge settled on over every input's series list, as in a cold build.
 */
const withBase = (base: IncrementBase, quotas: MergedQuotas) => {
  const region = new Map(quotas.series.map((s) => [s.assetId, s]))
  const old = new Map(base.series.map((s) => [s.asset_id, s]))
  const ids = [...new Set([...region.keys(), ...old.keys()])].sort((a, b) => a - b)
  const listed: Array<{ info: CartolaSeriesInfo; assetId: number; first: number; last: number }> = []
  for (const id of ids) {
    const r = region.get(id)
    const o = old.get(id)
    const info = quotas.seen.get(id)
    if (info === undefined) throw new Error(`increment: series ${id} of the previous snapshot is in no input's series list`)
    const before = o !== undefined && o.lastBefore !== null ? o : null
    if (r === undefined && before === null) continue
    listed.push({
      info,
      assetId: id,
      first: before !== null ? before.first_date : r!.firstDate,
      last: r !== undefined ? r.lastDate : before!.lastBefore!,
    })
  }
  return listed
}

/** The BPR report's decimals of valor cuota: a cartola value further from it than half a unit of the last is a correction. */
const BPR_PRICE_DECIMALS = 4

/**
 * Each daily BPR file as a provisional input of the quota merge: a row gives way to the cartola's
 * for the same series and date. The BPR names no administrator RUT: it is the registry's; rows of a
 * fund the registry does not list are left out and counted.
 */
const bprInputs = (context: StageContext): CartolaInput[] =>
  context.files("fm_bpr_daily").map((file) => {
    const records = file.data() as ReadonlyArray<FmBprDailyRecord>
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
      // the BPR reports no flows
      unitsSubscribed: new Float64Array(n).fill(Number.NaN),
      unitsRedeemed: new Float64Array(n).fill(Number.NaN),
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
