/** Signing in over HTTP the way a page on the public origin would: magic link from the outbox → /api/auth/callback. */
import { expect } from "vitest"
import { type Reply, call, headerOf } from "./accountsServer.ts"
import { linkIn, outbox } from "./mail.ts"

/** The value of cookie `name` in a reply's Set-Cookie headers, with its attributes. */
export const setCookie = (reply: Reply, name: string): { value: string; attributes: string[] } | undefined => {
  const raw = reply.headers["set-cookie"]
  for (const line of Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]) {
    const [pair, ...attributes] = line.split(/;\s*/)
    const [n, ...v] = pair!.split("=")
    if (n === name) return { value: v.join("="), attributes }
  }
  return undefined
}

/** Mails a magic link for `email`, follows it, and returns the session cookie value. */
export const signIn = async (
  url: string,
  dataDir: string,
  email: string,
  headers: Record<string, string> = {},
): Promise<string> => {
  const before = outbox(dataDir).length
  const asked = await call(`${url}/api/auth/magic-link`, {
    method: "POST",
    json: { email, return_url: `${url}/account` },
    headers: { origin: url, ...headers },
  })
  expect(asked.status).toBe(202)
  const mails = outbox(dataDir)
  expect(mails.length).toBe(before + 1)
  const token = new URL(linkIn(mails.at(-1)!, `${url}/account?token=`)).searchParams.get("token")!
  const done = await call(`${url}/api/auth/callback`, { method: "POST", json: { token }, headers: { origin: url, ...headers } })
  expect(done.status, done.text).toBe(200)
  const cookie = setCookie(done, "fds_session")
  expect(cookie, headerOf(done, "set-cookie")).toBeDefined()
  return cookie!.value
}
