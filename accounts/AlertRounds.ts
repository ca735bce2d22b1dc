/**
 * The once-only record of alert mails, in the accounts store. A round (kind, period) belongs to
 * the first batch that claims it; each mail of a round is claimed (user, kind, period) before it
 * is sent. Both claims are an INSERT … ON CONFLICT DO NOTHING, so a re-run or a second daemon
 * replica on the same store sends nothing twice: a mail claimed by one is skipped by the other.
 * Also who a round's mails may go to: the opted-in users and their watchlists.
 */
import type { Kysely } from "kysely"
import type { AccountsDatabase, AlertKind } from "./AccountsTables.ts"

export interface AlertRound {
  readonly kind: AlertKind
  readonly period: string
  /** Content hash and date of the batch that claims the round. */
  readonly batch: string
  readonly batchDate: string
}

/** The batch that owns the round after this claim (this one, or the one that came first). */
export const claimRound = async (
  db: Kysely<AccountsDatabase>,
  round: AlertRound,
  nowMs: number,
): Promise<{ readonly batch: string; readonly batchDate: string }> => {
  await db
    .insertInto("alert_rounds")
    .values({
      kind: round.kind,
      period: round.period,
      batch: round.batch,
      batch_date: round.batchDate,
      claimed_at: new Date(nowMs).toISOString(),
    })
    .onConflict((oc) => oc.columns(["kind", "period"]).doNothing())
    .execute()
  const owner = await db
    .selectFrom("alert_rounds")
    .select(["batch", "batch_date"])
    .where("kind", "=", round.kind)
    .where("period", "=", round.period)
    .executeTakeFirstOrThrow()
  return { batch: owner.batch, batchDate: owner.batch_date }
}

/** True when this call claimed the user's mail of the round (it was neither sent nor being sent). */
export const claimMail = async (
  db: Kysely<AccountsDatabase>,
  round: Pick<AlertRound, "kind" | "period">,
  userId: number,
  nowMs: number,
): Promise<boolean> => {
  const result = await db
    .insertInto("alert_mails")
    .values({ kind: round.kind, period: round.period, user_id: userId, claimed_at: new Date(nowMs).toISOString() })
    .onConflict((oc) => oc.columns(["kind", "period", "user_id"]).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1
}

/** Gives a claim back after the mail could not be handed over, so that a later call sends it. */
export const releaseMail = async (
  db: Kysely<AccountsDatabase>,
  round: Pick<AlertRound, "kind" | "period">,
  userId: number,
): Promise<void> => {
  await db
    .deleteFrom("alert_mails")
    .where("kind", "=", round.kind)
    .where("period", "=", round.period)
    .where("user_id", "=", userId)
    .execute()
}

/** The opted-in users of a kind of mail with their watchlists (users without a watched series are left out). */
export const recipients = async (
  db: Kysely<AccountsDatabase>,
  kind: AlertKind,
): Promise<ReadonlyArray<{ readonly userId: number; readonly email: string; readonly serieIds: ReadonlyArray<string> }>> => {
  const flag = kind === "tac_changes" ? "users.email_opt_in_alerts" : "users.email_opt_in_monthly_summary"
  const rows = await db
    .selectFrom("users")
    .innerJoin("watchlist", "watchlist.user_id", "users.id")
    .select(["users.id as user_id", "users.email as email", "watchlist.serie_id as serie_id"])
    .where(flag, "=", 1)
    .orderBy("users.id")
    .orderBy("watchlist.added_at")
    .orderBy("watchlist.serie_id")
    .execute()
  const byUser = new Map<number, { userId: number; email: string; serieIds: string[] }>()
  for (const r of rows) {
    const id = r.user_id ?? 0
    const user = byUser.get(id) ?? { userId: id, email: r.email, serieIds: [] }
    user.serieIds.push(r.serie_id)
    byUser.set(id, user)
  }
  return [...byUser.values()]
}
