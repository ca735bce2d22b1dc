/**
 * The fleet's settings (FDS_ACCOUNTS_URL, FDS_FLEET, FDS_FLEET_ROLE, FDS_FLEET_SWITCH_TIMEOUT_SECONDS,
 * FDS_FLEET_HEARTBEAT_MS) through Effect Config: a bad value fails naming the variable; the
 * accounts URL (it holds a password) is read redacted. Apart from FleetMember.ts so that reading
 * them loads no PostgreSQL client.
 */
import { Config, Effect, Redacted } from "effect"
import { invalidSetting } from "../../snapshots/InvalidSetting.ts"

export type FleetRole = "primary" | "replica"

/** What a fleet member is told: where the fleet's state is, its role and its timings. */
export interface FleetSettings {
  readonly url: string
  /** primary: proposes every batch its CURRENT names (rollbacks included); replica: only newer batches. */
  readonly role: FleetRole
  /** Seconds the fleet waits for every live member before switching without the laggards. */
  readonly switchTimeoutSeconds: number
  readonly heartbeatMillis: number
  /** A member not seen for this long is not waited for. */
  readonly liveSeconds: number
}

/** A setting read as text (unset: `fallback`), refused with `message(raw)` unless `accept` takes it. */
const checked = <A>(name: string, fallback: string, accept: (raw: string) => A | undefined, message: (raw: string) => string): Config.Config<A> =>
  Config.String(name).pipe(
    Config.withDefault(fallback),
    Config.mapEffect((raw) => {
      const value = accept(raw)
      return value === undefined ? Effect.fail(invalidSetting(message(raw), raw)) : Effect.succeed(value)
    }),
  )

/** FDS_FLEET: on (default) or off. */
export const fleetSwitch: Config.Config<"on" | "off"> = checked(
  "FDS_FLEET",
  "on",
  (raw) => (raw === "on" || raw === "off" ? raw : undefined),
  (raw) => `FDS_FLEET must be on or off, got ${JSON.stringify(raw)}`,
)

/** The fleet settings through Config, or null when FDS_ACCOUNTS_URL is not set (one machine) or FDS_FLEET=off. */
export const fleetSettings: Config.Config<FleetSettings | null> = Config.all({
  url: Config.Redacted("FDS_ACCOUNTS_URL").pipe(Config.withDefault(Redacted.make(""))),
  fleet: fleetSwitch,
}).pipe(
  Config.flatMap(({ url, fleet }) =>
    Redacted.value(url) === "" || fleet === "off"
      ? Config.succeed(null)
      : Config.all({
          role: checked(
            "FDS_FLEET_ROLE",
            "replica",
            (raw) => (raw === "primary" || raw === "replica" ? raw : undefined),
            (raw) => `FDS_FLEET_ROLE must be primary or replica, got ${JSON.stringify(raw)}`,
          ),
          timeout: checked(
            "FDS_FLEET_SWITCH_TIMEOUT_SECONDS",
            "60",
            (raw) => {
              const n = Number(raw)
              return Number.isFinite(n) && n >= 1 && n <= 3600 ? n : undefined
            },
            (raw) => `FDS_FLEET_SWITCH_TIMEOUT_SECONDS must be a number of seconds from 1 to 3600, got ${JSON.stringify(raw)}`,
          ),
          beat: checked(
            "FDS_FLEET_HEARTBEAT_MS",
            "1000",
            (raw) => {
              const n = Number(raw)
              return Number.isInteger(n) && n >= 50 && n <= 60_000 ? n : undefined
            },
            (raw) => `FDS_FLEET_HEARTBEAT_MS must be a whole number of milliseconds from 50 to 60000, got ${JSON.stringify(raw)}`,
          ),
        }).pipe(
          Config.map(
            ({ role, timeout, beat }): FleetSettings => ({
              url: Redacted.value(url),
              role,
              switchTimeoutSeconds: timeout,
              heartbeatMillis: beat,
              liveSeconds: Math.max(3, (beat * 5) / 1000),
            }),
          ),
        ),
  ),
)
