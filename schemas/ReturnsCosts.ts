/**
 * The answers of `/expense_ratio` and `/expense_ratio/history`: TAC as a decimal fraction. For an
 * FI/ETF id the TAC is the reviewed fact sheet's (at most one observation), with the fields of
 * FiRealAssets.ts.
 */
import { Schema } from "effect"
import { isCalendarDate } from "./Dates.ts"
import { FiExpenseRatioFields } from "./FiRealAssets.ts"

/** `YYYYMMDD` that is a real calendar date (the history's `from_date`). */
export const CompactDate = Schema.String.check(
  Schema.isPattern(/^\d{8}$/u),
  // the pattern says the format in JSON Schema; the calendar check stays with the code (declared so, the description is kept)
  Schema.makeFilter(
    (s: string) =>
      isCalendarDate(Number(s.slice(0, 4)), Number(s.slice(4, 6)), Number(s.slice(6, 8))) || "a real calendar date as YYYYMMDD",
    { toJsonSchema: () => [{}, true] },
  ),
).annotate({ description: "A calendar date, YYYYMMDD", examples: ["20250101"] })

export const ExpenseRatioResponse = Schema.Struct({
  data: Schema.Struct({
    id: Schema.String.annotate({ description: "The requested asset_id, as given" }),
    type: Schema.Literal("expense_ratio"),
    attributes: Schema.Struct({
      expense_ratio: Schema.NullOr(Schema.Finite).annotate({
        description:
          "TAC of the latest month documented, as a decimal fraction (1.32 % = 0.0132); null when none " +
          "(FI/ETF ids: the fact sheet's TAC, only when tac_status is available)",
      }),
      investor_class: Schema.NullOr(Schema.String).annotate({
        description: "APV, Institutional or Retail, from the series label; null for FI/ETF ids",
      }),
      month: Schema.NullOr(Schema.String).annotate({
        description: "Month of that TAC, YYYY-MM (FI/ETF ids: the fact sheet's month); null when none",
      }),
      ...FiExpenseRatioFields,
    }),
  }),
}).annotate({ identifier: "ExpenseRatioResponse", description: "The TAC (annual cost ratio) of a series" })

export const ExpenseRatioMonth = Schema.Struct({
  id: Schema.String.annotate({ description: "<asset_id>_<YYYYMMDD>" }),
  type: Schema.Literal("expense_ratio_month"),
  attributes: Schema.Struct({
    date: Schema.String.annotate({ description: "Last day of the month, YYYYMMDD" }),
    expense_ratio: Schema.Finite.annotate({ description: "TAC of that month, decimal fraction" }),
  }),
}).annotate({ identifier: "ExpenseRatioMonth" })

export const ExpenseRatioHistory = Schema.Struct({ data: Schema.Array(ExpenseRatioMonth) }).annotate({
  identifier: "ExpenseRatioHistory",
  description: "Monthly TAC of a series, ascending; an empty list when none is documented",
})

export type ExpenseRatioBody = typeof ExpenseRatioResponse.Encoded
export type ExpenseRatioHistoryBody = typeof ExpenseRatioHistory.Encoded
