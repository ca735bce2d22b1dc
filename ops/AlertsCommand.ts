/**
 * `./fds alerts send [--batch YYYY-MM-DD]`: the alert mails of a published batch (default: the
 * one CURRENT names), for a system-cron setup after `./fds pipeline run`. Sending again sends
 * nothing that was sent. Exit 0: done (or nothing to send); 1: the batch is not there, or mails
 * could not be sent (run it again later); 2: bad arguments.
 */
import { parseArgs } from "node:util"
import type { ConfigProvider } from "effect"
import type { AlertRoundReport } from "../accounts/Alerts.ts"
import { isIsoDate } from "../schemas/Dates.ts"
import { BatchNotFound } from "./PublishedBatch.ts"
import { environmentProvider } from "../pipeline/Settings.ts"
import { failureMessage, sendAlerts } from "./SendAlerts.ts"

const line = (what: string, r: AlertRoundReport): string =>
  r.skipped !== null ? `  ${what}: nothing to send (${r.skipped})` : `  ${what}: ${r.sent} sent${r.failed > 0 ? `, ${r.failed} failed` : ""}`

/** The command; its settings read through `provider` (default: the environment). */
export const alertsCommand = async (
  sub: string | undefined,
  args: string[],
  provider: ConfigProvider.ConfigProvider = environmentProvider(),
): Promise<number> => {
  if (sub !== "send") {
    console.error("fds: usage: alerts send [--batch YYYY-MM-DD]")
    return 2
  }
  let batch: string | undefined
  try {
    batch = parseArgs({ args, options: { batch: { type: "string" } } }).values.batch
  } catch (e) {
    console.error(`fds: ${(e as Error).message}`)
    return 2
  }
  if (batch !== undefined && !isIsoDate(batch)) {
    console.error("fds: --batch must be a date YYYY-MM-DD")
    return 2
  }
  try {
    const sent = await sendAlerts(provider, batch === undefined ? "current" : { date: batch })
    console.log(`alert mails of the batch of ${sent.batch.batchDate} (${sent.batch.file}):`)
    console.log(line("TAC changes", sent.report.tacChanges))
    console.log(line("monthly summary", sent.report.monthlySummary))
    const failure = failureMessage(sent)
    if (failure === null) return 0
    console.error(`fds: ${failure}`)
    return 1
  } catch (e) {
    console.error(`fds: ${e instanceof BatchNotFound ? e.message : String(e)}`)
    return 1
  }
}
