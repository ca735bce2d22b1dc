/**
 * Slow and greedy clients (api/ratelimit/ConnectionGuard.ts) on a real node:http server made by
 * loggedServer, over real sockets from 127.0.0.1: the per-address cap closes the connection over
 * it at once (trusted proxies excepted), a half-sent header is answered 408 and dropped after the
 * headers timeout, a body that never ends after the request timeout, and keep-alive still works.
 * Before, one address could hold any number of sockets, each for Node's 60 s header timeout.
 */
import { once } from "node:events"
import type { Server } from "node:http"
import { type AddressInfo, connect, type Socket } from "node:net"
import { describe, expect, it } from "vitest"
import { loggedServer } from "../../api/http/RequestLog.ts"
import type { ConnectionLimits } from "../../api/ratelimit/ConnectionGuard.ts"

const HALF_HEADERS = "GET /x HTTP/1.1\r\nHost: x\r\n"

interface Held {
  readonly socket: Socket
  readonly opened: number
  /** All the server sent, and when the connection closed. */
  readonly closed: Promise<{ readonly got: string; readonly at: number }>
  readonly isClosed: () => boolean
}

const open = (port: number, text: string): Promise<Held> =>
  new Promise((resolve, reject) => {
    let got = ""
    let done = false
    const socket = connect(port, "127.0.0.1")
    const closed = new Promise<{ got: string; at: number }>((resolveClose) =>
      socket.on("close", () => {
        done = true
        resolveClose({ got, at: Date.now() })
      }),
    )
    socket.on("data", (chunk: Buffer) => {
      got += chunk.toString("latin1")
    })
    socket.on("error", () => {}) // a reset is a close too
    socket.once("connect", () => {
      socket.write(text)
      resolve({ socket, opened: Date.now(), closed, isClosed: () => done })
    })
    socket.once("error", reject)
  })

const withServer = async (limits: ConnectionLimits, run: (port: number, server: Server) => Promise<void>) => {
  const server = loggedServer(() => {}, limits)()
  server.on("request", (req, res) => {
    req.resume()
    req.on("end", () => res.end("ok"))
  })
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  try {
    await run((server.address() as AddressInfo).port, server)
  } finally {
    server.closeAllConnections()
    server.close()
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe("connection guard", () => {
  it("the connection over the per-address cap is closed at once; half-sent headers are answered 408 and dropped after the headers timeout", async () => {
    const limits = { maxConnectionsPerIp: 4, headersTimeoutMillis: 400, requestTimeoutMillis: 3000 }
    await withServer(limits, async (port) => {
      const held = []
      for (let i = 0; i < 4; i++) held.push(await open(port, HALF_HEADERS))
      const over = await open(port, HALF_HEADERS)
      const overClosed = await Promise.race([over.closed, sleep(300).then(() => null)])
      expect(overClosed, "the fifth connection is closed at once").not.toBeNull()
      expect(overClosed!.got).toBe("")
      expect(held.map((h) => h.isClosed()), "the four under the cap are kept").toEqual([false, false, false, false])

      const ends = await Promise.all(held.map((h) => h.closed))
      for (const [i, end] of ends.entries()) {
        expect(end.got).toMatch(/^HTTP\/1\.1 408 /)
        expect(JSON.parse(end.got.slice(end.got.indexOf("\r\n\r\n") + 4))).toMatchObject({ error: "request_timeout", status: 408 })
        const waited = end.at - held[i]!.opened
        expect(waited).toBeGreaterThanOrEqual(350)
        expect(waited).toBeLessThan(2500)
      }
      // the slots are free again
      const res = await fetch(`http://127.0.0.1:${port}/x`, { signal: AbortSignal.timeout(3000) })
      expect([res.status, await res.text()]).toEqual([200, "ok"])
    })
  }, 10_000)

  it("a trusted proxy's connections are not capped (behind it every client has its address)", async () => {
    const limits = { maxConnectionsPerIp: 2, headersTimeoutMillis: 2000, requestTimeoutMillis: 3000, trustedProxies: ["127.0.0.1"] }
    await withServer(limits, async (port) => {
      const held = []
      for (let i = 0; i < 5; i++) held.push(await open(port, HALF_HEADERS))
      await sleep(300)
      expect(held.map((h) => h.isClosed())).toEqual([false, false, false, false, false])
      for (const h of held) h.socket.destroy()
    })
  }, 10_000)

  it("a body that never ends is answered 408 after the request timeout", async () => {
    const limits = { maxConnectionsPerIp: 4, headersTimeoutMillis: 300, requestTimeoutMillis: 900 }
    await withServer(limits, async (port) => {
      const slow = await open(port, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\nabc")
      const end = await slow.closed
      expect(end.got).toMatch(/^HTTP\/1\.1 408 /)
      expect(end.at - slow.opened).toBeGreaterThanOrEqual(850)
      expect(end.at - slow.opened).toBeLessThan(3000)
    })
  }, 10_000)

  it("keep-alive: a connection idle for longer than the headers timeout serves its next request", async () => {
    const limits = { maxConnectionsPerIp: 4, headersTimeoutMillis: 300, requestTimeoutMillis: 900 }
    await withServer(limits, async (port) => {
      const held = await open(port, "GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
      let got = ""
      held.socket.on("data", (chunk: Buffer) => {
        got += chunk.toString("latin1")
      })
      const answers = () => got.match(/HTTP\/1\.1 200 /g)?.length ?? 0
      for (let i = 0; i < 20 && answers() < 1; i++) await sleep(25)
      await sleep(700)
      expect(held.isClosed()).toBe(false)
      held.socket.write("GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      await held.closed
      expect(answers()).toBe(2)
    })
  }, 10_000)
})
