/**
 * A real OpenID Connect provider (oidc-provider) on loopback, and a user agent that signs in
 * through its development login pages: follows redirects, keeps the provider's cookies, submits
 * its forms (any password works; the login name picks the account).
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import Provider from "oidc-provider"
import { request } from "undici"

export interface OidcProvider {
  readonly issuer: string
  /** Registers our client (its callback URL is known once our server runs) and starts answering. */
  readonly start: (client: { readonly clientId: string; readonly clientSecret: string; readonly redirectUri: string }) => void
  readonly close: () => Promise<void>
}

/** Accounts by login name: `email_verified` is false for names starting with "unverified". */
const account = (id: string) => ({
  accountId: id,
  claims: () => ({ sub: id, email: `${id}@example.cl`, email_verified: !id.startsWith("unverified") }),
})

export const startOidcProvider = async (): Promise<OidcProvider> => {
  const server: Server = createServer((_req, res) => {
    res.statusCode = 503
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    issuer,
    start: (client) => {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: client.clientId,
            client_secret: client.clientSecret,
            redirect_uris: [client.redirectUri],
            response_types: ["code"],
            grant_types: ["authorization_code"],
            token_endpoint_auth_method: "client_secret_post",
          },
        ],
        findAccount: (_ctx, id) => account(id),
        claims: { openid: ["sub"], email: ["email", "email_verified"] },
        pkce: { required: () => true },
        cookies: { keys: ["test-cookie-key"] },
        // Consent is granted at once: the test signs in, it does not read consent screens.
        loadExistingGrant: async (ctx) => {
          const accountId = ctx.oidc.session?.accountId
          if (accountId === undefined) return undefined
          const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId })
          grant.addOIDCScope("openid email")
          await grant.save()
          return grant
        },
      })
      server.removeAllListeners("request")
      server.on("request", provider.callback())
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * From `start` (our /api/auth/google URL), signs in at the provider as `login` and returns the
 * first URL that leads outside the provider and outside our callback (the return URL with its code),
 * or the last reply when the chain ends elsewhere.
 */
export const signInAtProvider = async (
  start: string,
  issuer: string,
  login: string,
  stopAt: string,
): Promise<{ readonly url: string; readonly status: number; readonly body: string }> => {
  const jar = new Map<string, string>()
  let url = start
  let method = "GET"
  let body: string | undefined
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(stopAt)) return { url, status: 0, body: "" }
    const onProvider = url.startsWith(issuer)
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ")
    const res = await request(url, {
      method: method as "GET",
      headers: {
        ...(onProvider && cookie !== "" ? { cookie } : {}),
        ...(body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
      },
      ...(body === undefined ? {} : { body }),
    })
    const text = await res.body.text()
    if (onProvider) {
      const set = res.headers["set-cookie"]
      for (const line of Array.isArray(set) ? set : set === undefined ? [] : [set]) {
        const [pair] = line.split(";")
        const [k, ...v] = pair!.split("=")
        jar.set(k!.trim(), v.join("="))
      }
    }
    const location = res.headers.location
    if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === "string") {
      url = new URL(location, url).href
      method = "GET"
      body = undefined
      continue
    }
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post"/i.exec(text)
    if (!onProvider || res.statusCode !== 200 || form === null) return { url, status: res.statusCode, body: text }
    const fields = new URLSearchParams()
    for (const m of text.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi)) fields.set(m[1]!, m[2]!)
    if (/name="login"/.test(text)) {
      fields.set("login", login)
      fields.set("password", "any")
    }
    url = new URL(form[1]!.replaceAll("&amp;", "&"), url).href
    method = "POST"
    body = fields.toString()
  }
  throw new Error("too many hops")
}
