/**
 * Sends the service's mails: through SMTP (nodemailer) when FDS_SMTP_URL is set, otherwise as
 * .eml files in data/outbox/ (the same MIME bytes nodemailer would send). Mails carry one-time
 * links, never API keys.
 */
import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { mkdirSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import nodemailer from "nodemailer"
import { AccountsConfig } from "./AccountsConfig.ts"

export interface Mail {
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html?: string | undefined
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post for alert mails). */
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** The mail could not be handed over (SMTP down, disk full). */
export class MailUnavailable extends Schema.TaggedError<MailUnavailable>()("MailUnavailable", {
  cause: Schema.Defect(),
}) {}

export class Mailer extends Context.Service<
  Mailer,
  { readonly send: (mail: Mail) => Effect.Effect<void, MailUnavailable> }
>()("fds/accounts/Mailer") {
  static readonly layer = Layer.effect(
    Mailer,
    Effect.gen(function* () {
      const config = yield* AccountsConfig
      const smtp = Option.map(config.smtpUrl, Redacted.value)
      const outbox = join(config.dataDir, "outbox")
      const transport = yield* Effect.acquireRelease(
        Effect.sync(() =>
          Option.isSome(smtp)
            ? nodemailer.createTransport(smtp.value)
            : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }),
        ),
        (t) => Effect.sync(() => t.close()),
      )
      const send = Effect.fn("Mailer.send")(function* (mail: Mail) {
        const info = yield* Effect.tryPromise({
          try: (): Promise<unknown> =>
            transport.sendMail({
              from: config.mailFrom,
              to: mail.to,
              subject: mail.subject,
              text: mail.text,
              ...(mail.html === undefined ? {} : { html: mail.html }),
              ...(mail.headers === undefined ? {} : { headers: { ...mail.headers } }),
            }),
          catch: (cause) => new MailUnavailable({ cause }),
        })
        if (Option.isNone(smtp)) {
          const message = (info as { message?: unknown }).message
          yield* Effect.try({
            try: () => writeOutbox(outbox, Buffer.isBuffer(message) ? message : Buffer.from(String(message))),
            catch: (cause) => new MailUnavailable({ cause }),
          })
        }
      })
      return Mailer.of({ send })
    }),
  )
}

/** Mails this process has written: orders two written in the same millisecond. */
let written = 0

/**
 * One file per mail, named so that `ls` lists a process's mails in sending order (the time to the
 * millisecond, then the process's count); written under a temporary name.
 */
const writeOutbox = (dir: string, bytes: Buffer): void => {
  mkdirSync(dir, { recursive: true })
  written = (written + 1) % 1_000_000
  const at = new Date().toISOString().replace(/[:.]/g, "-")
  const name = `${at}-${String(written).padStart(6, "0")}-${randomBytes(4).toString("hex")}.eml`
  const tmp = join(dir, `.${name}.tmp`)
  writeFileSync(tmp, bytes, { mode: 0o600 })
  renameSync(tmp, join(dir, name))
}
