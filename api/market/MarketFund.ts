/**
 * /api/funds/{run}/cartera/* and /api/funds/{run}/article107: mutual funds only. A RUN of an
 * investment fund or ETF, or an unknown RUN, is 404 pointing to the FI portfolio routes; a
 * malformed `month` is 400; without `month` the latest month with positions is used (404 when
 * the fund has none); a month without positions is 200 with `data: []`.
 */
import { Effect } from "effect"
import { BadRequest, NotFound } from "../../schemas/ApiErrors.ts"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { checkDigit, formatRun } from "../../schemas/Ids.ts"
import { isYearMonth } from "../../schemas/MarketParams.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { read } from "../snapshot/Pinned.ts"
import { article107Detail } from "./MarketArticle107.ts"
import {
  availability,
  type FundRef,
  fiInstrumentOf,
  fundByRun,
  holdings,
  latestPortfolioMonth,
  resumen,
} from "./MarketCartera.ts"
import type { CarteraHoldingsQuery, CarteraResumenQuery } from "./MarketFundApi.ts"

/** 404 for a RUN that is no mutual fund of the batch; `instrument`: the FI/ETF instrument of the RUN, when it is one. */
const notAMutualFund = (runText: string, instrument: string | undefined, tail: string) =>
  new NotFound({
    parameter: "run",
    message:
      instrument === undefined
        ? `no mutual fund with RUN ${runText}; investment funds and ETFs are at /api/fi/instruments/{id}/cartera/* (find the id with /api/fi/instruments?q=${runText})`
        : `RUN ${runText} is an investment fund or ETF, not a mutual fund: use /api/fi/instruments/${instrument}/${tail}`,
  })

/** The mutual fund of a RUN path parameter ("8043" or "8043-8"; a wrong check digit is unknown); 404 when none. */
const fundOf = Effect.fn(function* (runText: string, tail: string) {
  const [body, dv] = runText.split("-") as [string, string | undefined]
  const run = Number(body)
  if (dv !== undefined && dv.toUpperCase() !== checkDigit(run)) return yield* notAMutualFund(runText, undefined, tail)
  const found = yield* read((r) => {
    const fund = fundByRun(r.db, run)
    return { fund, instrument: fund === undefined ? fiInstrumentOf(r.db, run) : undefined }
  })
  return found.fund ?? (yield* notAMutualFund(runText, found.instrument, tail))
})

const carteraMeta = (fund: FundRef, month: string, market: string, r: SnapshotReader, count: number) => ({
  batch_id: batchIdOfFile(r.path),
  run: formatRun(fund.run),
  fundId: String(fund.concept_id),
  fundName: fund.name,
  month,
  market,
  availability: availability(r.db, fund.run, month) as { N: string; E: string },
  valuation_unit: "thousands_of_fund_currency_cmf_reported",
  percentage_unit: "percent_of_fund_assets",
  count,
})

const carteraAnswer = Effect.fn(function* <A>(
  runText: string,
  month: string | undefined,
  tail: string,
  build: (r: SnapshotReader, fund: FundRef, month: string) => A,
) {
  if (month !== undefined && !isYearMonth(month)) {
    return yield* new BadRequest({ parameter: "month", message: `malformed query parameter month: ${JSON.stringify(month)} is not YYYY-MM` })
  }
  const fund = yield* fundOf(runText, tail)
  const chosen = month ?? (yield* read((r) => latestPortfolioMonth(r.db, fund.run)))
  if (chosen === null) return yield* new NotFound({ parameter: "run", message: `no portfolio of RUN ${formatRun(fund.run)} in the published batch` })
  return yield* read((r) => build(r, fund, chosen))
})

export const carteraHoldingsAnswer = (runText: string, query: CarteraHoldingsQuery) =>
  carteraAnswer(runText, query.month, "cartera/holdings", (r, fund, month) => {
    const market = query.market
    const data = holdings(r.db, fund.run, month, market)
    return { data, meta: carteraMeta(fund, month, market, r, data.length) }
  })

export const carteraResumenAnswer = (runText: string, query: CarteraResumenQuery) =>
  carteraAnswer(runText, query.month, "cartera/resumen", (r, fund, month) => {
    const data = resumen(r.db, fund.run, month)
    return { data, meta: carteraMeta(fund, month, "all", r, data.length) }
  })

export const article107Answer = Effect.fn(function* (runText: string) {
  const fund = yield* fundOf(runText, "")
  return yield* read((r) => article107Detail(r.db, fund))
})
