/**
 * Whether the pipeline run a `running` STATUS.json names is gone without finishing. A run writes
 * `running` after it took the data folder's lock (<data>/pipeline.lock, which names its owner:
 * LockOwner.ts) and writes its outcome before it lets the lock go, so a `running` status is the
 * truth only while the lock names that run's process and that process lives:
 * - the lock gone, or naming another process: the run ended without writing its outcome (a later
 *   run took the dead run's lock over, or the lock was removed);
 * - the lock naming it, and a reader on the same boot and in the same pid namespace finds the
 *   process gone (or its pid reused): killed, its lock left behind.
 * A reader elsewhere (another container's pid namespace) cannot look the pid up: it trusts the
 * lock until the next run takes it over.
 */
import { readFileSync, readlinkSync } from "node:fs"
import { join } from "node:path"
import { isRunning, parseOwner, thisProcess } from "./LockOwner.ts"

/** The run's process as STATUS.json records it (snapshots/Status.ts RunProcess). */
export interface RunProcessRef {
  readonly pid: number
  readonly start_time: string | null
  readonly boot_id: string | null
  readonly pid_namespace: string | null
}

let namespace: string | null | undefined
/** This process's pid namespace (`pid:[4026531836]`); null where /proc does not say. */
export const pidNamespace = (): string | null => {
  if (namespace === undefined) {
    try {
      namespace = readlinkSync("/proc/self/ns/pid")
    } catch {
      namespace = null
    }
  }
  return namespace
}

/** This process, as a run records itself in STATUS.json. */
export const thisRunProcess = (): RunProcessRef => {
  const me = thisProcess()
  return { pid: me.pid, start_time: me.startTime, boot_id: me.bootId, pid_namespace: pidNamespace() }
}

const lockText = (dataDir: string): string | null => {
  try {
    return readFileSync(join(dataDir, "pipeline.lock"), "utf8")
  } catch {
    return null
  }
}

/** True when the run of `run` (a `running` status) is known to have ended without finishing. */
export const runIsGone = (dataDir: string, run: RunProcessRef): boolean => {
  const me = thisRunProcess()
  // this very process: its run is alive as long as the reader is (a run without the lock: tests)
  if (run.pid === me.pid && run.start_time === me.start_time && run.boot_id === me.boot_id && run.pid_namespace === me.pid_namespace) return false
  const text = lockText(dataDir)
  const owner = text === null ? null : parseOwner(text)
  if (owner === null || owner.pid !== run.pid || owner.startTime !== run.start_time || owner.bootId !== run.boot_id) return true
  const here = run.boot_id !== null && run.boot_id === me.boot_id && run.pid_namespace !== null && run.pid_namespace === me.pid_namespace
  return here && !isRunning(owner)
}
