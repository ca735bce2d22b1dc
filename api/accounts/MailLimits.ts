/**
 * Limits on the requests that send mail (/register, magic links): at most N mails per e-mail
 * address and M per client address in any rolling hour, so the service cannot be used to flood a
 * mailbox. Kept in memory (a restart forgets them; the hour is short); time from the Effect clock.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { RateLimited } from "../../schemas/ApiErrors.ts"
import { AccountsConfig } from "./AccountsConfig.ts"

const WINDOW_MS = 3_600_000

/** Rolling windows of send times per key. */
export class SendWindows {
  private readonly sent = new Map<string, number[]>()
  private readonly limit: number

  constructor(limit: number) {
    this.limit = limit
  }

  /** Milliseconds until `key` may send again at `nowMs` (0: it may now). */
  waitMs(key: string, nowMs: number): number {
    const times = this.recent(key, nowMs)
    return times.length < this.limit ? 0 : times[times.length - this.limit]! + WINDOW_MS - nowMs
  }

  record(key: string, nowMs: number): void {
    const times = this.recent(key, nowMs)
    times.push(nowMs)
    this.sent.set(key, times)
    if (this.sent.size > 50_000) {
      for (const [k, ts] of this.sent) if (ts.every((t) => t <= nowMs - WINDOW_MS)) this.sent.delete(k)
    }
  }

  private recent(key: string, nowMs: number): number[] {
    return (this.sent.get(key) ?? []).filter((t) => t > nowMs - WINDOW_MS)
  }
}

export class MailLimits extends Context.Service<
  MailLimits,
  {
    /** Counts one mail for the e-mail and the client address, or fails when either is over its limit. */
    readonly take: (email: string, client: string) => Effect.Effect<void, RateLimited>
  }
>()("fds/api/accounts/MailLimits") {
  static readonly layer = Layer.effect(
    MailLimits,
    Effect.gen(function* () {
      const config = yield* AccountsConfig
      const perEmail = new SendWindows(config.mailsPerEmailPerHour)
      const perClient = new SendWindows(config.mailsPerIpPerHour)
      const take = Effect.fn("MailLimits.take")(function* (email: string, client: string) {
        const now = yield* Clock.currentTimeMillis
        const address = email.toLowerCase()
        const wait = Math.max(perEmail.waitMs(address, now), perClient.waitMs(client, now))
        if (wait > 0) {
          return yield* new RateLimited({
            message: "too many mails asked for this address or from this client; retry later",
            retryAfter: Math.ceil(wait / 1000),
          })
        }
        perEmail.record(address, now)
        perClient.record(client, now)
      })
      return MailLimits.of({ take })
    }),
  )
}
