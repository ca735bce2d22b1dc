/**
 * How many weekdays a series may go without a value and still count as active on this server
 * (FDS_SERIES_GRACE_DAYS, default 10; snapshots/compute/SeriesActivity.ts). Read when the routes
 * are built, so a bad value stops the server at start, naming the variable.
 */
import { Config, Effect } from "effect"
import { DEFAULT_SERIES_GRACE_WEEKDAYS } from "../../snapshots/compute/SeriesActivity.ts"

/** Above a year of weekdays the word "active" would mean nothing. */
const MAX_GRACE_WEEKDAYS = 260

const invalid = (text: string) =>
  new Error(`FDS_SERIES_GRACE_DAYS must be a whole number of weekdays from 0 to ${MAX_GRACE_WEEKDAYS}, got ${JSON.stringify(text)}`)

export const seriesGraceWeekdays: Effect.Effect<number, Error> = Config.String("FDS_SERIES_GRACE_DAYS").pipe(
  Config.withDefault(String(DEFAULT_SERIES_GRACE_WEEKDAYS)),
  Effect.mapError((e) => new Error(`FDS_SERIES_GRACE_DAYS: ${e.message}`)),
  Effect.flatMap((text) => {
    const n = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN
    return Number.isSafeInteger(n) && n <= MAX_GRACE_WEEKDAYS ? Effect.succeed(n) : Effect.fail(invalid(text))
  }),
)
