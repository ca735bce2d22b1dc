/** Staging of the FM data sets beyond daily values: TAC, portfolios, article 107, renames. */
import { Effect } from "effect"
import { dateToInt } from "../../../schemas/Dates.ts"
import { assetId } from "../../../schemas/Ids.ts"
import type { Article107Record } from "./Article107.ts"
import type { FmPortfolioRecord } from "./FmPortfolio.ts"
import type { FmTacRecord } from "./FmTac.ts"
import type { SeriesRenameRecord } from "./SeriesRenames.ts"
import type { AdministratorsTable, FundsTable } from "../../../snapshots/Tables.ts"
import type { Article107Table, FmHoldingsTable, SeriesAliasesTable, TacTable } from "../../../snapshots/tables/FmExtras.ts"
import { coreOf, type StageContext } from "../StageContext.ts"
import { normalizeAdminName, normalizeFundName } from "./FmTac.ts"
import { percentToFraction } from "../../cmf/Units.ts"

/** Renames as the quota merge needs them: "RUN|OLD" → NEW, and the alias rows. */
export const stageRenames = (records: ReadonlyArray<SeriesRenameRecord>) => {
  const relabel = new Map<string, string>()
  const aliases: SeriesAliasesTable[] = []
  for (const r of records) {
    const previous = r.oldSerie.trim().toUpperCase()
    const current = r.newSerie.trim().toUpperCase()
    relabel.set(`${r.run}|${previous}`, current)
    aliases.push({
      alias_id: assetId(r.run, previous),
      asset_id: assetId(r.run, current),
      run: r.run,
      previous_serie: previous,
      current_serie: current,
      first_current_date: dateToInt(r.firstDate),
    })
  }
  aliases.sort((a, b) => a.alias_id - b.alias_id)
  return { relabel, aliases }
}

/**
 * TAC rows carry no RUN: a row is matched to its fund by normalised administrator and fund name
 * (mojibake repaired, a trailing "(n)" dropped), then to the series by label. Unmatched rows and
 * rows without a TAC total are counted, not fatal; percentages become fractions.
 */
export const stageTac = (
  records: ReadonlyArray<FmTacRecord>,
  funds: ReadonlyArray<FundsTable>,
  administrators: ReadonlyArray<AdministratorsTable>,
  knownSeries: ReadonlySet<number>,
  aliasOf: ReadonlyMap<number, number>,
) => {
  const adminName = new Map(administrators.map((a) => [a.provider_id, normalizeAdminName(a.name)]))
  const runOf = new Map<string, number>()
  for (const f of funds) runOf.set(`${adminName.get(f.provider_id)}|${normalizeFundName(f.name)}`, f.run)
  const rows = new Map<string, TacTable>()
  const repairs = { tac_rows_without_total: 0, tac_rows_unmatched_fund: 0, tac_rows_unmatched_series: 0 }
  for (const r of records) {
    if (r.tacTotalPercent === null) {
      repairs.tac_rows_without_total++
      continue
    }
    const run = runOf.get(`${normalizeAdminName(r.agfName)}|${normalizeFundName(r.fundName)}`)
    if (run === undefined) {
      repairs.tac_rows_unmatched_fund++
      continue
    }
    const raw = assetId(run, r.serie)
    const id = aliasOf.get(raw) ?? raw
    if (!knownSeries.has(id)) {
      repairs.tac_rows_unmatched_series++
      continue
    }
    const frac = (p: number | null) => (p === null ? null : percentToFraction(p))
    rows.set(`${id}|${r.month}`, {
      asset_id: id,
      month: r.month,
      tac: percentToFraction(r.tacTotalPercent),
      tac_fixed: frac(r.tacFixedFeePercent),
      tac_variable: frac(r.tacVariableFeePercent),
      tac_expenses: frac(r.tacOperatingExpensesPercent),
    })
  }
  const sorted = [...rows.values()].sort((a, b) => a.asset_id - b.asset_id || (a.month < b.month ? -1 : 1))
  return { rows: sorted, repairs }
}

/** Portfolio positions numbered in file order within (RUN, month, market). */
export const stageFmHoldings = (records: ReadonlyArray<FmPortfolioRecord>): FmHoldingsTable[] => {
  const next = new Map<string, number>()
  const rows: FmHoldingsTable[] = []
  for (const r of records) {
    const key = `${r.run}|${r.month}|${r.market}`
    const position = (next.get(key) ?? 0) + 1
    next.set(key, position)
    rows.push({
      run: r.run,
      month: r.month,
      market: r.market,
      position,
      instrument_code: r.instrumentCode,
      issuer_rut: r.issuerRut,
      issuer_name: r.issuerName,
      issuer_country: r.issuerCountry,
      instrument_type: r.instrumentType,
      maturity_date: r.maturityDate,
      valuation_thousands: r.valuationThousands,
      pct_fund_assets: r.fundAssetsPercent,
    })
  }
  return rows.sort(
    (a, b) => a.run - b.run || (a.month < b.month ? -1 : a.month > b.month ? 1 : 0) || (a.market < b.market ? -1 : a.market > b.market ? 1 : 0) || a.position - b.position,
  )
}

/** The newest regulation per fund. */
export const stageArticle107 = (records: ReadonlyArray<Article107Record>): Article107Table[] => {
  const latest = new Map<number, Article107Record>()
  for (const r of records) {
    const seen = latest.get(r.run)
    if (seen === undefined || r.regulationDate >= seen.regulationDate) latest.set(r.run, r)
  }
  return [...latest.values()]
    .sort((a, b) => a.run - b.run)
    .map((r) => ({
      run: r.run,
      status: r.status,
      regulation_date: r.regulationDate,
      evidence: JSON.stringify(r.evidence.map((e) => ({ line: e.line, text: e.text }))),
      series_exception: JSON.stringify(r.seriesException),
    }))
}

/** The renames step: first, so that the daily values join a renamed series' old label. */
export const renamesStep = (context: StageContext) =>
  Effect.sync(() => {
    const renames = stageRenames(context.records<SeriesRenameRecord>("series_renames"))
    context.relabel = renames.relabel
    context.renameAliases = renames.aliases
  })

export const tacStep = (context: StageContext) =>
  Effect.sync(() => {
    const core = coreOf(context)
    const tac = stageTac(context.records<FmTacRecord>("fm_tac"), core.funds, core.administrators, core.known, core.aliasOf)
    context.put("tac", tac.rows)
    Object.assign(context.repairs, tac.repairs)
  })

export const fmHoldingsStep = (context: StageContext) =>
  Effect.sync(() => void context.put("fm_holdings", stageFmHoldings(context.records<FmPortfolioRecord>("fm_portfolio"))))

export const article107Step = (context: StageContext) =>
  Effect.sync(() => void context.put("article107", stageArticle107(context.records<Article107Record>("article107"))))
