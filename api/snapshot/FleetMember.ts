/**
 * A serving process as a member of the fleet (with FDS_ACCOUNTS_URL set): the fleet's PostgreSQL
 * decides which batch is current (snapshots/fleet/FleetDb.ts, docs/replicas.md), and this process
 * serves that batch and no other for requests that name none.
 *
 * It is the SnapshotStore's gate (SwapState's `gate`): a file CURRENT names is checked as always,
 * then served at once only when it is the fleet's current batch; otherwise it is held open, ready
 * (`standby`), this member reports it ready in PostgreSQL, proposes it when it may, and asks for
 * a decision. The decision reaches every member by NOTIFY (LISTEN on a connection of its own),
 * with a heartbeat poll every `heartbeatMillis` as the fallback; the member then serves the batch
 * held ready (`promote`: no check, no open, a pointer swap). A member that does not hold the
 * fleet's current batch is out of step: its readiness says so and requests that name no batch
 * answer 503 `not_in_step` rather than answering from another batch.
 */
import { randomBytes } from "node:crypto"
import { readdirSync } from "node:fs"
import { hostname } from "node:os"
import type pg from "pg"
import { isBatchId } from "../../schemas/Batches.ts"
import {
  type DecideOutcome,
  decide,
  ensureFleetTables,
  FLEET_CHANNEL,
  type FleetCurrent,
  forgetGone,
  heartbeat,
  leave,
  observeFleet,
  parseNotice,
  propose,
  readCurrent,
  readHeld,
  readHistory,
} from "../../snapshots/fleet/FleetDb.ts"
import { durablePool, type Listener, listenDurably } from "../../snapshots/fleet/Pg.ts"
import type { LedgerRow } from "../../snapshots/PublishedHistory.ts"
import type { FleetSettings } from "./FleetSettings.ts"
import type { SwapGate } from "./SwapState.ts"
import { log } from "./StoreFaults.ts"

export type { FleetRole, FleetSettings } from "./FleetSettings.ts"

/** What the member needs of the store it gates. */
export interface Gated {
  /** Serves the file held ready when it is `file`; true when `file` serves now. */
  readonly promote: (file: string) => boolean
  /** The file served now, if any. */
  readonly served: () => string | null
  /** The snapshots folder (the batches this member holds are its files). */
  readonly dir: string
}

/** The fleet's history as the ledger's rows (publishedBatches reads them), and the batches some live member holds. */
export interface FleetHistoryView {
  readonly rows: ReadonlyArray<LedgerRow>
  readonly held: ReadonlySet<string>
}

/** Readiness is public: the reason names no host, port or error text (the log line does). */
const UNREACHABLE = "the fleet's PostgreSQL cannot be reached"

const fileOf = (batchId: string): string => `${batchId}.sqlite`
const idOf = (file: string): string => file.replace(/\.sqlite$/, "")

export class FleetMember implements SwapGate {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`
  /** The fleet's current batch as last learnt (by NOTIFY, a poll, or a decision of this member). */
  private known: FleetCurrent | null = null
  /** The file this member has checked and holds ready (or serves), with what it proposes. */
  private held: { readonly file: string; readonly batchDate: string; readonly contentHash: string } | null = null
  private store: Gated | null = null
  private readonly pool: pg.Pool
  private listener: Listener | null = null
  private timer: NodeJS.Timeout | null = null
  private stopped = false
  /** The last contact with the fleet's database failed (why), or null. */
  private unreachable: string | null = "the fleet's PostgreSQL was not reached yet"
  /** The fleet's history and what it retains, as of the last tick. */
  private history: FleetHistoryView | null = null
  /** The decision the history was read at. */
  private historySeq: number | null = null
  /** The batch whose proposal was last refused for a second primary (said once). */
  private refusedProposal: string | null = null
  /** Ticks since the gone members were last forgotten. */
  private ticks = 0
  /** The tick under way (one at a time). */
  private ticking: Promise<void> | null = null
  private readonly settings: FleetSettings
  /** Stops learning from the requests' quota statements. */
  private unobserve: () => void = () => undefined

  constructor(settings: FleetSettings) {
    this.settings = settings
    this.pool = durablePool({ connectionString: settings.url, max: 2, connectionTimeoutMillis: 5_000 }, (e) =>
      log("warn", "the fleet's PostgreSQL connection was lost", { code: e.code, error: e.message }),
    )
  }

  attach(store: Gated): void {
    this.store = store
  }

  /** The fleet's current batch as this member knows it. */
  current(): FleetCurrent | null {
    return this.known
  }

  /** The fleet's history (null until first read: the fleet's PostgreSQL was not reached yet). */
  fleetHistory(): FleetHistoryView | null {
    return this.history
  }

  /** The batches whose files this member holds (its snapshots folder). */
  private holds(): string[] {
    const dir = this.store?.dir
    if (dir === undefined) return []
    try {
      return readdirSync(dir)
        .filter((f) => f.endsWith(".sqlite") && isBatchId(idOf(f)))
        .map(idOf)
    } catch {
      return []
    }
  }

  /**
   * The decisions are read again only when a decision was taken since they were last read (the
   * current batch's sequence number moved); which batches a live member holds, every tick.
   */
  private async readFleetHistory(): Promise<void> {
    const seq = this.known?.seq ?? null
    const [rows, held] = await Promise.all([
      this.history !== null && seq === this.historySeq ? Promise.resolve(this.history.rows) : this.readDecisions(),
      readHeld(this.pool, this.settings.liveSeconds),
    ])
    this.historySeq = seq
    this.history = { rows, held }
  }

  private async readDecisions(): Promise<LedgerRow[]> {
    const { decisions, batches } = await readHistory(this.pool)
    const rows: LedgerRow[] = []
    for (const d of decisions) {
      const batch = batches.get(d.batchId)
      if (batch === undefined) continue
      rows.push({
        type: d.kind === "rollback" ? "BatchRolledBack" : "BatchPublished",
        recorded_at: d.decidedAt,
        payload: JSON.stringify({ file: fileOf(d.batchId), batch_date: batch.batchDate, content_hash: batch.contentHash }),
      })
    }
    return rows
  }

  // SwapGate: a checked file serves at once only when it is the fleet's current batch
  admit(file: string): boolean {
    return this.known !== null && this.known.batchId === idOf(file)
  }

  ready(file: string, snapshot: { readonly batchDate: string; readonly contentHash: string }): void {
    this.held = { file, batchDate: snapshot.batchDate, contentHash: snapshot.contentHash }
    void this.offer()
  }

  /**
   * Why this member cannot serve the fleet's current batch now (for readiness and for requests
   * that name no batch); null when it serves it.
   */
  problem(): string | null {
    if (this.known === null) return this.unreachable ?? "the fleet has no current batch yet"
    const served = this.store?.served() ?? null
    if (served === fileOf(this.known.batchId)) return null
    this.sync()
    if (this.store?.served() === fileOf(this.known.batchId)) return null
    return `this replica does not hold the fleet's current batch ${this.known.batchId} yet`
  }

  /** Learns a decision (monotonic in its sequence number) and serves it when it is held ready. */
  learn(current: FleetCurrent): void {
    if (this.known !== null && current.seq <= this.known.seq) return
    const before = this.known
    this.known = current
    log("info", "fleet current batch", { batch: current.batchId, seq: current.seq, before: before?.batchId ?? null })
    this.sync()
  }

  private sync(): void {
    const known = this.known
    if (known === null || this.store === null) return
    const file = fileOf(known.batchId)
    if (this.store.served() === file) return
    if (this.store.promote(file)) {
      log("info", "fleet switch", { batch: known.batchId, seq: known.seq, at: new Date().toISOString() })
      void this.beat().catch(() => undefined)
    }
  }

  async start(): Promise<void> {
    this.unobserve = observeFleet((current) => this.learn(current))
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        await ensureFleetTables(this.pool)
        break
      } catch (e) {
        this.unreachable = UNREACHABLE
        if (attempt === 0) log("error", "the fleet's PostgreSQL cannot be reached; retrying", { error: String(e) })
        await new Promise((r) => setTimeout(r, Math.min(5_000, 250 * 2 ** attempt)))
      }
    }
    this.listen()
    if (!this.stopped) this.unreachable = null
    await this.tick()
    this.timer = setInterval(() => void this.tick(), this.settings.heartbeatMillis)
    this.timer.unref()
  }

  private listen(): void {
    if (this.stopped) return
    this.listener = listenDurably(this.settings.url, FLEET_CHANNEL, {
      onNotice: (payload) => {
        const notice = parseNotice(payload)
        if (notice?._tag === "current") this.learn(notice.current)
        else if (notice?._tag === "proposed") void this.offer()
      },
      // a decision taken while no connection listened
      onListening: () => void this.tick(),
      onLost: (error) => log("warn", "the fleet's notification connection was lost; polling until it is back", { error }),
    })
  }

  /** Heartbeat, the fleet's current batch (the poll behind NOTIFY), and a decision past its deadline. */
  private tick(): Promise<void> {
    if (this.ticking !== null || this.stopped) return this.ticking ?? Promise.resolve()
    this.ticking = (async () => {
      try {
        await this.beat()
        if (this.ticks++ % 600 === 0) await forgetGone(this.pool)
        const current = await readCurrent(this.pool)
        this.unreachable = null
        if (current !== null) this.learn(current)
        await this.readFleetHistory()
        // a batch held ready that the fleet does not serve: offered again (an earlier offer may have failed)
        if (this.held !== null && this.known?.batchId !== idOf(this.held.file)) await this.offer()
        else this.afterDecision(await decide(this.pool, this.settings.liveSeconds))
      } catch (e) {
        if (this.unreachable === null) log("warn", "the fleet's PostgreSQL cannot be reached", { error: String(e) })
        this.unreachable = UNREACHABLE
      } finally {
        this.ticking = null
      }
    })()
    return this.ticking
  }

  private beat(): Promise<void> {
    const served = this.store?.served() ?? null
    return heartbeat(this.pool, {
      id: this.id,
      role: this.settings.role,
      ready: this.held === null ? null : idOf(this.held.file),
      serving: served === null ? null : idOf(served),
      holds: this.holds(),
    })
  }

  /** Reports the file held ready, proposes it when this member may, and asks for a decision. */
  private async offer(): Promise<void> {
    const ready = this.held
    if (ready === null || this.stopped) return
    try {
      await this.beat()
      const batchId = idOf(ready.file)
      if (this.known?.batchId !== batchId) {
        const outcome = await propose(this.pool, {
          batchId,
          batchDate: ready.batchDate,
          contentHash: ready.contentHash,
          timeoutSeconds: this.settings.switchTimeoutSeconds,
          role: this.settings.role,
          memberId: this.id,
          liveSeconds: this.settings.liveSeconds,
        })
        if (outcome === "proposed") log("info", "fleet proposal", { batch: batchId, by: this.settings.role })
        else if (outcome === "another_primary" && this.refusedProposal !== batchId) {
          this.refusedProposal = batchId
          log("error", "not proposed: another FDS_FLEET_ROLE=primary member is live; a fleet has one primary", { batch: batchId })
        }
      }
      this.afterDecision(await decide(this.pool, this.settings.liveSeconds))
      this.unreachable = null
    } catch (e) {
      this.unreachable = UNREACHABLE
      log("warn", "could not report to the fleet; tried again with the next heartbeat", { error: String(e) })
    }
  }

  private afterDecision(outcome: DecideOutcome): void {
    if (outcome._tag !== "Decided") return
    log("info", "fleet decision", { batch: outcome.current.batchId, seq: outcome.current.seq, left_out: outcome.leftOut })
    this.learn(outcome.current)
  }

  /** Resolves once this member serves the fleet's current batch, or after `millis` (readiness says why). */
  async settle(millis: number): Promise<void> {
    const until = performance.now() + millis
    while (!this.stopped && performance.now() < until && this.problem() !== null) await new Promise((r) => setTimeout(r, 20))
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.unobserve()
    if (this.timer !== null) clearInterval(this.timer)
    await this.ticking?.catch(() => undefined)
    await leave(this.pool, this.id).catch(() => undefined)
    await this.listener?.close()
    await this.pool.end().catch(() => undefined)
  }
}
