/**
 * The market universe: the series the market views list, those active at the batch date
 * (compute/SeriesActivity.ts: the fund not ended in the CMF registry, and a value within the
 * grace period of weekdays; a series absorbed by another stops reporting and drops out). The
 * universe is today's: a historical date is a backtest over it. The universe as of a date D
 * (`universeAsOf`, `universe=as_of`) is the same rule applied at D: the series alive then,
 * those ended since included.
 */
import type Database from "better-sqlite3"
import { earliestActiveDate, seriesActive } from "../compute/SeriesActivity.ts"
import { memo, memoLru, prepared } from "./MarketDb.ts"

/** A quote more than this many calendar days before its target date is stale (DESIGN: tolerance_days). */
export const TOLERANCE_DAYS = 7

export interface UniverseSeries {
  readonly assetId: number
  readonly conceptId: number
  readonly providerId: number
  readonly run: number
  readonly serie: string
  /** CMF MONEDA code of the series ($$, PROM, EUR) or null. */
  readonly currencyCode: string | null
  readonly lastDate: number
  readonly fundName: string
  readonly fundType: number | null
  readonly agf: string
  readonly familyRar: string | null
  readonly familySlug: string | null
  /** AFM's currency of the series, PESOS or DOLAR (the family index it belongs to). */
  readonly afmCurrency: string | null
  /**
   * The fund's article 107 status for this series: a series the declaration excepts (an eligible
   * fund's "La Serie APV no se acogerá …", "… con excepción de la Serie APV") is `declares_not_eligible`.
   */
  readonly article107Status: string | null
  readonly continuity: Continuity | null
}

/** A rename of the series: its latest previous label and every id that resolves to it. */
export interface Continuity {
  readonly previousSerie: string
  readonly currentSerie: string
  /** YYYYMMDD */
  readonly firstCurrentDate: number
  /** Current id first, then the previous ids, newest rename first. */
  readonly aliasIds: ReadonlyArray<number>
}

interface AliasRow {
  alias_id: number
  asset_id: number
  previous_serie: string
  current_serie: string
  first_current_date: number
}

/** Renames by current series id (chains A→B→C: both old ids point at C). */
export const continuities = (db: Database.Database): ReadonlyMap<number, Continuity> =>
  memo(db, "continuities", () => {
    const rows = prepared(
      db,
      "SELECT alias_id, asset_id, previous_serie, current_serie, first_current_date FROM series_aliases ORDER BY asset_id, first_current_date DESC, alias_id",
    ).all() as AliasRow[]
    const out = new Map<number, Continuity>()
    for (const r of rows) {
      const seen = out.get(r.asset_id)
      if (seen === undefined) {
        out.set(r.asset_id, {
          previousSerie: r.previous_serie,
          currentSerie: r.current_serie,
          firstCurrentDate: r.first_current_date,
          aliasIds: [r.asset_id, r.alias_id],
        })
      } else {
        out.set(r.asset_id, { ...seen, aliasIds: [...seen.aliasIds, r.alias_id] })
      }
    }
    return out
  })

interface UniverseRow {
  fund_end_date: string | null
  asset_id: number
  concept_id: number
  provider_id: number
  run: number
  serie: string
  currency: string | null
  last_date: number
  fund_name: string
  fund_type: number | null
  agf: string
  family_rar: string | null
  family_slug: string | null
  afm_currency: string | null
  a107: string | null
}

const SELECT_UNIVERSE = `SELECT f.end_date AS fund_end_date, s.asset_id, s.concept_id, f.provider_id, s.run, s.serie, s.currency,
         f.name AS fund_name, f.fund_type, a.name AS agf,
         c.family_rar, c.family_slug, c.currency AS afm_currency,
         CASE WHEN p.status = 'declares_eligible' AND EXISTS (
             SELECT 1 FROM json_each(p.series_exception) e WHERE upper(trim(e.value)) = upper(trim(s.serie)))
           THEN 'declares_not_eligible' ELSE p.status END AS a107`

const FROM_UNIVERSE = `FROM series s
       JOIN funds f ON f.concept_id = s.concept_id
       JOIN administrators a ON a.provider_id = f.provider_id
       LEFT JOIN afm_categories c ON c.asset_id = s.asset_id
       LEFT JOIN article107 p ON p.run = s.run`

const ORDER_UNIVERSE = "ORDER BY a.name, f.name, s.serie, s.asset_id"

/** The rows active at `date` (YYYYMMDD), their `last_date` being their last value on or before it. */
const activeRows = (db: Database.Database, rows: ReadonlyArray<UniverseRow>, date: number, graceWeekdays: number) => {
  const renames = continuities(db)
  return rows
    .filter((r) => seriesActive({ fundEndDate: r.fund_end_date, lastDate: r.last_date, batchDate: date, graceWeekdays }))
    .map(
      (r): UniverseSeries => ({
        assetId: r.asset_id,
        conceptId: r.concept_id,
        providerId: r.provider_id,
        run: r.run,
        serie: r.serie,
        currencyCode: r.currency,
        lastDate: r.last_date,
        fundName: r.fund_name,
        fundType: r.fund_type,
        agf: r.agf,
        familyRar: r.family_rar,
        familySlug: r.family_slug,
        afmCurrency: r.afm_currency,
        article107Status: r.a107,
        continuity: renames.get(r.asset_id) ?? null,
      }),
    )
}

/**
 * Today's universe for a batch date (YYYYMMDD), the series active with `graceWeekdays` (the
 * API's FDS_SERIES_GRACE_DAYS), ordered by administrator, fund, series label.
 */
export const universe = (db: Database.Database, batchDate: number, graceWeekdays: number): ReadonlyArray<UniverseSeries> =>
  memo(db, `universe:${batchDate}:${graceWeekdays}`, () => {
    const rows = prepared(
      db,
      `${SELECT_UNIVERSE}, s.last_date
       ${FROM_UNIVERSE}
       WHERE s.last_date >= ?
       ${ORDER_UNIVERSE}`,
    ).all(earliestActiveDate(batchDate, graceWeekdays)) as UniverseRow[]
    return activeRows(db, rows, batchDate, graceWeekdays)
  })

/** Universes as of past dates kept per snapshot (a client walking through dates asks for many). */
const KEPT_AS_OF = 32

/**
 * The universe as of `date` (YYYYMMDD, on or before the batch date): the series alive then, by
 * the rule of `universe` applied at that date. A series is alive on D when it has a value on or
 * before D (its first value is), its fund had no registry end date on or before D, and its last
 * value on or before D is at most `graceWeekdays` weekdays before D. Funds closed since and series
 * absorbed since are in it; series that began after D are not. The registry's start date is not
 * asked: a value is proof the series had started, and the registry can date a fund's start after
 * a series' first value (a re-registration). Same order as `universe`.
 */
export const universeAsOf = (db: Database.Database, date: number, graceWeekdays: number): ReadonlyArray<UniverseSeries> =>
  memoLru(db, "universeAsOf", `${date}:${graceWeekdays}`, KEPT_AS_OF, () => {
    const rows = prepared(
      db,
      `${SELECT_UNIVERSE},
         (SELECT max(q.date) FROM quotas q WHERE q.asset_id = s.asset_id AND q.date <= ?) AS last_date
       ${FROM_UNIVERSE}
       WHERE s.first_date <= ? AND s.last_date >= ?
       ${ORDER_UNIVERSE}`,
    ).all(date, date, earliestActiveDate(date, graceWeekdays)) as UniverseRow[]
    return activeRows(db, rows, date, graceWeekdays)
  })
