/**
 * The alert mails of a published batch. To users with `email_opt_in_alerts`: one mail listing
 * their watched series whose TAC differs from the batch published before it (CURRENT's previous
 * file; no mail without one). On the first batch of a month, to users with
 * `email_opt_in_monthly_summary`: the summary of the month before for their watchlist. Every mail
 * carries RFC 8058 one-click unsubscribe headers scoped to its kind. Nothing is sent twice for a
 * batch (AlertRounds.ts): a re-run, or a second replica, sends only what no one claimed yet; a
 * mail that could not be handed over gives its claim back, so a later `alerts send` retries it.
 */
import { Clock, Config, Context, Effect, Layer, Result } from "effect"
import { HttpServer } from "effect/http"
import { NetAddress } from "effect/net"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { SnapshotReader } from "../snapshots/Reader.ts"
import { AccountsConfig } from "./AccountsConfig.ts"
import { AccountsDb } from "./AccountsDb.ts"
import type { AlertKind } from "./AccountsTables.ts"
import { type MonthLine, monthLines, type TacChange, tacChanges } from "./AlertFacts.ts"
import { monthlySummaryMail, tacChangesMail } from "./AlertMails.ts"
import { type AlertRound, claimMail, claimRound, recipients, releaseMail } from "./AlertRounds.ts"
import { type AccountsUnavailable, attemptDb } from "./KeyStore.ts"
import { type Mail, Mailer } from "./Mailer.ts"
import { signUnsubscribe, UNSUBSCRIBE_TTL_SECONDS, unsubscribeHeaders } from "./UnsubscribeTokens.ts"

/** A batch as the pipeline published it, and the snapshot CURRENT named before it (null: none). */
export interface PublishedBatch {
  readonly snapshotsDir: string
  readonly batchDate: string
  readonly file: string
  readonly contentHash: string
  readonly previousFile: string | null
}

/** What one kind of alert mail did for a batch. */
export interface AlertRoundReport {
  readonly sent: number
  /** Mails the mailer refused (their claims were given back); `errors` says why, the first few. */
  readonly failed: number
  readonly errors: ReadonlyArray<string>
  /** Why this kind sent nothing for the batch, or null when it ran. */
  readonly skipped: string | null
}

export interface AlertsReport {
  readonly tacChanges: AlertRoundReport
  readonly monthlySummary: AlertRoundReport
}

interface Recipient {
  readonly userId: number
  readonly email: string
  readonly serieIds: ReadonlyArray<string>
}

const skipped = (reason: string): AlertRoundReport => ({ sent: 0, failed: 0, errors: [], skipped: reason })

/** YYYY-MM of the month before `month`. */
export const previousMonth = (month: string): string => {
  const [y, m] = month.split("-").map(Number) as [number, number]
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`
}

const pick = <V>(ids: ReadonlyArray<string>, facts: ReadonlyMap<string, V>): V[] =>
  ids.flatMap((id) => {
    const v = facts.get(id)
    return v === undefined ? [] : [v]
  })

/** Opens a snapshot for the length of the scope (read-only, as the API does). */
const openSnapshot = (path: string) =>
  Effect.acquireRelease(
    Effect.sync(() => new SnapshotReader(path)),
    (r) => Effect.sync(() => r.close()),
  )

export class Alerts extends Context.Service<
  Alerts,
  { readonly send: (batch: PublishedBatch) => Effect.Effect<AlertsReport, AccountsUnavailable> }
>()("fds/accounts/Alerts") {
  static readonly layer = Layer.effect(
    Alerts,
    Effect.gen(function* () {
      const db = yield* AccountsDb
      const config = yield* AccountsConfig
      const mailer = yield* Mailer

      const headers = (userId: number, kind: AlertKind, nowMs: number) =>
        unsubscribeHeaders(
          config,
          signUnsubscribe(config.secret, {
            userId,
            scope: kind === "tac_changes" ? "alerts" : "monthly_summary",
            expiresAt: Math.floor(nowMs / 1000) + UNSUBSCRIBE_TTL_SECONDS,
          }),
        )

      /** Claims the round, then each recipient's mail, and sends it; `compose` says null when a user has nothing to read. */
      const runRound = Effect.fn("Alerts.round")(function* (
        round: AlertRound,
        compose: (users: ReadonlyArray<Recipient>) => Effect.Effect<(user: Recipient, headers: Record<string, string>) => Mail | null>,
      ) {
        const now = yield* Clock.currentTimeMillis
        const owner = yield* attemptDb(() => claimRound(db, round, now))
        if (owner.batch !== round.batch) return skipped(`already sent for ${round.period} with the batch of ${owner.batchDate}`)
        const users = yield* attemptDb(() => recipients(db, round.kind))
        const mailFor = yield* compose(users)
        let sent = 0
        const errors: string[] = []
        for (const user of users) {
          const mail = mailFor(user, headers(user.userId, round.kind, now))
          if (mail === null) continue
          if (!(yield* attemptDb(() => claimMail(db, round, user.userId, now)))) continue
          const result = yield* Effect.result(mailer.send(mail))
          if (Result.isSuccess(result)) {
            sent++
          } else {
            yield* attemptDb(() => releaseMail(db, round, user.userId))
            errors.push(`${user.email}: ${String(result.failure.cause)}`)
          }
        }
        return { sent, failed: errors.length, errors: errors.slice(0, 5), skipped: null } satisfies AlertRoundReport
      })

      const sendTacChanges = (batch: PublishedBatch) =>
        Effect.gen(function* () {
          if (batch.previousFile === null) return skipped("no batch was published before this one")
          if (batch.previousFile === batch.file) return skipped("the previous batch is this one")
          const previousPath = join(batch.snapshotsDir, batch.previousFile)
          if (!existsSync(previousPath)) return skipped(`the previous snapshot ${batch.previousFile} was removed (retention)`)
          const current = yield* openSnapshot(join(batch.snapshotsDir, batch.file))
          const previous = yield* openSnapshot(previousPath)
          const round = { kind: "tac_changes", period: batch.contentHash, batch: batch.contentHash, batchDate: batch.batchDate } as const
          return yield* runRound(round, (users) =>
            Effect.sync(() => {
              const changes: ReadonlyMap<string, TacChange> = tacChanges(current, previous, users.flatMap((u) => u.serieIds))
              const dates = { batchDate: current.batchDate, previousBatchDate: previous.batchDate }
              return (user, h) => {
                const mine = pick(user.serieIds, changes)
                return mine.length === 0 ? null : tacChangesMail(user.email, mine, dates, h)
              }
            }),
          )
        }).pipe(Effect.scoped)

      const sendMonthlySummary = (batch: PublishedBatch) =>
        Effect.gen(function* () {
          const month = previousMonth(batch.batchDate.slice(0, 7))
          const current = yield* openSnapshot(join(batch.snapshotsDir, batch.file))
          const round = { kind: "monthly_summary", period: batch.batchDate.slice(0, 7), batch: batch.contentHash, batchDate: batch.batchDate } as const
          return yield* runRound(round, (users) =>
            Effect.sync(() => {
              const lines: ReadonlyMap<string, MonthLine> = monthLines(current, month, users.flatMap((u) => u.serieIds))
              return (user, h) => {
                const mine = pick(user.serieIds, lines)
                return mine.length === 0 ? null : monthlySummaryMail(user.email, month, mine, h)
              }
            }),
          )
        }).pipe(Effect.scoped)

      const send = Effect.fn("Alerts.send")(function* (batch: PublishedBatch) {
        const tac = yield* sendTacChanges(batch)
        const monthly = yield* sendMonthlySummary(batch)
        return { tacChanges: tac, monthlySummary: monthly } satisfies AlertsReport
      })

      return Alerts.of({ send })
    }),
  )
}

/**
 * Outside the server the accounts settings still default their public URL to the server's
 * address: here the one `./fds serve` binds by default (127.0.0.1 and PORT). Set FDS_PUBLIC_URL
 * wherever mails are sent from, so that their links reach the real server.
 */
export const serveAddress = Layer.effect(
  HttpServer.HttpServer,
  Effect.gen(function* () {
    const port = yield* Config.Int("PORT").pipe(Config.withDefault(8080))
    return HttpServer.make({
      serve: () => Effect.void,
      address: NetAddress.socketAddressFromInputUnsafe({ address: "127.0.0.1", port }),
    })
  }),
)

/** The alert mailer outside the API server (the pipeline daemon, `./fds alerts send`), over the accounts store of `dataDir`. */
export const AlertsLive = (dataDir: string) =>
  Alerts.layer.pipe(
    Layer.provideMerge(Mailer.layer),
    Layer.provideMerge(AccountsConfig.layer(dataDir)),
    Layer.provideMerge(Layer.mergeAll(AccountsDb.layer(dataDir), serveAddress)),
  )
