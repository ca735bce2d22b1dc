/** What this process holds open (Linux: /proc/self/fd). */
import { readdirSync, readlinkSync } from "node:fs"

/** The descriptors of this process open on `path` (a server run in-process counts in it). */
export const openHandlesOf = (path: string): number =>
  readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path
    } catch {
      return false // the listing's own descriptor, closed meanwhile
    }
  }).length
