/**
 * One pipeline writer per data folder: `pipeline run`, each daemon tick and `pipeline rollback`
 * hold <data>/pipeline.lock (created with O_EXCL, holding the owner's pid) while they work. Two
 * runs at once would sweep each other's temporary files and race on CURRENT. A lock left by a
 * process that no longer exists (killed) is taken over.
 */
import { Effect, Schema } from "effect"
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs"
import { join } from "node:path"

export class RunLocked extends Schema.TaggedError<RunLocked>()("RunLocked", { pid: Schema.Number, path: Schema.String }) {}

export const lockedMessage = (e: RunLocked): string =>
  `another pipeline process (pid ${e.pid}) holds ${e.path}; try again when it has finished`

export const lockPath = (dataDir: string): string => join(dataDir, "pipeline.lock")

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

const ownerOf = (path: string): number | null => {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8"), 10)
    return Number.isInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null
  }
}

/** Takes the lock; the pid of a live holder when it is taken. */
const tryAcquire = (path: string): number | null => {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx")
      try {
        writeSync(fd, `${process.pid}\n`)
      } finally {
        closeSync(fd)
      }
      return null
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
      const owner = ownerOf(path)
      if (owner !== null && alive(owner)) return owner
      rmSync(path, { force: true }) // left by a dead process (or half written by one)
    }
  }
  return ownerOf(path) ?? 0
}

/** Runs `effect` holding the data folder's pipeline lock. */
export const withRunLock = <A, E, R>(dataDir: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | RunLocked, R> =>
  Effect.acquireUseRelease(
    Effect.suspend(() => {
      mkdirSync(dataDir, { recursive: true })
      const path = lockPath(dataDir)
      const holder = tryAcquire(path)
      return holder === null ? Effect.succeed(path) : Effect.fail(new RunLocked({ pid: holder, path }))
    }),
    () => effect,
    (path) =>
      Effect.sync(() => {
        if (ownerOf(path) === process.pid) rmSync(path, { force: true })
      }),
  )
