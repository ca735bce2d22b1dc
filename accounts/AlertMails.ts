/**
 * The text of the alert mails, from the facts of AlertFacts.ts: one mail per user listing their
 * watched series whose TAC changed in a batch, and the monthly summary of their watchlist. Plain
 * data in, a Mail out; the unsubscribe headers come from the caller.
 */
import { currencyOf } from "../schemas/FundClass.ts"
import type { MonthLine, TacChange } from "./AlertFacts.ts"
import type { Mail } from "./Mailer.ts"

const monthName = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" })

/** "October 2026" for "2026-10". */
export const monthLabel = (month: string): string => monthName.format(new Date(`${month}-01T00:00:00Z`))

/** A decimal fraction as a percentage with two decimals: 0.0132 → "1.32 %". */
const percent = (x: number, signed = false): string => `${signed && x > 0 ? "+" : ""}${(x * 100).toFixed(2)} %`

const amount = (x: number): string => String(Number(x.toFixed(4)))

const footer = (what: string, turnOff: string): string[] => [
  "",
  "--",
  `You receive this mail because you turned on ${what} for your Fund Data Service account.`,
  `To stop these mails, use your mail program's unsubscribe button, or set ${turnOff} to false with PATCH /api/me/alerts.`,
]

/** The mail listing a user's watched series whose TAC changed in the batch of `batchDate`. */
export const tacChangesMail = (
  to: string,
  changes: ReadonlyArray<TacChange>,
  batch: { readonly batchDate: string; readonly previousBatchDate: string },
  headers: Readonly<Record<string, string>>,
): Mail => ({
  to,
  subject:
    changes.length === 1
      ? `TAC changed: ${changes[0]!.fund} — serie ${changes[0]!.serie}`
      : `TAC changed for ${changes.length} series on your watchlist`,
  text: [
    `The TAC (total annual cost) of ${changes.length === 1 ? "a series" : "series"} on your watchlist changed in the data of ${batch.batchDate}:`,
    "",
    ...changes.map(
      (c) =>
        `- ${c.fund} — serie ${c.serie} (serie_id ${c.serieId}): ${percent(c.previousTac)} (${monthLabel(c.previousMonth)}) → ${percent(c.tac)} (${monthLabel(c.month)})`,
    ),
    "",
    `The previous value is the one published with the data of ${batch.previousBatchDate}.`,
    ...footer("TAC alerts", "email_opt_in_alerts"),
  ].join("\n"),
  headers,
})

const monthLine = (l: MonthLine): string => {
  const currency = currencyOf(l.currency) ?? l.currency
  const value =
    l.endValue === null || l.endDate === null
      ? "no value in the month"
      : ["value", amount(l.endValue), currency, "on", l.endDate].filter((w) => w !== null && w !== "").join(" ")
  const ret = l.monthReturn !== null ? `, month return ${percent(l.monthReturn, true)}` : l.returnNote !== null ? `, month return not available (${l.returnNote})` : ""
  const tac = l.tac === null ? "" : `, TAC ${percent(l.tac.tac)} (${monthLabel(l.tac.month)})`
  return `- ${l.fund} — serie ${l.serie} (serie_id ${l.serieId}): ${value}${ret}${tac}`
}

/** The monthly summary of `month` (YYYY-MM) for a user's watchlist. */
export const monthlySummaryMail = (
  to: string,
  month: string,
  lines: ReadonlyArray<MonthLine>,
  headers: Readonly<Record<string, string>>,
): Mail => ({
  to,
  subject: `Your watchlist in ${monthLabel(month)}`,
  text: [
    `Your watchlist at the end of ${monthLabel(month)}: each series' last value in the month, the month's return on quota values in the fund's currency (mutual funds), and the latest TAC (total annual cost) published.`,
    "",
    ...lines.map(monthLine),
    ...footer("the monthly summary", "email_opt_in_monthly_summary"),
  ].join("\n"),
  headers,
})
