/**
 * The readiness rule, in one place: the reasons this process cannot answer keyed data requests
 * now, none when it can. /readyz and /health's HTTP status (503 with Retry-After while any
 * reason holds) and the start-up answer before the routes are attached (api/http/RequestLog.ts)
 * all come from here.
 *
 * A reason each: draining (SIGTERM, Drain.ts); nothing published (or nothing valid); the served
 * snapshot found damaged and being checked again; the ledger unreadable; the accounts store not
 * answering (a ping, at most once a second, or its last quota write failed); the fleet's own rule
 * (FleetReadiness: this replica does not hold the fleet's current batch).
 */
import { Context, Effect, Layer } from "effect"
import { type Kysely, sql } from "kysely"
import { AccountsDb, type AccountsDatabase } from "../../accounts/AccountsDb.ts"
import { SnapshotStore } from "../snapshot/SnapshotStore.ts"
import type { DrainState } from "./Drain.ts"
import { logLine } from "../../snapshots/Log.ts"

/**
 * The fleet's part of readiness: why this replica must not take traffic now (it does not hold the
 * fleet's current batch, or the fleet's PostgreSQL was never reached), or null. Asked on every
 * probe, so it is cheap: a value the fleet member keeps up to date, not a query per call.
 */
export class FleetReadiness extends Context.Service<FleetReadiness, { readonly notReady: () => Effect.Effect<string | null> }>()(
  "fds/api/FleetReadiness",
) {
  /** The snapshot store's fleet member (api/snapshot/FleetMember.ts): null out of fleet mode. */
  static readonly layer = Layer.effect(
    FleetReadiness,
    Effect.gen(function* () {
      const store = yield* SnapshotStore
      return { notReady: () => Effect.sync(() => store.fleetProblem()) }
    }),
  )
}

/** Seconds a balancer or client is told to wait on a 503 of the probes and /health. */
export const NOT_READY_RETRY_AFTER = 5

/** The quota store's last outcome, recorded by the key check (api/http/Metrics.ts). */
export interface StoreOutcome {
  lastFailureMillis: number
  lastSuccessMillis: number
}

/** Logs a probe's cause once while it stays the same (the reason the probe gives names none). */
const said = new Map<string, string>()
const sayOnce = (what: string, detail: string): string => {
  if (said.get(what) !== detail) {
    said.set(what, detail)
    logLine("error", `not ready: the ${what === "ledger" ? "ledger" : "accounts store"} fails`, { error: detail })
  }
  return ""
}

/** Why the process is not ready, one reason each; empty when it is. */
export class Readiness extends Context.Service<Readiness, { readonly reasons: Effect.Effect<ReadonlyArray<string>> }>()(
  "fds/api/Readiness",
) {
  static readonly layer = (drain: DrainState, quotaStore: StoreOutcome) =>
    Layer.effect(
      Readiness,
      Effect.gen(function* () {
        const store = yield* SnapshotStore
        const fleet = yield* FleetReadiness
        const accounts = pingEverySecond(yield* AccountsDb)
        const reasons = Effect.gen(function* () {
          const out: Array<string> = []
          if (drain.draining) out.push("draining: the process is shutting down")
          const loaded = store.current()
          if (loaded === null) {
            const faults = store.faults()
            out.push(...(faults.length > 0 ? faults : ["nothing is published yet"]))
          } else if (loaded.damaged) {
            out.push("the served snapshot is being checked again after a read found it corrupt")
          }
          const ledger = store.ledgerError()
          // the probes are public: no server path, host or port in a reason (the log line has them)
          if (ledger !== null) out.push(`the ledger cannot be read${sayOnce("ledger", ledger)}`)
          const ping = yield* accounts
          if (ping !== null) out.push(`the accounts store does not answer${sayOnce("accounts", ping)}`)
          else if (quotaStore.lastFailureMillis > quotaStore.lastSuccessMillis) out.push("the accounts store failed its last quota write")
          const fleetReason = yield* fleet.notReady()
          if (fleetReason !== null) out.push(fleetReason)
          return out
        })
        return { reasons }
      }),
    )
}

/**
 * `select 1` on the accounts store, at most once a second (probes from several balancers share
 * it), 2 s at most; null when it answered, else why not.
 */
const pingEverySecond = (db: Kysely<AccountsDatabase>): Effect.Effect<string | null> => {
  let last: { readonly at: number; readonly result: Promise<string | null> } | null = null
  const ping = (): Promise<string | null> =>
    Promise.race([
      sql`select 1`.execute(db).then(
        () => null,
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      ),
      new Promise<string>((resolve) => setTimeout(() => resolve("no answer within 2 s"), 2_000).unref()),
    ])
  return Effect.promise(() => {
    const now = Date.now()
    if (last === null || now - last.at >= 1_000) last = { at: now, result: ping() }
    return last.result
  })
}
