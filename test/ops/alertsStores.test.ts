/**
 * The once-only record of alert mails on both accounts stores (SQLite file, PostgreSQL cluster on
 * loopback), as two replicas see it: each through its own connection, claiming at the same time.
 * A round belongs to the first batch that claims it; each mail is claimed by exactly one replica;
 * a claim given back (the mail could not be sent) is claimed again by the next call.
 */

import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Kysely } from "kysely"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AccountsDatabase, openAccountsDb, openAccountsStore } from "../../accounts/AccountsDb.ts"
import { claimMail, claimRound, recipients, releaseMail } from "../../accounts/AlertRounds.ts"
import { findOrCreateUser } from "../../accounts/Users.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"

interface Replicas {
  readonly a: Kysely<AccountsDatabase>
  readonly b: Kysely<AccountsDatabase>
  readonly cleanup: () => Promise<void>
}

let cluster: TestPostgres | undefined
beforeAll(async () => {
  cluster = await startPostgres()
}, 120_000)
afterAll(() => cluster?.stop())

const stores: ReadonlyArray<readonly [string, () => Promise<Replicas>]> = [
  [
    "SQLite",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "fds-alert-rounds-"))
      const a = await openAccountsDb(join(dir, "accounts.sqlite"))
      const b = await openAccountsDb(join(dir, "accounts.sqlite"))
      const cleanup = async () => {
        await a.destroy()
        await b.destroy()
        rmSync(dir, { recursive: true, force: true })
      }
      return { a, b, cleanup }
    },
  ],
  [
    "PostgreSQL",
    async () => {
      const url = await cluster!.createDatabase("alerts")
      const a = await openAccountsStore("unused.sqlite", url)
      const b = await openAccountsStore("unused.sqlite", url)
      const cleanup = async () => {
        await a.destroy()
        await b.destroy()
      }
      return { a, b, cleanup }
    },
  ],
]

describe.each(stores)("alert claims on %s", (_name, open) => {
  it("a round belongs to the first batch; each mail goes to one replica; a released claim is taken again", async () => {
    const { a, b, cleanup } = await open()
    try {
      const now = Date.UTC(2026, 10, 19, 11)
      const month = { kind: "monthly_summary", period: "2026-11" } as const
      const [first, second] = await Promise.all([
        claimRound(a, { ...month, batch: "hash-18", batchDate: "2026-11-18" }, now),
        claimRound(b, { ...month, batch: "hash-18", batchDate: "2026-11-18" }, now),
      ])
      expect(first).toEqual({ batch: "hash-18", batchDate: "2026-11-18" })
      expect(second).toEqual(first)
      expect(await claimRound(b, { ...month, batch: "hash-19", batchDate: "2026-11-19" }, now)).toEqual(first)
      expect(await claimRound(b, { ...month, period: "2026-12", batch: "hash-19", batchDate: "2026-12-01" }, now)).toEqual({
        batch: "hash-19",
        batchDate: "2026-12-01",
      })

      const users = await Promise.all(["u1@example.cl", "u2@example.cl", "u3@example.cl"].map((e) => findOrCreateUser(a, e, null, now)))
      const claims = await Promise.all(users.flatMap((u) => [claimMail(a, month, u.id, now), claimMail(b, month, u.id, now)]))
      for (let i = 0; i < users.length; i++) expect([claims[2 * i], claims[2 * i + 1]].filter(Boolean)).toHaveLength(1)
      expect(await claimMail(a, { kind: "tac_changes", period: "hash-19" }, users[0]!.id, now)).toBe(true)

      await releaseMail(b, month, users[1]!.id)
      expect(await claimMail(a, month, users[0]!.id, now)).toBe(false)
      expect(await claimMail(a, month, users[1]!.id, now)).toBe(true)
      expect(await claimMail(b, month, users[1]!.id, now)).toBe(false)
    } finally {
      await cleanup()
    }
  }, 60_000)

  it("recipients: opted-in users of that kind with their watchlists, none without a watched series", async () => {
    const { a, cleanup } = await open()
    try {
      const now = Date.UTC(2026, 10, 19, 11)
      const [u1, u2, u3] = await Promise.all(["u1@example.cl", "u2@example.cl", "u3@example.cl"].map((e) => findOrCreateUser(a, e, null, now)))
      await a.updateTable("users").set({ email_opt_in_alerts: 1 }).where("id", "in", [u1!.id, u3!.id]).execute()
      await a.updateTable("users").set({ email_opt_in_monthly_summary: 1 }).where("id", "=", u2!.id).execute()
      await a
        .insertInto("watchlist")
        .values([
          { user_id: u1!.id, serie_id: "200", added_at: "2026-11-01T00:00:00.000Z" },
          { user_id: u1!.id, serie_id: "100", added_at: "2026-11-02T00:00:00.000Z" },
          { user_id: u2!.id, serie_id: "100", added_at: "2026-11-01T00:00:00.000Z" },
        ])
        .execute()
      expect(await recipients(a, "tac_changes")).toEqual([{ userId: u1!.id, email: "u1@example.cl", serieIds: ["200", "100"] }])
      expect(await recipients(a, "monthly_summary")).toEqual([{ userId: u2!.id, email: "u2@example.cl", serieIds: ["100"] }])
    } finally {
      await cleanup()
    }
  })
})
