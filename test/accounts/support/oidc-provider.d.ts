/** The little of oidc-provider's API the tests use (the package ships no types). */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http"

  interface Grant {
    addOIDCScope(scope: string): void
    save(): Promise<string>
  }
  interface Context {
    readonly oidc: {
      readonly session?: { readonly accountId?: string }
      readonly client?: { readonly clientId: string }
      readonly provider: { readonly Grant: new (init: { clientId: string; accountId: string }) => Grant }
    }
  }
  interface Account {
    readonly accountId: string
    claims(): Record<string, unknown>
  }
  interface Configuration {
    readonly clients?: ReadonlyArray<Record<string, unknown>>
    readonly findAccount?: (ctx: Context, id: string) => Account | undefined | Promise<Account | undefined>
    readonly claims?: Record<string, ReadonlyArray<string>>
    readonly pkce?: { readonly required?: () => boolean }
    readonly cookies?: { readonly keys?: ReadonlyArray<string> }
    readonly loadExistingGrant?: (ctx: Context) => Promise<Grant | undefined>
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration)
    callback(): (req: IncomingMessage, res: ServerResponse) => void
  }
}
