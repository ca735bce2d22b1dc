/**
 * A real webhook receiver on 127.0.0.1 (ephemeral port) that verifies every delivery with the
 * `standardwebhooks` library (`new Webhook(secret).verify(body, headers)`), as a key holder's
 * endpoint would. Its behaviour is set per test: answer 200, fail the first N attempts with 500,
 * hang (never answer) the first N, or answer every one with a given status (410 Gone).
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"

export interface Received {
  readonly id: string
  readonly timestamp: number
  readonly body: { readonly type: string; readonly timestamp: string; readonly data: Record<string, unknown> }
  /** Whether the signature verified with the secret. */
  readonly verified: boolean
  /** performance.timeOrigin + performance.now() when it arrived. */
  readonly atMs: number
  readonly status: number
}

export interface Receiver {
  readonly url: string
  /** Every request, in order (failed attempts included). */
  readonly requests: Received[]
  /** The deliveries answered 2xx (with a verified signature). */
  readonly delivered: () => Received[]
  secret: string
  /** How the next requests are answered. */
  behaviour: { readonly failFirst?: number; readonly hangFirst?: number; readonly answer?: number }
  readonly close: () => Promise<void>
}

export const startReceiver = async (secret = ""): Promise<Receiver> => {
  const requests: Received[] = []
  let seen = 0
  const hung = new Set<import("node:http").ServerResponse>()
  const receiver: Receiver = {
    url: "",
    requests,
    delivered: () => requests.filter((r) => r.status === 200 && r.verified),
    secret,
    behaviour: {},
    close: async () => {
      for (const res of hung) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const atMs = performance.timeOrigin + performance.now()
      const text = Buffer.concat(chunks).toString("utf8")
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]))
      let verified = false
      try {
        new Webhook(receiver.secret).verify(text, headers)
        verified = true
      } catch {
        verified = false
      }
      const n = ++seen
      const { failFirst = 0, hangFirst = 0, answer } = receiver.behaviour
      const status = !verified ? 400 : answer !== undefined ? answer : n <= hangFirst ? 0 : n <= hangFirst + failFirst ? 500 : 200
      requests.push({
        id: String(req.headers["webhook-id"]),
        timestamp: Number(req.headers["webhook-timestamp"]),
        body: JSON.parse(text) as Received["body"],
        verified,
        atMs,
        status,
      })
      if (status === 0) {
        hung.add(res) // never answered: the sender's timeout ends it
        return
      }
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "not now")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  ;(receiver as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return receiver
}
