/**
 * What a follower brings in when the replica is a member of a fleet (FDS_ACCOUNTS_URL set): the
 * batch the fleet is asked to switch to (its proposal), else the fleet's current batch — not the
 * batch the primary's own API happens to serve (in a fleet the primary switches with the others,
 * so its API serves a new batch only after every replica holds it) — and, in the background, the
 * batches the fleet retains (a live member holds their files) for `?batch=` reads.
 *
 * The fleet's record of a batch (its date and content hash, written by the primary's API after
 * its own checks) is what the download is held against: the primary's answers are not trusted.
 */
import { FLEET_CHANNEL, parseNotice, readBatch, readCurrent, readHeld, readHistory, readProposal } from "../snapshots/fleet/FleetDb.ts"
import { durablePool, type Listener, listenDurably } from "../snapshots/fleet/Pg.ts"
import type { PrimaryBatch } from "./BatchSource.ts"

export interface FleetTarget {
  /** The batch the follower should bring in and name in CURRENT, or null when the fleet has decided nothing yet. */
  readonly target: () => Promise<PrimaryBatch | null>
  /** The batches of the fleet's history that a live member holds, newest decision first. */
  readonly retained: () => Promise<PrimaryBatch[]>
  /** Calls `wake` whenever the fleet is asked to switch to a batch (LISTEN; reconnects by itself). */
  readonly onProposal: (wake: () => void) => void
  readonly close: () => Promise<void>
}

const LIVE_SECONDS = 10

const asBatch = (id: string, batchDate: string, contentHash: string, current: boolean): PrimaryBatch => ({
  id,
  attributes: { batch_date: batchDate, content_hash: contentHash, retained: true, current },
})

/** The fleet at `url` (FDS_ACCOUNTS_URL, read by the follow command). */
export const fleetTarget = (url: string): FleetTarget => {
  const pool = durablePool({ connectionString: url, max: 1, connectionTimeoutMillis: 5_000 })
  let listener: Listener | null = null
  // no fleet tables yet (no member started): nothing decided
  const orNothing = <A>(e: unknown, nothing: A): A => {
    if (String(e).includes("does not exist")) return nothing
    throw e
  }
  return {
    target: async () => {
      try {
        const id = (await readProposal(pool))?.batchId ?? (await readCurrent(pool))?.batchId
        const batch = id === undefined ? null : await readBatch(pool, id)
        return batch === null ? null : asBatch(batch.batchId, batch.batchDate, batch.contentHash, true)
      } catch (e) {
        return orNothing(e, null)
      }
    },
    retained: async () => {
      try {
        const [{ decisions, batches }, held] = await Promise.all([readHistory(pool), readHeld(pool, LIVE_SECONDS)])
        const seen = new Set<string>()
        const out: PrimaryBatch[] = []
        for (const d of [...decisions].reverse()) {
          const batch = batches.get(d.batchId)
          if (batch === undefined || seen.has(d.batchId) || !held.has(d.batchId)) continue
          seen.add(d.batchId)
          out.push(asBatch(batch.batchId, batch.batchDate, batch.contentHash, false))
        }
        return out
      } catch (e) {
        return orNothing(e, [])
      }
    },
    onProposal: (wake) => {
      listener = listenDurably(
        url,
        FLEET_CHANNEL,
        {
          onNotice: (payload) => {
            if (parseNotice(payload)?._tag === "proposed") wake()
          },
        },
        2_000,
      )
    },
    close: async () => {
      await listener?.close()
      await pool.end()
    },
  }
}
