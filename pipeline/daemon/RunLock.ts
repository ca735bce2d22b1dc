/**
 * One pipeline writer per data folder: `pipeline run`, each daemon tick, `pipeline rollback` and
 * `pipeline withdraw` hold <data>/pipeline.lock while they work. Two runs at once would sweep each
 * other's temporary files and race on CURRENT.
 *
 * The lock file names its owner by pid, start time and boot id (LockOwner.ts), so a lock left by
 * a dead process is known to be stale even when its pid was reused, by another process or by this
 * one (a restarted container's PID 1). It is created whole: written under a name of its own, then
 * linked to pipeline.lock with link(2), which fails when the lock exists (no reader ever sees a
 * half-written lock). A stale lock is taken over under a takeover guard, itself created with
 * link(2): of processes racing for the same stale lock exactly one gets it, and the others find
 * the new, live lock.
 */
import { Effect, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { closeSync, fstatSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { basename, dirname, join, resolve } from "node:path"
import { formatOwner, isRunning, type LockOwner, parseOwner, thisProcess } from "../../snapshots/LockOwner.ts"

export class RunLocked extends Schema.TaggedError<RunLocked>()("RunLocked", { pid: Schema.Number, path: Schema.String }) {}

export const lockedMessage = (e: RunLocked): string =>
  `another pipeline process (pid ${e.pid}) holds ${e.path}; try again when it has finished`

export const lockPath = (dataDir: string): string => join(dataDir, "pipeline.lock")

/** The locks this process holds: a lock naming its pid that is not here was left by an earlier process. */
const heldHere = new Set<string>()

/** Guards a takeover may pass over (each left by a taker killed within its few system calls). */
const GUARDS = 8
/** Waits while another process takes a stale lock over, before giving up (10 ms each). */
const ATTEMPTS = 200

interface LockFile {
  readonly ino: number
  readonly mtimeMs: number
  readonly text: string
  readonly owner: LockOwner | null
}

const readLock = (path: string): LockFile | null => {
  let fd: number
  try {
    fd = openSync(path, "r")
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null
    throw e
  }
  try {
    const text = readFileSync(fd, "utf8")
    const { ino, mtimeMs } = fstatSync(fd)
    return { ino, mtimeMs, text, owner: parseOwner(text) }
  } finally {
    closeSync(fd)
  }
}

const live = (lock: LockFile): boolean => lock.owner !== null && isRunning(lock.owner)

/** link(2): creates `to` as `from`'s file, or fails when `to` exists. */
const linked = (from: string, to: string): boolean => {
  try {
    linkSync(from, to)
    return true
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false
    throw e
  }
}

const pause = (millis: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, millis)

/**
 * Puts `mine` in place of the stale lock `stale`. The guard `.takeover.<k>` is created by one
 * process only; it checks that the lock is still the stale one before renaming its own over it.
 * A guard whose taker died is passed over for the next k, and removed by the one that takes over.
 */
const takeOver = (path: string, mine: string, stale: LockFile): "taken" | "busy" | "changed" => {
  const passed: string[] = []
  for (let k = 0; k < GUARDS; k++) {
    const guard = `${path}.takeover.${k}`
    if (linked(mine, guard)) {
      try {
        const now = readLock(path)
        if (now === null || now.ino !== stale.ino || now.text !== stale.text) return "changed"
        renameSync(mine, path)
        for (const p of passed) rmSync(p, { force: true })
        return "taken"
      } finally {
        rmSync(guard, { force: true })
      }
    }
    const taker = readLock(guard)
    if (taker === null) return "changed" // that takeover has just ended
    if (live(taker)) return "busy"
    passed.push(guard)
  }
  return "busy"
}

/** Takes the lock; the pid of a live holder when it is taken. */
const tryAcquire = (path: string): number | null => {
  const me = thisProcess()
  if (heldHere.has(path)) return me.pid
  const mine = `${path}.${me.pid}-${randomBytes(6).toString("hex")}.tmp`
  writeFileSync(mine, formatOwner(me), { flag: "wx" })
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (linked(mine, path)) return null
      const found = readLock(path)
      if (found === null) continue // released meanwhile
      if (live(found)) return found.owner!.pid
      const outcome = takeOver(path, mine, found)
      if (outcome === "taken") return null
      if (outcome === "busy") pause(10) // another process is taking it over: its lock shows in a moment
    }
    return readLock(path)?.owner?.pid ?? 0
  } finally {
    rmSync(mine, { force: true })
  }
}

/**
 * Removes what killed processes left of their attempts (their own-named lock files, takeover
 * guards); best effort: the lock is held either way. A file naming no owner may be one that
 * another process is writing at this moment: it is left alone for a minute.
 */
const sweepLeftovers = (path: string): void => {
  const prefix = `${basename(path)}.`
  try {
    for (const name of readdirSync(dirname(path))) {
      if (!name.startsWith(prefix) || !(name.endsWith(".tmp") || name.startsWith(`${prefix}takeover.`))) continue
      const left = readLock(join(dirname(path), name))
      const dead = left !== null && (left.owner === null ? Date.now() - left.mtimeMs > 60_000 : !isRunning(left.owner))
      if (dead) rmSync(join(dirname(path), name), { force: true })
    }
  } catch {
    // a leftover is harmless: the next holder sweeps it
  }
}

/** Runs `effect` holding the data folder's pipeline lock. */
export const withRunLock = <A, E, R>(dataDir: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | RunLocked, R> =>
  Effect.acquireUseRelease(
    Effect.suspend(() => {
      mkdirSync(dataDir, { recursive: true })
      const path = resolve(lockPath(dataDir))
      const holder = tryAcquire(path)
      if (holder !== null) return Effect.fail(new RunLocked({ pid: holder, path: lockPath(dataDir) }))
      heldHere.add(path)
      sweepLeftovers(path)
      return Effect.succeed(path)
    }),
    () => effect,
    (path) =>
      Effect.sync(() => {
        heldHere.delete(path)
        if (readLock(path)?.text === formatOwner(thisProcess())) rmSync(path, { force: true })
      }),
  )
