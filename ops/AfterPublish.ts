/**
 * The daemon's one afterPublish made of several (the bucket upload, the alert mails): each runs, in
 * order, even when one before it failed; their fields are merged into the "after publish
 * finished" line, and any failure fails the whole hook with every failure's message (logged by the
 * daemon as "after publish failed").
 */
import type { Published } from "../pipeline/daemon/Daemon.ts"

export type AfterPublish = (published: Published, signal: AbortSignal) => Promise<Readonly<Record<string, unknown>> | undefined>

export const afterPublishHooks =
  (hooks: Readonly<Record<string, AfterPublish>>): AfterPublish =>
  async (published, signal) => {
    const fields: Record<string, unknown> = {}
    const failures: string[] = []
    const errors: unknown[] = []
    for (const [name, hook] of Object.entries(hooks)) {
      try {
        Object.assign(fields, await hook(published, signal))
      } catch (e) {
        errors.push(e)
        failures.push(`${name}: ${e instanceof Error ? e.message : String(e)}`)
      }
    }
    // one hook alone that failed: its own error, as the daemon logged it before hooks were composed
    if (Object.keys(hooks).length === 1 && errors.length === 1) throw errors[0]
    if (failures.length > 0) throw new Error(`${failures.join("; ")}${Object.keys(fields).length > 0 ? ` (done: ${JSON.stringify(fields)})` : ""}`)
    return fields
  }
