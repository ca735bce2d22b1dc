/**
 * The per-IP token buckets of the whole fleet, in the accounts store's PostgreSQL: the spec's limit
 * (10/s, bursts of 20, per address) holds however many replicas the balancer spreads one address
 * over. One statement per request: an UPSERT that refills the address's bucket from the time since
 * its last request (the database's clock, the same for every replica), takes a token when there is
 * one, and says whether it did. The table is UNLOGGED (no WAL: a crash forgets the buckets, which
 * only start full again); rows whose bucket is full again are deleted once a minute.
 *
 * A store that does not answer (an error, or nothing within 500 ms) must not refuse everyone, nor
 * let one address through unlimited, nor hold every request: the process's own buckets
 * (TokenBucket.ts) decide for the next second, and the failure is logged once.
 */
import { Effect } from "effect"
import { type Kysely, sql } from "kysely"
import type { AccountsDatabase } from "../../accounts/AccountsDb.ts"
import type { TakeToken } from "./Edge.ts"
import { TokenBuckets } from "./TokenBucket.ts"
import { logLine } from "../../snapshots/Log.ts"

const TABLE = sql.table("fds_ip_buckets")

/** How long a request waits for the shared bucket before this process's own decides. */
const WAIT_MILLIS = 500

/** Connections opened at start (the accounts store's pool holds 10). */
const WARM_CONNECTIONS = 10

export interface SharedBucketsOptions {
  readonly perSecond: number
  readonly burst: number
}

/** The buckets (the table is created with the accounts tables, accounts/AccountsDb.ts), swept once a minute while the scope lasts. */
export const sharedBuckets = (db: Kysely<AccountsDatabase>, limit: SharedBucketsOptions) =>
  Effect.gen(function* () {
    const perMs = limit.perSecond / 1000
    const refillMs = (limit.burst / limit.perSecond) * 1000
    const local = new TokenBuckets(limit)
    let failing = false
    const now = sql`(extract(epoch from clock_timestamp()) * 1000)`
    // the tokens after the refill, before this request takes one
    const refilled = sql`least(${limit.burst}::double precision, b.tokens + greatest(0, ${now} - b.updated_ms) * ${perMs}::double precision)`
    // a store that fails, or takes longer than WAIT_MILLIS (a partition: a new connection gives up
    // after 5 s), is not asked again for a second: this process's buckets decide meanwhile
    let skipUntil = 0
    const fallBack = (address: string, nowMs: number, error: string): boolean => {
      skipUntil = Date.now() + 1_000
      if (!failing) {
        failing = true
        logLine("warn", "shared per-IP limit unavailable: this process's own buckets decide", { error })
      }
      return local.take(address, nowMs)
    }
    const take: TakeToken = (address, nowMs) => {
      if (Date.now() < skipUntil) return local.take(address, nowMs)
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), WAIT_MILLIS)
      })
      const asked = sql<{ allowed: boolean }>`insert into ${TABLE} as b (address, tokens, updated_ms, allowed)
        values (${address}, ${limit.burst - 1}::double precision, ${now}, true)
        on conflict (address) do update set
          tokens = case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end,
          updated_ms = greatest(b.updated_ms, ${now}),
          allowed = ${refilled} >= 1
        returning allowed`
        .execute(db)
        .then((result) => result.rows[0]?.allowed ?? true)
      return Promise.race([asked, late]).then(
        (answer) => {
          clearTimeout(timer)
          if (answer === "late") return fallBack(address, nowMs, `no answer within ${WAIT_MILLIS} ms`)
          if (failing) {
            failing = false
            logLine("info", "shared per-IP limit answers again")
          }
          return answer
        },
        (e: unknown) => {
          clearTimeout(timer)
          return fallBack(address, nowMs, e instanceof Error ? e.message : String(e))
        },
      )
    }
    const sweep = () =>
      sql`delete from ${TABLE} where updated_ms < ${now} - ${refillMs}`.execute(db).then(
        () => {},
        () => {},
      )
    // the pool's connections opened now, in the background: a first burst on cold connections (each
    // a new PostgreSQL backend) took longer than WAIT_MILLIS, and this process's own buckets then let
    // up to a whole burst through on each replica; not awaited, so an unreachable store delays nothing
    void Promise.all(Array.from({ length: WARM_CONNECTIONS }, () => sql`select 1`.execute(db).catch(() => undefined)))
    yield* Effect.acquireRelease(
      Effect.sync(() => setInterval(sweep, 60_000).unref()),
      (timer) => Effect.sync(() => clearInterval(timer)),
    )
    return take
  })
