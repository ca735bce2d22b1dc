/**
 * How many weekdays a series may go without a value and still count as active on this server
 * (FDS_SERIES_GRACE_DAYS, default 10; snapshots/compute/SeriesActivity.ts). Read when the routes
 * are built, so a bad value stops the server at start, naming the variable.
 */
import type { Effect } from "effect"
import { numberSetting } from "../system/Settings.ts"

/** The weekdays (0 to 260: above a year of weekdays the word "active" would mean nothing), default 10 (DEFAULT_SERIES_GRACE_WEEKDAYS). */
export const seriesGraceWeekdays: Effect.Effect<number, Error> = numberSetting("FDS_SERIES_GRACE_DAYS")
