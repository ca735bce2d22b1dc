/**
 * The alert mails of a published batch, wired: the ledger (pipeline side) says which batch and
 * which snapshot served before it, the accounts side (accounts/Alerts.ts) sends. Settings come
 * through the ConfigProvider given, as for `./fds serve` (FDS_DATA_DIR, FDS_ACCOUNTS_URL, FDS_SMTP_URL, FDS_MAIL_FROM,
 * FDS_PUBLIC_URL, FDS_SECRET).
 */
import { ConfigProvider, Effect } from "effect"
import { type AlertRoundReport, Alerts, AlertsLive, type AlertsReport, type PublishedBatch } from "../accounts/Alerts.ts"
import type { Published } from "../pipeline/daemon/Daemon.ts"
import { dataDir as dataDirSetting } from "../pipeline/daemon/RunConfig.ts"
import { readSettings } from "../pipeline/Settings.ts"
import { findPublishedBatch, type WhichBatch } from "./PublishedBatch.ts"
import { withJsonLogs } from "../snapshots/Log.ts"

export interface AlertsSent {
  readonly batch: PublishedBatch
  readonly report: AlertsReport
}

/** `provider` with an empty value as unset: the accounts side reads its settings so, as `serve` does. */
const emptyAsUnset = (provider: ConfigProvider.ConfigProvider): ConfigProvider.ConfigProvider =>
  ConfigProvider.make((path) => Effect.map(provider.load(path), (node) => (node?._tag === "Value" && node.value === "" ? undefined : node)))

export const sendAlerts = async (provider: ConfigProvider.ConfigProvider, which: WhichBatch, signal?: AbortSignal): Promise<AlertsSent> => {
  const dataDir = readSettings(dataDirSetting, provider)
  const batch = findPublishedBatch(dataDir, which)
  const program = Effect.gen(function* () {
    const alerts = yield* Alerts
    return yield* alerts.send(batch)
  }).pipe(Effect.provide(AlertsLive(dataDir)), Effect.provide(ConfigProvider.layer(emptyAsUnset(provider))))
  const report = await Effect.runPromise(withJsonLogs(program), signal === undefined ? undefined : { signal })
  return { batch, report }
}

const roundFields = (r: AlertRoundReport) =>
  r.skipped !== null ? { skipped: r.skipped } : { sent: r.sent, failed: r.failed, ...(r.errors.length > 0 ? { errors: r.errors } : {}) }

/** The report as log fields (the daemon's "after publish finished" line). */
export const reportFields = (report: AlertsReport) => ({
  alert_mails: { tac_changes: roundFields(report.tacChanges), monthly_summary: roundFields(report.monthlySummary) },
})

/** Mails that failed, as one message; null when none did. */
export const failureMessage = (sent: AlertsSent): string | null => {
  const failed = sent.report.tacChanges.failed + sent.report.monthlySummary.failed
  if (failed === 0) return null
  const errors = [...sent.report.tacChanges.errors, ...sent.report.monthlySummary.errors]
  return (
    `${failed} alert mail(s) of the batch of ${sent.batch.batchDate} could not be sent (\`./fds alerts send --batch ` +
    `${sent.batch.batchDate}\` retries them): ${errors.join("; ")}`
  )
}

/** The daemon's afterPublish: the alert mails of the batch just published; a mail that failed fails the hook (logged as an error). */
export const alertsAfterPublish =
  (provider: ConfigProvider.ConfigProvider) =>
  async (published: Published, signal: AbortSignal): Promise<Readonly<Record<string, unknown>>> => {
    const sent = await sendAlerts(provider, { file: published.file }, signal)
    const failure = failureMessage(sent)
    if (failure !== null) throw new Error(`${failure} ${JSON.stringify(reportFields(sent.report))}`)
    return reportFields(sent.report)
  }
