/**
 * A kept tool result sent at the Node level (api/mcp/McpHit.ts, issue #32 item 3): the route's
 * bytes and headers, the key's quota counted once, the per-IP token taken once, a refused key left
 * to the route's 401 or 429, and the body of every request the hit looks at and leaves reaching
 * the route whole: split in pieces over time, on a connection that goes on with its next request,
 * or from a client gone half way. Real servers on ephemeral ports, one with the hit path off.
 */
import { connect, type Socket } from "node:net"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CreatedKey, createKey, type RunningServer, startServer } from "../support/server.ts"
import { makeFixtureA, testCrc32 } from "../support/snapshotFixture.ts"

interface Answer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly text: string
}

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" }

const callBody = (id: unknown, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, ...extra } })

const post = async (base: string, body: string, headers: Record<string, string>): Promise<Answer> => {
  const res = await request(`${base}/mcp`, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body })
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value
  return { status: res.statusCode, headers: flat, text: await res.body.text() }
}

/** Kept results sent before the router, and all of them, from /metrics. */
const counts = async (base: string) => {
  const text = await (await request(`${base}/metrics`)).body.text()
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN)
  return { early: value("fds_answer_cache_early_total"), results: value("fds_answer_cache_mcp_results_total") }
}

/** What differs between two answers to one request whatever path sent them. */
const PER_REQUEST = new Set(["date", "x-request-id", "x-ratelimit-remaining", "connection", "keep-alive"])
const comparable = (answer: Answer) => ({
  status: answer.status,
  headers: Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !PER_REQUEST.has(name))),
  text: answer.text,
})

/** Answers read off a raw connection: each head, then as many bytes as its Content-Length says. */
const answersOn = (socket: Socket, count: number): Promise<Array<Answer>> =>
  new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0)
    const answers: Array<Answer> = []
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk])
      for (;;) {
        const end = buffered.indexOf("\r\n\r\n")
        if (end < 0) return
        const [top, ...lines] = buffered.subarray(0, end).toString("latin1").split("\r\n")
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]))
        const length = Number(headers["content-length"])
        if (!Number.isInteger(length)) return reject(new Error(`no content-length in ${top}`))
        if (buffered.length < end + 4 + length) return
        answers.push({ status: Number(top!.split(" ")[1]), headers, text: buffered.subarray(end + 4, end + 4 + length).toString("utf8") })
        buffered = buffered.subarray(end + 4 + length)
        if (answers.length === count) {
          socket.off("data", onData)
          return resolve(answers)
        }
      }
    }
    socket.on("data", onData)
    socket.on("error", reject)
  })

const opened = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket))
    socket.on("error", reject)
  })

const head = (port: number, key: string, length: number): string =>
  `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Api-Key: ${key}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${length}\r\n\r\n`

const pause = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

describe("a kept tool result sent before the router", () => {
  const fx = makeFixtureA()
  let early: RunningServer
  let routed: RunningServer
  let key: CreatedKey
  const assetId = testCrc32("fm:8043:A")

  beforeAll(async () => {
    key = await createKey(fx.dataDir, { email: "mcp-hits@example.cl" })
    early = await startServer({ dataDir: fx.dataDir, rateLimit: { perSecond: 0.001, burst: 1000 } })
    routed = await startServer({ dataDir: fx.dataDir, env: { FDS_HIT_PATH: "0" } })
  })
  afterAll(async () => {
    await early.close()
    await routed.close()
    fx.cleanup()
  })

  it("sends the route's bytes and headers with the new id, counted as a kept result; the first call and an unplain one go through the SDK", async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ["get_returns", { asset_id: assetId }],
      ["market_summary", {}],
    ]
    for (const [name, args] of calls) {
      const headers = { "x-api-key": key.key }
      // the first call on each server goes through the SDK (the hit path read its body and left it) and keeps the result
      const first = await post(early.url, callBody(1, name, args), headers)
      expect(first.status, first.text).toBe(200)
      expect(JSON.parse(first.text).result.isError, first.text).not.toBe(true)
      await post(routed.url, callBody(1, name, args), headers)
      const before = await counts(early.url)
      const hit = await post(early.url, callBody("again", name, args), headers)
      const after = await counts(early.url)
      expect([after.early - before.early, after.results - before.results], name).toEqual([1, 1])
      const routedBefore = await counts(routed.url)
      const viaRouter = await post(routed.url, callBody("again", name, args), headers)
      expect((await counts(routed.url)).results - routedBefore.results).toBe(1)
      expect(comparable(hit), name).toEqual(comparable(viaRouter))
      // the SDK's envelope: the first answer's result with this request's id
      expect(hit.text).toBe(first.text.replace(/"id":1}$/, '"id":"again"}'))
      expect(hit.headers["batch-id"]).toBe(first.headers["batch-id"])
      // a call with more than a name and arguments goes through the SDK, its body whole: the same result
      const beforeSdk = await counts(early.url)
      const unplain = await post(early.url, callBody(2, name, args, { _meta: { progressToken: 5 } }), headers)
      expect((await counts(early.url)).results).toBe(beforeSdk.results)
      expect(JSON.parse(unplain.text).result).toEqual(JSON.parse(first.text).result)
    }
    // a server with the hit path off sends none early
    expect((await counts(routed.url)).early).toBe(0)
  })

  it("counts the key's quota once per call, and leaves a refused key or a browser's call to the route", async () => {
    const limited = await createKey(fx.dataDir, { email: "mcp-quota@example.cl", dailyQuota: 3 })
    const body = callBody(3, "get_returns", { asset_id: assetId })
    const ask = (k: string, more: Record<string, string> = {}) => post(early.url, body, { "x-api-key": k, ...more })
    await post(early.url, body, { "x-api-key": key.key }) // kept, if it was not
    const before = await counts(early.url)
    const [first, second, third] = [await ask(limited.key), await ask(limited.key), await ask(limited.key)]
    expect((await counts(early.url)).early - before.early).toBe(3)
    expect([first, second, third].map((r) => [r.status, r.headers["x-ratelimit-remaining"]])).toEqual([
      [200, "2"],
      [200, "1"],
      [200, "0"],
    ])
    const over = await ask(limited.key)
    expect(over.status).toBe(429)
    expect(JSON.parse(over.text)).toMatchObject({ error: "quota_exceeded", status: 429 })
    const wrong = await ask(`${limited.key.slice(0, -4)}AAAA`)
    expect(wrong.status).toBe(401)
    expect(JSON.parse(wrong.text)).toMatchObject({ error: "unauthorized", status: 401 })
    // Bearer is a key too
    const bearer = await post(early.url, body, { authorization: `Bearer ${key.key}` })
    expect(bearer.status).toBe(200)
    expect(bearer.text).toBe(first.text)
    // a browser's call is the route's (it checks the Origin): refused from an origin not trusted, not sent early
    const beforeBrowser = await counts(early.url)
    const browser = await ask(key.key, { origin: "https://elsewhere.example" })
    expect(browser.status).toBe(403)
    expect((await counts(early.url)).early).toBe(beforeBrowser.early)
  })

  it("leaves to the route what it refuses or must answer itself: a key in the Host, arguments nested too deep to write again", async () => {
    const call = callBody(8, "get_returns", { asset_id: assetId })
    await post(early.url, call, { "x-api-key": key.key }) // kept
    // a Host holding something that reads as a key: the route's 401 (a key in the URL), not the kept result
    const before = await counts(early.url)
    const socket = await opened(early.port)
    try {
      const reading = answersOn(socket, 1)
      socket.write(head(early.port, key.key, Buffer.byteLength(call)).replace(`Host: 127.0.0.1:${early.port}`, "Host: fds_probe") + call)
      const [refused] = await reading
      expect(refused!.status).toBe(401)
      expect(JSON.parse(refused!.text)).toMatchObject({ error: "unauthorized", status: 401 })
    } finally {
      socket.destroy()
    }
    expect((await counts(early.url)).early).toBe(before.early)
    // arguments nested 8,000 deep (JSON.stringify overflows the stack from about 6,000): not a plain
    // call, so the SDK's answer, the same from both servers, and both serve on
    const deep = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"get_returns","arguments":{"a":${"[".repeat(8000)}${"]".repeat(8000)}}}}`
    const answers = [await post(early.url, deep, { "x-api-key": key.key }), await post(routed.url, deep, { "x-api-key": key.key })]
    expect(answers[0]!.status).toBeLessThan(500)
    expect(comparable(answers[0]!)).toEqual(comparable(answers[1]!))
    for (const server of [early, routed]) expect((await post(server.url, call, { "x-api-key": key.key })).status).toBe(200)
  })

  it("takes one per-IP token a call, and the router refuses when they are gone", async () => {
    const limitedServer = await startServer({ dataDir: fx.dataDir, rateLimit: { perSecond: 0.001, burst: 3 } })
    try {
      const body = callBody(4, "market_summary", {})
      const statuses: Array<number> = []
      for (let i = 0; i < 4; i++) statuses.push((await post(limitedServer.url, body, { "x-api-key": key.key })).status)
      // the first through the SDK, two kept results, then the edge's 429
      expect(statuses).toEqual([200, 200, 200, 429])
      expect((await counts(limitedServer.url)).early).toBe(2)
    } finally {
      await limitedServer.close()
    }
  })

  it("leaves the body whole: sent in pieces over time, followed on the same connection, or cut off by a client gone", async () => {
    const call = callBody(5, "get_returns", { asset_id: assetId })
    await post(early.url, call, { "x-api-key": key.key }) // kept
    const expected = await post(early.url, call, { "x-api-key": key.key })
    // a body near the limit that is not a plain call (a padded _meta), in three pieces 30 ms apart: the SDK reads it whole
    const padded = callBody(6, "get_returns", { asset_id: assetId }, { _meta: { pad: "x".repeat(15_000) } })
    const socket = await opened(early.port)
    try {
      const reading = answersOn(socket, 3)
      const bytes = Buffer.from(padded)
      socket.write(head(early.port, key.key, bytes.length))
      for (const piece of [bytes.subarray(0, 5000), bytes.subarray(5000, 10_000), bytes.subarray(10_000)]) {
        await pause(30)
        socket.write(piece)
      }
      // then a kept call and a miss (a tool error) on the same connection, written at once
      const missing = callBody(7, "get_returns", { asset_id: "nowhere" })
      socket.write(head(early.port, key.key, Buffer.byteLength(call)) + call + head(early.port, key.key, Buffer.byteLength(missing)) + missing)
      const [long, kept, miss] = await reading
      expect(long!.status, long!.text).toBe(200)
      expect(JSON.parse(long!.text).result).toEqual(JSON.parse(expected.text).result)
      expect(JSON.parse(long!.text).id).toBe(6)
      expect([kept!.status, kept!.text]).toEqual([200, expected.text])
      expect(miss!.status).toBe(200)
      expect(JSON.parse(miss!.text)).toMatchObject({ id: 7, result: { isError: true } })
    } finally {
      socket.destroy()
    }
    // a kept call whose body is at the limit (a long id), its answer sent before the body was read: the
    // body is taken, so the connection goes on with the request after it
    const longId = "i".repeat(16_384 - Buffer.byteLength(callBody("", "get_returns", { asset_id: assetId })))
    const atLimit = callBody(longId, "get_returns", { asset_id: assetId })
    expect(Buffer.byteLength(atLimit)).toBe(16_384)
    const again = await opened(early.port)
    try {
      const before = await counts(early.url)
      const reading = answersOn(again, 2)
      again.write(head(early.port, key.key, 16_384) + atLimit + head(early.port, key.key, Buffer.byteLength(call)) + call)
      const [long, next] = await reading
      expect([long!.status, long!.text]).toEqual([200, expected.text.replace(/"id":5}$/, `"id":"${longId}"}`)])
      expect([next!.status, next!.text]).toEqual([200, expected.text])
      expect((await counts(early.url)).early - before.early).toBe(2)
    } finally {
      again.destroy()
    }
    // a client gone with half its body sent: nothing answered it, and the server goes on
    const cut = await opened(early.port)
    cut.write(head(early.port, key.key, Buffer.byteLength(call)) + call.slice(0, 20))
    await pause(50)
    cut.destroy()
    await pause(50)
    expect((await post(early.url, call, { "x-api-key": key.key })).text).toBe(expected.text)
  })
})
