/** Every accounts service over one accounts store (accounts.sqlite, or PostgreSQL with FDS_ACCOUNTS_URL), with its settings, mailer and mail limits. */
import { Layer } from "effect"
import { AccountsConfig } from "./AccountsConfig.ts"
import { AccountsDb } from "./AccountsDb.ts"
import { KeyStore } from "./KeyStore.ts"
import { Logins } from "./Logins.ts"
import { MailLimits } from "./MailLimits.ts"
import { Mailer } from "./Mailer.ts"
import { Oidc } from "./Oidc.ts"
import { Registrations } from "./Registrations.ts"
import { Sessions } from "./Sessions.ts"
import { Users } from "./Users.ts"
import { Watchlist } from "./Watchlist.ts"
import { Webhooks } from "./Webhooks.ts"

/** Needs the HTTP server (the public URL defaults to its address). */
/** The accounts services on a given store (AccountsDb); their settings need the bound address. */
export const AccountsOnStore = (dataDir: string) =>
  Layer.mergeAll(Registrations.layer, Logins.layer, Oidc.layer, Webhooks.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(KeyStore.layer, Users.layer, Sessions.layer, Watchlist.layer, Mailer.layer, MailLimits.layer)),
    Layer.provideMerge(AccountsConfig.layer(dataDir)),
  )

export const accountsStore = (dataDir: string) => AccountsDb.layer(dataDir)

export const AccountsLive = (dataDir: string) => AccountsOnStore(dataDir).pipe(Layer.provideMerge(accountsStore(dataDir)))
