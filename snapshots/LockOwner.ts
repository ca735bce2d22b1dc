/**
 * Who holds the pipeline lock: a process named by its pid, its start time (field 22 of
 * /proc/<pid>/stat, clock ticks after boot) and the boot id. A pid alone is not a process: pids
 * are reused, and a restarted container's daemon is PID 1 again, so a lock naming a pid that is
 * alive may have been left by a dead process. With the start time and boot id it is known. Where
 * /proc is missing (not Linux) only the pid is known, as in locks written by earlier versions.
 */
import { readFileSync } from "node:fs"

export interface LockOwner {
  readonly pid: number
  /** Field 22 of /proc/<pid>/stat; null when unknown. */
  readonly startTime: string | null
  /** /proc/sys/kernel/random/boot_id; null when unknown. */
  readonly bootId: string | null
}

const readOrNull = (path: string): string | null => {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return null
  }
}

/** The state (field 3) and start time (field 22) of a process; null when it is gone or /proc is missing. */
const statOf = (pid: number): { readonly state: string; readonly startTime: string } | null => {
  const stat = readOrNull(`/proc/${pid}/stat`)
  if (stat === null) return null
  // the command name (field 2) is in parentheses and may hold spaces and parentheses itself
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return fields.length > 19 ? { state: fields[0]!, startTime: fields[19]! } : null
}

let self: LockOwner | undefined
/** This process. */
export const thisProcess = (): LockOwner =>
  (self ??= {
    pid: process.pid,
    startTime: statOf(process.pid)?.startTime ?? null,
    bootId: readOrNull("/proc/sys/kernel/random/boot_id")?.trim() || null,
  })

/** One line: `pid start-time boot-id` ("-" for what is unknown); the pid first, as earlier versions wrote it. */
export const formatOwner = (owner: LockOwner): string => `${owner.pid} ${owner.startTime ?? "-"} ${owner.bootId ?? "-"}\n`

/** The owner a lock file names; null for anything else (empty, or cut short by a crash of an earlier version). */
export const parseOwner = (text: string): LockOwner | null => {
  const [pid, startTime, bootId] = text.trim().split(/\s+/u)
  if (pid === undefined || !/^[1-9]\d*$/u.test(pid)) return null
  const known = (s: string | undefined) => (s === undefined || s === "-" || s === "" ? null : s)
  return { pid: Number(pid), startTime: known(startTime), bootId: known(bootId) }
}

const exists = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * Whether `owner` is a process that still runs. This process's own pid is not: the caller holds
 * no lock it has not written itself (RunLock keeps those), so that lock was left by an earlier
 * process with the same pid. Nor is a process of another boot, a pid that is gone or a zombie,
 * or a pid now used by a process started at another time.
 */
export const isRunning = (owner: LockOwner, me: LockOwner = thisProcess()): boolean => {
  if (owner.pid === me.pid) return false
  if (owner.bootId !== null && me.bootId !== null && owner.bootId !== me.bootId) return false
  if (!exists(owner.pid)) return false
  const stat = statOf(owner.pid)
  if (stat === null) return true // alive, but /proc does not tell more (not Linux, or hidden)
  if (stat.state === "Z" || stat.state === "X") return false
  return owner.startTime === null || owner.startTime === stat.startTime
}
