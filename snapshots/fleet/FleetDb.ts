/**
 * The fleet's agreement on its current batch, kept in the fleet's PostgreSQL (the accounts
 * database, FDS_ACCOUNTS_URL). docs/replicas.md gives the protocol; in short:
 *
 *   - fleet_batches: every batch ever proposed to the fleet (its id, date, content hash, and when
 *     it was proposed: the primary's publication time);
 *   - fleet_proposal: at most one row, the batch the fleet is asked to switch to, with a deadline;
 *   - fleet_members: one row per serving process (a member), with the batch it has checked and
 *     holds open ready to serve (`ready_batch`), the one it serves, and when it was last seen;
 *   - fleet_current: one row, the fleet's current batch and a sequence number that grows with each
 *     decision; fleet_decisions keeps every decision in order (the fleet's history).
 *
 * A decision (`decide`) is one transaction holding the proposal's row lock: the proposal becomes
 * current when every live member (seen within `liveSeconds`) is ready for it, or when its deadline
 * has passed (members that are not ready then take themselves out of rotation). The same
 * transaction sends NOTIFY on the channel `fds_fleet`, delivered on commit. Any member may call
 * it: the last one to become ready decides, and a heartbeat decides a proposal past its deadline.
 *
 * Every statement is a parameterised query on `pg`; the tables are created once under an
 * advisory lock (members starting together take turns).
 */
import type pg from "pg"

export const FLEET_CHANNEL = "fds_fleet"

/** What the fleet serves: its current batch and the number of the decision that made it so. */
export interface FleetCurrent {
  readonly seq: number
  readonly batchId: string
}

export interface FleetProposal {
  readonly batchId: string
  readonly kind: "publish" | "rollback"
  readonly proposedAt: string
  readonly deadline: string
}

export interface FleetBatch {
  readonly batchId: string
  readonly batchDate: string
  readonly contentHash: string
  readonly proposedAt: string
}

export interface FleetDecision {
  readonly seq: number
  readonly batchId: string
  readonly kind: "publish" | "rollback"
  readonly decidedAt: string
}

export interface FleetMemberRow {
  readonly memberId: string
  readonly readyBatch: string | null
  readonly servingBatch: string | null
  readonly seenAt: string
}

const SCHEMA_LOCK = 7307002
const PROPOSE_LOCK = 7307003

/** The fleet's tables (created with the accounts tables on PostgreSQL, and by a member at start). */
export const FLEET_DDL: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS fleet_batches (
     batch_id text PRIMARY KEY,
     batch_date text NOT NULL,
     content_hash text NOT NULL,
     proposed_at timestamptz NOT NULL DEFAULT now())`,
  `CREATE TABLE IF NOT EXISTS fleet_proposal (
     id integer PRIMARY KEY CHECK (id = 1),
     batch_id text NOT NULL REFERENCES fleet_batches (batch_id),
     kind text NOT NULL CHECK (kind IN ('publish', 'rollback')),
     proposed_at timestamptz NOT NULL DEFAULT now(),
     deadline timestamptz NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS fleet_members (
     member_id text PRIMARY KEY,
     ready_batch text,
     serving_batch text,
     holds text[] NOT NULL DEFAULT '{}',
     role text NOT NULL DEFAULT 'replica',
     seen_at timestamptz NOT NULL DEFAULT now())`,
  "ALTER TABLE fleet_members ADD COLUMN IF NOT EXISTS role text NOT NULL DEFAULT 'replica'",
  `CREATE TABLE IF NOT EXISTS fleet_current (
     id integer PRIMARY KEY CHECK (id = 1),
     seq bigint NOT NULL,
     batch_id text NOT NULL REFERENCES fleet_batches (batch_id))`,
  `CREATE TABLE IF NOT EXISTS fleet_decisions (
     seq bigint PRIMARY KEY,
     batch_id text NOT NULL REFERENCES fleet_batches (batch_id),
     kind text NOT NULL,
     decided_at timestamptz NOT NULL DEFAULT now())`,
]

type Queryable = pg.Pool | pg.PoolClient | pg.Client

/** Creates the fleet's tables when missing (idempotent; members starting together take turns). */
export const ensureFleetTables = async (pool: pg.Pool): Promise<void> => {
  const client = await pool.connect()
  try {
    await client.query("SELECT pg_advisory_lock($1)", [SCHEMA_LOCK])
    try {
      for (const statement of FLEET_DDL) await client.query(statement)
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [SCHEMA_LOCK])
    }
  } finally {
    client.release()
  }
}

/**
 * Who learns the fleet's current batch from the quota statement of each request (its RETURNING
 * reads fleet_current in the same statement, accounts/QuotaStatement.ts): a member serving a
 * request then knows every decision committed before that request was counted, so a client never
 * sees the fleet go back from one answer to the next, whichever replica answers.
 */
const observers = new Set<(current: FleetCurrent) => void>()
export const observeFleet = (observer: (current: FleetCurrent) => void): (() => void) => {
  observers.add(observer)
  return () => observers.delete(observer)
}
export const fleetSeen = (seq: unknown, batchId: unknown): void => {
  if (observers.size === 0 || batchId === null || batchId === undefined || seq === null || seq === undefined) return
  const current = { seq: Number(seq), batchId: String(batchId) }
  for (const observer of observers) observer(current)
}

const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v))

export const readCurrent = async (db: Queryable): Promise<FleetCurrent | null> => {
  const { rows } = await db.query<{ seq: string; batch_id: string }>("SELECT seq, batch_id FROM fleet_current WHERE id = 1")
  const row = rows[0]
  return row === undefined ? null : { seq: Number(row.seq), batchId: row.batch_id }
}

export const readProposal = async (db: Queryable): Promise<FleetProposal | null> => {
  const { rows } = await db.query<{ batch_id: string; kind: "publish" | "rollback"; proposed_at: Date; deadline: Date }>(
    "SELECT batch_id, kind, proposed_at, deadline FROM fleet_proposal WHERE id = 1",
  )
  const row = rows[0]
  return row === undefined ? null : { batchId: row.batch_id, kind: row.kind, proposedAt: iso(row.proposed_at), deadline: iso(row.deadline) }
}

/** One batch the fleet was asked to switch to, by its id (its date and content hash), or null. */
export const readBatch = async (db: Queryable, batchId: string): Promise<FleetBatch | null> => {
  const { rows } = await db.query<{ batch_id: string; batch_date: string; content_hash: string; proposed_at: Date }>(
    "SELECT batch_id, batch_date, content_hash, proposed_at FROM fleet_batches WHERE batch_id = $1",
    [batchId],
  )
  const r = rows[0]
  return r === undefined ? null : { batchId: r.batch_id, batchDate: r.batch_date, contentHash: r.content_hash, proposedAt: iso(r.proposed_at) }
}

/** The fleet's decisions in order (its history of current batches), with each batch's date and hash. */
export const readHistory = async (db: Queryable): Promise<{ decisions: FleetDecision[]; batches: Map<string, FleetBatch> }> => {
  const decisions = await db.query<{ seq: string; batch_id: string; kind: "publish" | "rollback"; decided_at: Date }>(
    "SELECT seq, batch_id, kind, decided_at FROM fleet_decisions ORDER BY seq",
  )
  const batches = await db.query<{ batch_id: string; batch_date: string; content_hash: string; proposed_at: Date }>(
    "SELECT batch_id, batch_date, content_hash, proposed_at FROM fleet_batches",
  )
  return {
    decisions: decisions.rows.map((r) => ({ seq: Number(r.seq), batchId: r.batch_id, kind: r.kind, decidedAt: iso(r.decided_at) })),
    batches: new Map(
      batches.rows.map((r) => [
        r.batch_id,
        { batchId: r.batch_id, batchDate: r.batch_date, contentHash: r.content_hash, proposedAt: iso(r.proposed_at) },
      ]),
    ),
  }
}

export interface Proposal {
  readonly batchId: string
  readonly batchDate: string
  readonly contentHash: string
  /** Seconds the fleet waits for every live member before it switches without the laggards. */
  readonly timeoutSeconds: number
  /**
   * Who proposes: the primary (any batch, a rollback included), or a replica, whose proposal is
   * taken only while the fleet has no current batch at all (its first one).
   */
  readonly role: "primary" | "replica"
  /** The proposing member (a primary's proposal is refused while another live primary is seen). */
  readonly memberId: string
  /** A member not seen for this long is not live. */
  readonly liveSeconds: number
}

/** `another_primary`: a second live primary (its member id in `other`); nothing is proposed. */
export type ProposeOutcome = "proposed" | "already_current" | "already_proposed" | "not_primary" | "another_primary"

/**
 * Asks the fleet to switch to a batch: records the batch (first proposal time kept) and makes it
 * the proposal, replacing an older one (two overlapping publishes: the later wins, the earlier is
 * never made current). One transaction; NOTIFY on commit.
 */
export const propose = async (pool: pg.Pool, p: Proposal): Promise<ProposeOutcome> =>
  inTransaction(pool, async (c) => {
    await c.query("SELECT pg_advisory_xact_lock($1)", [PROPOSE_LOCK])
    const current = await readCurrent(c)
    if (current?.batchId === p.batchId) return "already_current"
    const proposal = await readProposal(c)
    if (proposal?.batchId === p.batchId) return "already_proposed"
    // only the primary moves a fleet that has a current batch: a replica's own build (a careless
    // `pipeline run` on it, a follower pointed at a staging primary) never becomes the fleet's
    if (p.role !== "primary" && current !== null) return "not_primary"
    if (p.role === "primary") {
      const others = await c.query<{ member_id: string }>(
        `SELECT member_id FROM fleet_members
         WHERE role = 'primary' AND member_id <> $1 AND seen_at > now() - make_interval(secs => $2) LIMIT 1`,
        [p.memberId, p.liveSeconds],
      )
      if ((others.rowCount ?? 0) > 0) return "another_primary"
    }
    const wasCurrent = (await c.query("SELECT 1 FROM fleet_decisions WHERE batch_id = $1 LIMIT 1", [p.batchId])).rowCount !== 0
    await c.query(
      `INSERT INTO fleet_batches (batch_id, batch_date, content_hash) VALUES ($1, $2, $3)
       ON CONFLICT (batch_id) DO NOTHING`,
      [p.batchId, p.batchDate, p.contentHash],
    )
    await c.query(
      `INSERT INTO fleet_proposal (id, batch_id, kind, proposed_at, deadline)
       VALUES (1, $1, $2, now(), now() + make_interval(secs => $3))
       ON CONFLICT (id) DO UPDATE SET batch_id = EXCLUDED.batch_id, kind = EXCLUDED.kind,
         proposed_at = EXCLUDED.proposed_at, deadline = EXCLUDED.deadline`,
      [p.batchId, wasCurrent ? "rollback" : "publish", p.timeoutSeconds],
    )
    await c.query("SELECT pg_notify($1, $2)", [FLEET_CHANNEL, `proposed ${p.batchId}`])
    return "proposed"
  })

/** A member says it is alive, what it holds ready, what it serves and which batches' files it holds. */
export const heartbeat = async (
  db: Queryable,
  member: { id: string; role: "primary" | "replica"; ready: string | null; serving: string | null; holds: ReadonlyArray<string> },
): Promise<void> => {
  await db.query(
    `INSERT INTO fleet_members (member_id, role, ready_batch, serving_batch, holds, seen_at) VALUES ($1, $2, $3, $4, $5, now())
     ON CONFLICT (member_id) DO UPDATE SET role = EXCLUDED.role, ready_batch = EXCLUDED.ready_batch,
       serving_batch = EXCLUDED.serving_batch, holds = EXCLUDED.holds, seen_at = now()`,
    [member.id, member.role, member.ready, member.serving, [...member.holds]],
  )
}

/** Members not seen for an hour (a process killed outright never says it leaves) are forgotten. */
export const forgetGone = async (db: Queryable): Promise<void> => {
  await db.query("DELETE FROM fleet_members WHERE seen_at < now() - interval '1 hour'")
}

/** The batches whose files some live member holds: what the fleet retains (a follower can fetch them). */
export const readHeld = async (db: Queryable, liveSeconds: number): Promise<Set<string>> => {
  const { rows } = await db.query<{ batch_id: string }>(
    "SELECT DISTINCT unnest(holds) AS batch_id FROM fleet_members WHERE seen_at > now() - make_interval(secs => $1)",
    [liveSeconds],
  )
  return new Set(rows.map((r) => r.batch_id))
}

/** A member that stops leaves the fleet at once (nobody waits for it). */
export const leave = async (db: Queryable, memberId: string): Promise<void> => {
  await db.query("DELETE FROM fleet_members WHERE member_id = $1", [memberId])
}

export const readMembers = async (db: Queryable): Promise<FleetMemberRow[]> => {
  const { rows } = await db.query<{ member_id: string; ready_batch: string | null; serving_batch: string | null; seen_at: Date }>(
    "SELECT member_id, ready_batch, serving_batch, seen_at FROM fleet_members ORDER BY member_id",
  )
  return rows.map((r) => ({ memberId: r.member_id, readyBatch: r.ready_batch, servingBatch: r.serving_batch, seenAt: iso(r.seen_at) }))
}

export type DecideOutcome =
  | { readonly _tag: "NoProposal" }
  | { readonly _tag: "Waiting"; readonly batchId: string; readonly notReady: ReadonlyArray<string> }
  | { readonly _tag: "Decided"; readonly current: FleetCurrent; readonly leftOut: ReadonlyArray<string> }

/**
 * Makes the proposal current when every live member is ready for it, or its deadline has passed.
 * A member ready for the batch counts as ready whatever it serves; members not seen within
 * `liveSeconds` are not waited for.
 */
export const decide = async (pool: pg.Pool, liveSeconds: number): Promise<DecideOutcome> =>
  inTransaction(pool, async (c) => {
    // proposals and decisions take turns: a proposal never reads the current batch from before a
    // decision and the proposal from after it (it would propose the batch just made current again)
    await c.query("SELECT pg_advisory_xact_lock($1)", [PROPOSE_LOCK])
    const { rows } = await c.query<{ batch_id: string; kind: string; overdue: boolean }>(
      "SELECT batch_id, kind, deadline <= now() AS overdue FROM fleet_proposal WHERE id = 1 FOR UPDATE",
    )
    const proposal = rows[0]
    if (proposal === undefined) return { _tag: "NoProposal" } as const
    const members = await c.query<{ member_id: string }>(
      `SELECT member_id FROM fleet_members
       WHERE seen_at > now() - make_interval(secs => $1) AND ready_batch IS DISTINCT FROM $2`,
      [liveSeconds, proposal.batch_id],
    )
    const notReady = members.rows.map((r) => r.member_id)
    if (notReady.length > 0 && !proposal.overdue) return { _tag: "Waiting", batchId: proposal.batch_id, notReady } as const
    const { rows: seqRows } = await c.query<{ seq: string }>(
      `INSERT INTO fleet_current (id, seq, batch_id) VALUES (1, 1, $1)
       ON CONFLICT (id) DO UPDATE SET seq = fleet_current.seq + 1, batch_id = EXCLUDED.batch_id
       RETURNING seq`,
      [proposal.batch_id],
    )
    const seq = Number(seqRows[0]?.seq)
    await c.query("INSERT INTO fleet_decisions (seq, batch_id, kind) VALUES ($1, $2, $3)", [seq, proposal.batch_id, proposal.kind])
    await c.query("DELETE FROM fleet_proposal WHERE id = 1")
    await c.query("SELECT pg_notify($1, $2)", [FLEET_CHANNEL, `current ${seq} ${proposal.batch_id}`])
    return { _tag: "Decided", current: { seq, batchId: proposal.batch_id }, leftOut: notReady } as const
  })

const inTransaction = async <A>(pool: pg.Pool, body: (client: pg.PoolClient) => Promise<A>): Promise<A> => {
  const client = await pool.connect()
  try {
    await client.query("BEGIN")
    try {
      const result = await body(client)
      await client.query("COMMIT")
      return result
    } catch (e) {
      await client.query("ROLLBACK").catch(() => undefined)
      throw e
    }
  } finally {
    client.release()
  }
}

/** A NOTIFY of the channel, parsed: a decision (`current`) or a proposal. */
export type FleetNotice = { readonly _tag: "current"; readonly current: FleetCurrent } | { readonly _tag: "proposed"; readonly batchId: string }

export const parseNotice = (payload: string | undefined): FleetNotice | null => {
  const parts = (payload ?? "").split(" ")
  if (parts[0] === "current" && parts.length === 3 && /^\d+$/.test(parts[1] ?? "")) {
    return { _tag: "current", current: { seq: Number(parts[1]), batchId: parts[2]! } }
  }
  if (parts[0] === "proposed" && parts.length === 2) return { _tag: "proposed", batchId: parts[1]! }
  return null
}
