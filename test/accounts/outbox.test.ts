/** Without SMTP, mails are .eml files in data/outbox/ whose names sort in sending order. */

import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, Option, Redacted } from "effect"
import { afterAll, describe, expect, it, vi } from "vitest"
import { AccountsConfig } from "../../accounts/AccountsConfig.ts"
import { Mailer } from "../../accounts/Mailer.ts"
import { mailText, outbox } from "./support/mail.ts"

describe("the outbox", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "fds-outbox-"))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  const config = Layer.succeed(
    AccountsConfig,
    AccountsConfig.of({
      dataDir,
      publicUrl: new URL("http://localhost:8080"),
      trustedOrigins: new Set(["http://localhost:8080"]),
      smtpUrl: Option.none(),
      mailFrom: "Fund Data Service <no-reply@localhost>",
      oidc: Option.none(),
      secret: Redacted.make(new Uint8Array(32)),
      mailsPerEmailPerHour: 5,
      mailsPerIpPerHour: 20,
      mailsPerDomainPerHour: 50,
    }),
  )

  it("names mails so that they sort in sending order, also many within one millisecond", async () => {
    const sent = 200
    // the clock stands still: every mail is written in the same millisecond, so the time alone would not order them
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2026-11-22T10:00:00.000Z"))
    try {
      await Effect.runPromise(
        Effect.gen(function* () {
          const mailer = yield* Mailer
          for (let i = 0; i < sent; i++) yield* mailer.send({ to: "a@example.cl", subject: `mail ${i}`, text: `number ${i}` })
        }).pipe(Effect.provide(Mailer.layer.pipe(Layer.provide(config))), Effect.scoped),
      )
    } finally {
      vi.useRealTimers()
    }
    const names = readdirSync(join(dataDir, "outbox"))
    expect(names).toHaveLength(sent)
    expect(new Set(names.map((n) => n.slice(0, "2026-11-22T10-00-00-000Z".length)))).toEqual(new Set(["2026-11-22T10-00-00-000Z"]))
    const order = outbox(dataDir).map((raw) => Number(/number (\d+)/.exec(mailText(raw))?.[1]))
    expect(order).toEqual(Array.from({ length: sent }, (_, i) => i))
  })
})
