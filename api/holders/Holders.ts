/**
 * "Who holds this": for a month, every mutual fund portfolio (monthly, `fm_holdings`) and every
 * investment fund or ETF portfolio (quarterly, `fi_holdings`: the latest quarter on or before the
 * month) holding an instrument, by nemotécnico or instrument code, ISIN or CUSIP, or issuer RUT;
 * largest weight first. Each look-up is an index search (snapshots/Tables.ts HOLDER_INDEXES).
 *
 * Matching: a code is trimmed and upper-cased and compared with the code CMF reports (FM
 * `instrument_code`, FI `nemotecnico`); an ISIN with FI's "Código ISIN o CUSIP" and with FM's
 * instrument code (FM foreign positions are reported by their ISIN); a RUT by its body, with FM's
 * and FI's issuer RUT. Valuations stay as CMF reports them, in thousands of each holding fund's
 * functional currency: they are not comparable across funds of different currencies, which is why
 * the order is by weight in the holding fund (CMF's percentage of fund assets), then valuation.
 */
import type Database from "better-sqlite3"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { InvalidParameter } from "../../schemas/ApiErrors.ts"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { checkDigit } from "../../schemas/Ids.ts"
import { prepared } from "../../snapshots/SnapshotMemo.ts"
import { round10 } from "../../snapshots/readers/MarketRows.ts"
import { Api } from "../Api.ts"
import { read } from "../snapshot/Pinned.ts"
import type { HoldersQuery } from "./HoldersApi.ts"

export type By = "instrument" | "isin" | "issuer_rut"

interface Row {
  readonly vehicle: "mutual_fund" | "investment_fund"
  readonly run: number
  readonly fund_name: string | null
  readonly instrument_id: string | null
  readonly month: string
  readonly market: "N" | "E"
  readonly position: number
  readonly nemotecnico: string | null
  readonly isin: string | null
  readonly emisor: string | null
  readonly emisor_rut: number | null
  readonly tipo_instrumento: string
  readonly valorizacion: number
  readonly pct_activo_fondo: number | null
}

const FM_COLUMNS = `'mutual_fund' AS vehicle, h.run, f.name AS fund_name, NULL AS instrument_id, h.month, h.market, h.position,
  h.instrument_code AS nemotecnico, NULL AS isin, h.issuer_name AS emisor, h.issuer_rut AS emisor_rut,
  h.instrument_type AS tipo_instrumento, h.valuation_thousands AS valorizacion, h.pct_fund_assets AS pct_activo_fondo
  FROM fm_holdings h LEFT JOIN funds f ON f.run = h.run`

// the expressions are those of the indexes (snapshots/Tables.ts), so that SQLite searches them
const FI_COLUMNS = `'investment_fund' AS vehicle, h.run, i.name AS fund_name, i.instrument_id, h.period AS month, h.market, h.position,
  json_extract(h.body, '$.nemotecnico') AS nemotecnico, json_extract(h.body, '$.isin') AS isin,
  json_extract(h.body, '$.issuerName') AS emisor, json_extract(h.body, '$.issuerRut') AS emisor_rut,
  h.instrument_type AS tipo_instrumento, h.valuation_thousands AS valorizacion, h.pct_fund_assets AS pct_activo_fondo
  FROM fi_holdings h LEFT JOIN fi_instruments i ON i.run = h.run`

const FM_WHERE: Record<By, string> = {
  instrument: "h.instrument_code = ?",
  isin: "h.instrument_code = ?",
  issuer_rut: "h.issuer_rut = ?",
}
const FI_WHERE: Record<By, string> = {
  instrument: "json_extract(h.body, '$.nemotecnico') = ?",
  isin: "json_extract(h.body, '$.isin') = ?",
  issuer_rut: "json_extract(h.body, '$.issuerRut') = ?",
}

/** The statement that finds the positions of one kind holding what is looked for, in a month (FM) or quarter (FI). */
export const lookupSql = (vehicle: "mutual_fund" | "investment_fund", by: By): string =>
  vehicle === "mutual_fund"
    ? `SELECT ${FM_COLUMNS} WHERE ${FM_WHERE[by]} AND h.month = ?`
    : `SELECT ${FI_COLUMNS} WHERE ${FI_WHERE[by]} AND h.period = ?`

/** The latest FM portfolio month, and the FI quarters, of a snapshot (computed once per snapshot). */
const monthsOf = (db: Database.Database, memo: <A>(key: string, compute: () => A) => A) =>
  memo("holders:months", () => ({
    latestFm: (prepared(db, "SELECT max(month) FROM fm_holdings").pluck().get() as string | null) ?? null,
    fiPeriods: prepared(db, "SELECT DISTINCT period FROM fi_holdings ORDER BY period").pluck().all() as string[],
  }))

/** What the query looks for, as matched; a RUT whose check digit is wrong is a 422 naming issuer_rut. */
const lookedFor = (query: HoldersQuery): Effect.Effect<{ readonly by: By; readonly value: string; readonly bound: string | number }, InvalidParameter> => {
  if (query.issuer_rut !== undefined) {
    const [body, digit] = query.issuer_rut.trim().replaceAll(".", "").split("-") as [string, string | undefined]
    const rut = Number(body)
    if (digit !== undefined && digit.toUpperCase() !== checkDigit(rut)) {
      return Effect.fail(
        new InvalidParameter({
          parameter: "issuer_rut",
          message: `invalid query parameter issuer_rut: the check digit of ${rut} is ${checkDigit(rut)}, not ${digit.toUpperCase()}`,
        }),
      )
    }
    return Effect.succeed({ by: "issuer_rut", value: String(rut), bound: rut })
  }
  const [by, text] = query.isin !== undefined ? (["isin", query.isin] as const) : (["instrument", query.instrument ?? ""] as const)
  const value = text.trim().toUpperCase()
  return Effect.succeed({ by, value, bound: value })
}

export const holdersAnswer = Effect.fn(function* (query: HoldersQuery) {
  const wanted = yield* lookedFor(query)
  return yield* read((r) => {
    const { latestFm, fiPeriods } = monthsOf(r.db, (key, compute) => r.memo.memo(key, compute))
    const month = query.month ?? latestFm
    const fiPeriod = month === null ? (fiPeriods.at(-1) ?? null) : (fiPeriods.filter((p) => p <= month).at(-1) ?? null)
    const fm =
      month === null ? [] : (prepared(r.db, lookupSql("mutual_fund", wanted.by)).all(wanted.bound, month) as Row[])
    const fi =
      fiPeriod === null
        ? []
        : (prepared(r.db, lookupSql("investment_fund", wanted.by)).all(wanted.bound, fiPeriod) as Row[])
    const rows = [...fm, ...fi].sort(
      (a, b) =>
        (b.pct_activo_fondo ?? -1) - (a.pct_activo_fondo ?? -1) ||
        b.valorizacion - a.valorizacion ||
        a.vehicle.localeCompare(b.vehicle) ||
        a.run - b.run ||
        a.market.localeCompare(b.market) ||
        a.position - b.position,
    )
    return {
      data: rows.map((h) => ({
        id: `${h.vehicle === "mutual_fund" ? "fm" : "fi"}_${h.run}_${h.month}_${h.market}_${h.position}`,
        type: "holder" as const,
        attributes: {
          vehicle: h.vehicle,
          run: h.run,
          fund_name: h.fund_name,
          instrument_id: h.instrument_id,
          month: h.month,
          market_code: h.market,
          position: h.position,
          nemotecnico: h.nemotecnico,
          isin: h.isin,
          emisor: h.emisor,
          emisor_rut: h.emisor_rut,
          tipo_instrumento: h.tipo_instrumento,
          valorizacion: h.valorizacion,
          pct_activo_fondo: h.pct_activo_fondo,
          weight: h.pct_activo_fondo === null ? null : round10(h.pct_activo_fondo / 100),
        },
      })),
      meta: {
        batch_id: batchIdOfFile(r.path),
        by: wanted.by,
        value: wanted.value,
        month,
        fi_period: fiPeriod,
        total: rows.length,
        order: "pct_activo_fondo descending (null last), then valorizacion descending",
      },
    }
  })
})

export const HoldersHandlers = HttpApiBuilder.group(Api, "holders", (handlers) =>
  handlers.handle("holders", ({ query }) => holdersAnswer(query)),
)
