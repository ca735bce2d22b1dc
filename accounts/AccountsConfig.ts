/**
 * Settings of the account side (registration, login, mail), read through Effect Config from the
 * environment. Every default lets `./fds serve` run on a fresh machine: the public URL defaults to
 * the server's own address, mail goes to data/outbox/ without FDS_SMTP_URL, and the signing
 * secret is generated once into data/secret.key without FDS_SECRET (ServiceSecret.ts).
 */
import { Config, Context, Effect, Layer, Option, type Redacted, Schema } from "effect"
import { HttpServer } from "effect/http"
import { NetAddress } from "effect/net"
import { join } from "node:path"
import { serviceSecret } from "./ServiceSecret.ts"

export interface OidcSettings {
  readonly issuer: URL
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
}

export interface AccountsSettings {
  readonly dataDir: string
  /** Where people reach the service; links in mails and the only allowed return_url origin. */
  readonly publicUrl: URL
  /** Origins whose browser requests account routes accept (the public origin and FDS_TRUSTED_ORIGINS). */
  readonly trustedOrigins: ReadonlySet<string>
  readonly smtpUrl: Option.Option<Redacted.Redacted<string>>
  readonly mailFrom: string
  /** None: FDS_OIDC_CLIENT_ID / FDS_OIDC_CLIENT_SECRET unset, social login answers 503. */
  readonly oidc: Option.Option<OidcSettings>
  /** HMAC key of the unsubscribe tokens (at least 32 bytes; see ServiceSecret.ts). */
  readonly secret: Redacted.Redacted<Uint8Array>
  /** Mail limits per rolling hour (MailLimits.ts): per mailbox, per client address, per mail domain. */
  readonly mailsPerEmailPerHour: number
  readonly mailsPerIpPerHour: number
  readonly mailsPerDomainPerHour: number
}

export class AccountsConfig extends Context.Service<AccountsConfig, AccountsSettings>()("fds/accounts/AccountsConfig") {
  /** Reads the settings; the default public URL is the bound address of the HTTP server. */
  static readonly layer = (dataDir: string) =>
    Layer.effect(
      AccountsConfig,
      Effect.gen(function* () {
        const server = yield* HttpServer.HttpServer
        const bound = NetAddress.isUnixPathAddress(server.address)
          ? "http://localhost"
          : NetAddress.formatUrlUnsafe(server.address, "http")
        const publicUrl = yield* Config.URL("FDS_PUBLIC_URL").pipe(Config.withDefault(new URL(bound)))
        const extra = yield* Config.String("FDS_TRUSTED_ORIGINS").pipe(Config.withDefault(""))
        const issuer = yield* Config.URL("FDS_OIDC_ISSUER").pipe(Config.withDefault(new URL("https://accounts.google.com")))
        const clientId = yield* Config.option(Config.NonEmptyString("FDS_OIDC_CLIENT_ID"))
        const clientSecret = yield* Config.option(Config.Redacted("FDS_OIDC_CLIENT_SECRET"))
        const secret = yield* Config.option(Config.Redacted("FDS_SECRET"))
        return AccountsConfig.of({
          dataDir,
          publicUrl,
          trustedOrigins: new Set([publicUrl.origin, ...extra.split(",").map((o) => o.trim()).filter((o) => o !== "")]),
          smtpUrl: yield* Config.option(Config.Redacted("FDS_SMTP_URL")),
          mailFrom: yield* Config.String("FDS_MAIL_FROM").pipe(
            Config.withDefault(`Fund Data Service <no-reply@${publicUrl.hostname}>`),
          ),
          oidc:
            Option.isSome(clientId) && Option.isSome(clientSecret)
              ? Option.some({ issuer, clientId: clientId.value, clientSecret: clientSecret.value })
              : Option.none(),
          secret: yield* serviceSecret(secret, dataDir),
          mailsPerEmailPerHour: yield* perHour("FDS_MAIL_PER_EMAIL_PER_HOUR", 5),
          mailsPerIpPerHour: yield* perHour("FDS_MAIL_PER_IP_PER_HOUR", 20),
          // Protects third-party domains from a flood sent through us, big providers included; 50
          // an hour is far above the sign-ups one domain brings this service (raise it for a
          // launch, or when most users share one employer's domain).
          mailsPerDomainPerHour: yield* perHour("FDS_MAIL_PER_DOMAIN_PER_HOUR", 50),
        })
      }),
    )
}

/** A mail limit: a whole number of mails per hour, at least 1 (0 would not mean "no limit"). */
const perHour = (name: string, fallback: number) =>
  Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)), name).pipe(Config.withDefault(fallback))

/**
 * The SQLite accounts file: FDS_ACCOUNTS_PATH, else `<data dir>/accounts.sqlite`. Set it to keep
 * the store (and so every keyed route) off the data volume, which raw files and snapshots can fill.
 */
export const accountsPath = (dataDir: string): Config.Config<string> =>
  Config.String("FDS_ACCOUNTS_PATH").pipe(
    Config.withDefault(""),
    Config.map((path) => (path.trim() === "" ? join(dataDir, "accounts.sqlite") : path)),
  )

/** An absolute link under the public URL (which may carry a path prefix). */
export const publicLink = (
  config: Pick<AccountsSettings, "publicUrl">,
  path: string,
  params: Readonly<Record<string, string>> = {},
): string => {
  const base = config.publicUrl.href.endsWith("/") ? config.publicUrl.href : `${config.publicUrl.href}/`
  const url = new URL(path.replace(/^\/+/, ""), base)
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return url.href
}
