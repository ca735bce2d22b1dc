/**
 * How many daily values were restated and how many TACs changed from one published batch to the
 * next: the /api/changes feed between them (snapshots/changes/), read to its end and counted by
 * item type, what its manifests show identical skipped as the route does. Bounded in time: a
 * comparison that has not ended after `budgetMs` gives the counts so far, marked incomplete.
 */
import { join } from "node:path"
import { BatchPair } from "../snapshots/changes/BatchPair.ts"
import { changesPage } from "../snapshots/changes/Changes.ts"
import { identicalParts, NOTHING_IDENTICAL } from "../snapshots/changes/Identical.ts"
import { type Position, START } from "../snapshots/changes/Position.ts"
import { DEFAULT_SERIES_GRACE_WEEKDAYS } from "../snapshots/compute/SeriesActivity.ts"
import { readManifest } from "../snapshots/Manifest.ts"

export interface ChangeCounts {
  readonly valuesRestated: number
  readonly tacChanged: number
  /** False when the time budget ended the count. */
  readonly complete: boolean
}

const identicalOf = (dir: string, fromFile: string, toFile: string) => {
  try {
    return identicalParts(readManifest(dir, fromFile), readManifest(dir, toFile))
  } catch {
    return NOTHING_IDENTICAL // a manifest missing: everything is compared
  }
}

/** The counts between `fromFile` and `toFile` in `snapshotsDir`. */
export const countChanges = (snapshotsDir: string, fromFile: string, toFile: string, budgetMs = 30_000): ChangeCounts => {
  const pair = new BatchPair(join(snapshotsDir, fromFile), join(snapshotsDir, toFile))
  const started = performance.now()
  let valuesRestated = 0
  let tacChanged = 0
  try {
    const options = { limit: 5000, scanBudget: 2_000_000, graceWeekdays: DEFAULT_SERIES_GRACE_WEEKDAYS, identical: identicalOf(snapshotsDir, fromFile, toFile) }
    let position: Position | null = START
    while (position !== null) {
      if (performance.now() - started > budgetMs) return { valuesRestated, tacChanged, complete: false }
      const steps = changesPage(pair, position, options)
      let step = steps.next()
      while (step.done !== true) step = steps.next()
      for (const item of step.value.items) {
        if (item.type === "value_restated") valuesRestated++
        else if (item.type === "tac_changed") tacChanged++
      }
      position = step.value.next
    }
    return { valuesRestated, tacChanged, complete: true }
  } finally {
    pair.db.close()
  }
}
