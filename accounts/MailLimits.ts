/**
 * Limits on the requests that send mail (/register, magic links), so that the service cannot be
 * used to flood a mailbox or a mail domain: in any rolling hour at most N mails per mailbox (the
 * address as MailboxAddress.ts reads it: `victim+1@…` is `victim@…`), M per client address and D
 * per mail domain (many addresses at one domain flood its mail server as well; the big providers
 * are counted too: bursts to them get a sender throttled or filtered as spam). Kept in memory (a
 * restart forgets them; the hour is short; each replica counts its own); time from the Effect clock.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { RateLimited } from "../schemas/ApiErrors.ts"
import { AccountsConfig } from "./AccountsConfig.ts"
import { mailboxKey, mailDomain } from "./MailboxAddress.ts"

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
    /** Counts one mail for the mailbox, the client address and the mail domain, or fails when one is over its limit. */
    readonly take: (email: string, client: string) => Effect.Effect<void, RateLimited>
  }
>()("fds/accounts/MailLimits") {
  static readonly layer = Layer.effect(
    MailLimits,
    Effect.gen(function* () {
      const config = yield* AccountsConfig
      const perMailbox = new SendWindows(config.mailsPerEmailPerHour)
      const perClient = new SendWindows(config.mailsPerIpPerHour)
      const perDomain = new SendWindows(config.mailsPerDomainPerHour)
      const take = Effect.fn("MailLimits.take")(function* (email: string, client: string) {
        const now = yield* Clock.currentTimeMillis
        const mailbox = mailboxKey(email)
        const domain = mailDomain(email)
        const waits = [
          { ms: perMailbox.waitMs(mailbox, now), what: "for this address" },
          { ms: perClient.waitMs(client, now), what: "from this client" },
          { ms: perDomain.waitMs(domain, now), what: "for addresses at this mail domain" },
        ].filter((w) => w.ms > 0)
        if (waits.length > 0) {
          return yield* new RateLimited({
            message: `too many mails asked ${waits.map((w) => w.what).join(" and ")}; retry later`,
            retryAfter: Math.ceil(Math.max(...waits.map((w) => w.ms)) / 1000),
          })
        }
        perMailbox.record(mailbox, now)
        perClient.record(client, now)
        perDomain.record(domain, now)
      })
      return MailLimits.of({ take })
    }),
  )
}
