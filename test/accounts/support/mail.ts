/** Mails as the tests see them: the outbox folder, a real SMTP sink (smtp-server), and links in a mail's text. */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { SMTPServer } from "smtp-server"

export interface SentMail {
  readonly to: string
  readonly raw: string
}

/** The body of a raw MIME mail with its transfer encoding undone (quoted-printable, base64 or plain). */
export const mailText = (raw: string): string => {
  const split = raw.search(/\r?\n\r?\n/)
  const head = raw.slice(0, split)
  const body = raw.slice(split).trim()
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    return body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
  }
  if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body, "base64").toString("utf8")
  return body
}

/** The first link in a mail that starts with `prefix`. */
export const linkIn = (raw: string, prefix: string): string => {
  const text = mailText(raw)
  const start = text.indexOf(prefix)
  if (start < 0) throw new Error(`no link starting with ${prefix} in:\n${text}`)
  return text.slice(start).split(/\s/)[0]!
}

/** The .eml files of <dataDir>/outbox, oldest first. */
export const outbox = (dataDir: string): string[] => {
  const dir = join(dataDir, "outbox")
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((n) => n.endsWith(".eml"))
    .sort()
    .map((n) => readFileSync(join(dir, n), "utf8"))
}

export interface SmtpSink {
  readonly url: string
  readonly mails: SentMail[]
  /** Waits (bounded) for the n-th mail to `to` (1-based). */
  readonly next: (to: string, nth?: number) => Promise<SentMail>
  readonly close: () => Promise<void>
}

/** A real SMTP server on loopback that keeps every mail it receives. */
export const startSmtpSink = async (): Promise<SmtpSink> => {
  const mails: SentMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on("data", (c: Buffer) => chunks.push(c))
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8")
        for (const rcpt of session.envelope.rcptTo) mails.push({ to: rcpt.address, raw })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.server.address() as AddressInfo).port
  const next = async (to: string, nth = 1): Promise<SentMail> => {
    const deadline = Date.now() + 10_000
    for (;;) {
      const found = mails.filter((m) => m.to === to)[nth - 1]
      if (found !== undefined) return found
      if (Date.now() > deadline) throw new Error(`no mail #${nth} to ${to}; got ${mails.map((m) => m.to).join(", ")}`)
      await new Promise((r) => setTimeout(r, 20))
    }
  }
  return { url: `smtp://127.0.0.1:${port}`, mails, next, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
