/**
 * What a follower brings in when the replica is a member of a fleet (FDS_ACCOUNTS_URL set): the
 * batch the fleet is asked to switch to (its proposal), else the fleet's current batch — not the
 * batch the primary's own API happens to serve (in a fleet the primary switches with the others,
 * so its API serves a new batch only after every replica holds it). Null when the fleet has
 * decided nothing yet (the follower then follows the primary's current batch).
 */
import pg from "pg"
import { readCurrent, readProposal } from "../snapshots/fleet/FleetDb.ts"

export interface FleetTarget {
  /** The batch id the follower should bring in and name in CURRENT, or null. */
  readonly target: () => Promise<string | null>
  readonly close: () => Promise<void>
}

export const fleetTarget = (env: NodeJS.ProcessEnv): FleetTarget | null => {
  const url = env.FDS_ACCOUNTS_URL
  if (url === undefined || url === "" || env.FDS_FLEET === "off") return null
  const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 5_000 })
  pool.on("error", () => undefined)
  return {
    target: async () => {
      try {
        const proposal = await readProposal(pool)
        if (proposal !== null) return proposal.batchId
        return (await readCurrent(pool))?.batchId ?? null
      } catch (e) {
        // no fleet tables yet (no member started): nothing decided
        if (String(e).includes("does not exist")) return null
        throw e
      }
    },
    close: () => pool.end(),
  }
}
