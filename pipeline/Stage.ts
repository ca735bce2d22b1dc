/**
 * Staging: parsed inputs → the snapshot's tables. It only renames, casts, deduplicates and keys
 * rows; no computation. Rows after the batch date are left out (a batch is a cutoff).
 */
import { Effect } from "effect"
import type { DataSetName, FmRegistryRecord } from "../schemas/CmfRecords.ts"
import type { AfmCategoryRecord } from "../schemas/records/AfmCategories.ts"
import type { Article107Record } from "../schemas/records/Article107.ts"
import type { BenchmarkCatalogRecord } from "../schemas/records/BenchmarkCatalog.ts"
import type { BenchmarkPriceRecord } from "../schemas/records/BenchmarkPrices.ts"
import type { CmfSpheresRecord } from "../schemas/records/CmfSpheres.ts"
import type { EtfTickerRecord } from "../schemas/records/EtfTickers.ts"
import type { FiBookValueRecord } from "../schemas/records/FiBookValues.ts"
import type { FiFactSheetRecord } from "../schemas/records/FiFactSheets.ts"
import type { FiPortfolioRecord } from "../schemas/records/FiPortfolio.ts"
import type { FiRegistryRecord } from "../schemas/records/FiRegistry.ts"
import type { FmPortfolioRecord } from "../schemas/records/FmPortfolio.ts"
import type { FmTacRecord } from "../schemas/records/FmTac.ts"
import type { IndicatorRecord } from "../schemas/records/Indicators.ts"
import type { SeriesRenameRecord } from "../schemas/records/SeriesRenames.ts"
import { stageFi } from "./staging/Fi.ts"
import { stageArticle107, stageFmHoldings, stageRenames, stageTac } from "./staging/FmExtras.ts"
import { stageAfm, stageBenchmarks, stageIndicators, stageSpheres } from "./staging/Market.ts"
import { dateToInt } from "../schemas/Dates.ts"
import { conceptId, providerId } from "../schemas/Ids.ts"
import type { AdministratorsTable, FundsTable, SeriesTable, SnapshotDatabase } from "../snapshots/Tables.ts"
import type { CmfFileInvalid } from "./sources/CmfFileInvalid.ts"
import type { CartolaInput } from "./staging/CartolaColumns.ts"
import { mergeQuotas, type StagedQuotas } from "./staging/Quotas.ts"

export interface StageInputs {
  readonly registry: ReadonlyArray<FmRegistryRecord>
  readonly cartolas: ReadonlyArray<CartolaInput>
  readonly others: ReadonlyMap<DataSetName, ReadonlyArray<{ readonly name: string; readonly records: ReadonlyArray<unknown> }>>
  readonly fiUnavailable: string | null
}

export interface StagedBatch {
  readonly meta: Record<string, string>
  readonly administrators: AdministratorsTable[]
  readonly funds: FundsTable[]
  readonly series: SeriesTable[]
  readonly quotas: StagedQuotas
  /** Every other table, ready to insert, in key order. */
  readonly tables: ReadonlyArray<readonly [keyof SnapshotDatabase, ReadonlyArray<unknown>]>
  readonly repairs: Record<string, number>
}

/** The records of one data set across its files, in the ledger's order (newest observation last). */
const recordsOf = <R>(inputs: StageInputs, dataSet: DataSetName): ReadonlyArray<R> =>
  (inputs.others.get(dataSet) ?? []).flatMap((f) => f.records as ReadonlyArray<R>)

export const stage = (inputs: StageInputs, batchDate: string): Effect.Effect<StagedBatch, CmfFileInvalid> =>
  Effect.gen(function* () {
    const cutoff = dateToInt(batchDate)
    const renames = stageRenames(recordsOf<SeriesRenameRecord>(inputs, "series_renames"))
    const quotas = yield* mergeQuotas(inputs.cartolas, cutoff, renames.relabel)
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

    const adminRows = [...administrators.values()].sort((a, b) => a.provider_id - b.provider_id)
    const fundRows = [...funds.values()].sort((a, b) => a.concept_id - b.concept_id)
    const known = new Set(series.map((s) => s.asset_id))
    const aliasRows = renames.aliases.filter((a) => known.has(a.asset_id))
    const aliasOf = new Map(aliasRows.map((a) => [a.alias_id, a.asset_id]))
    const tac = stageTac(recordsOf<FmTacRecord>(inputs, "fm_tac"), fundRows, adminRows, known, aliasOf)
    const afm = stageAfm(recordsOf<AfmCategoryRecord>(inputs, "afm_categories"), known, aliasOf)
    const spheres = stageSpheres(recordsOf<CmfSpheresRecord>(inputs, "cmf_spheres"), known, aliasOf)
    const benchmarks = stageBenchmarks(
      recordsOf<BenchmarkCatalogRecord>(inputs, "benchmark_catalog"),
      recordsOf<BenchmarkPriceRecord>(inputs, "benchmark_prices"),
      cutoff,
    )
    const fi =
      inputs.fiUnavailable === null
        ? stageFi(
            {
              registry: recordsOf<FiRegistryRecord>(inputs, "fi_registry"),
              bookValues: recordsOf<FiBookValueRecord>(inputs, "fi_book_values"),
              portfolios: recordsOf<FiPortfolioRecord>(inputs, "fi_portfolio"),
              factSheets: recordsOf<FiFactSheetRecord>(inputs, "fi_fact_sheets"),
              etfTickers: recordsOf<EtfTickerRecord>(inputs, "etf_tickers"),
            },
            adminRows,
            cutoff,
          )
        : null
    Object.assign(repairs, tac.repairs, afm.repairs, spheres.repairs, benchmarks.repairs, fi?.repairs ?? {})
    return {
      meta: {
        ...(afm.reportDate === null ? {} : { afm_report_date: afm.reportDate }),
        fi_status: fi === null ? "unavailable" : "available",
        ...(inputs.fiUnavailable === null ? {} : { fi_unavailable_reason: inputs.fiUnavailable }),
      },
      administrators: adminRows,
      funds: fundRows,
      series,
      quotas,
      tables: [
        ["tac", tac.rows],
        ["fm_holdings", stageFmHoldings(recordsOf<FmPortfolioRecord>(inputs, "fm_portfolio"))],
        ["series_aliases", aliasRows],
        ["article107", stageArticle107(recordsOf<Article107Record>(inputs, "article107"))],
        ["indicators", stageIndicators(recordsOf<IndicatorRecord>(inputs, "indicators"), cutoff)],
        ["afm_categories", afm.rows],
        ["cmf_spheres", spheres.rows],
        ["benchmarks", benchmarks.benchmarks],
        ["benchmark_prices", benchmarks.prices],
        ["fi_instruments", fi?.instruments ?? []],
        ["fi_series", fi?.series ?? []],
        ["fi_prices", fi?.prices ?? []],
        ["fi_holdings", fi?.holdings ?? []],
        ["fi_fact_sheets", fi?.factSheets ?? []],
      ],
      repairs,
    }
  })
