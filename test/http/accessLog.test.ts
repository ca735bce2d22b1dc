/**
 * The access log at the Node level (api/http/RequestLog.ts), on a real node:http server fed by a
 * real socket: one line per request once its response is closed, the answered status, or 499
 * when the client went away first; the X-Request-Id header reaches the client.
 */
import { once } from "node:events"
import type { AddressInfo } from "node:net"
import { connect } from "node:net"
import { describe, expect, it } from "vitest"
import { generateKey, KEY_PREFIX } from "../../accounts/ApiKey.ts"
import { type AccessLogLine, accessLogText, CLIENT_CLOSED, loggablePath, loggedServer } from "../../api/http/RequestLog.ts"

const waitFor = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10))
  return check()
}

describe("access log listener", () => {
  it("logs the answered status, or 499 when the client leaves before the answer; the id reaches the client", async () => {
    const lines: AccessLogLine[] = []
    const server = loggedServer((line) => lines.push(line))()
    server.on("request", (req, res) => {
      if (req.url === "/slow") return // never answered: the client gives up
      res.writeHead(201, { "content-type": "text/plain" })
      res.end("made")
    })
    server.listen(0, "127.0.0.1")
    await once(server, "listening")
    const { port } = server.address() as AddressInfo
    try {
      const answered = await fetch(`http://127.0.0.1:${port}/made?x=1`, { headers: { "x-request-id": "id-one" } })
      expect(answered.status).toBe(201)
      expect(answered.headers.get("x-request-id")).toBe("id-one")
      expect(await answered.text()).toBe("made")

      const socket = connect(port, "127.0.0.1")
      await once(socket, "connect")
      socket.write("GET /slow HTTP/1.1\r\nHost: x\r\nX-Request-Id: id-two\r\n\r\n")
      await new Promise((r) => setTimeout(r, 50))
      socket.destroy()

      expect(await waitFor(() => lines.length === 2)).toBe(true)
      expect(lines[0]).toMatchObject({ method: "GET", path: "/made?x=1", status: 201, request_id: "id-one", key_lookup: null })
      expect(lines[1]).toMatchObject({ method: "GET", path: "/slow", status: CLIENT_CLOSED, request_id: "id-two" })
      expect(CLIENT_CLOSED).toBe(499)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})

describe("before the application attaches its listener", () => {
  it("a request is answered 503 with Retry-After and its request id (it used to get no answer at all), then served once it is attached", async () => {
    const lines: AccessLogLine[] = []
    const server = loggedServer((line) => lines.push(line))()
    server.listen(0, "127.0.0.1")
    await once(server, "listening")
    const { port } = server.address() as AddressInfo
    try {
      const early = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(3000) })
      expect(early.status).toBe(503)
      expect(early.headers.get("retry-after")).toBe("1")
      const id = early.headers.get("x-request-id")
      expect(early.headers.get("content-type")).toBe("application/problem+json")
      expect(await early.json()).toEqual({
        type: "/docs#error-starting",
        title: "Server starting",
        status: 503,
        detail: "the server is starting; retry in a second",
        instance: `urn:fds:request:${id}`,
        error: "starting",
        message: "the server is starting; retry in a second",
        request_id: id,
      })
      server.on("request", (_req, res) => res.end("ok"))
      const later = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(3000) })
      expect([later.status, await later.text()]).toEqual([200, "ok"])
      expect(await waitFor(() => lines.length === 2)).toBe(true)
      expect(lines.map((l) => l.status)).toEqual([503, 200])
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})

describe("requests Node refuses", () => {
  it("are answered as problem documents with a request id and the connection is closed, also to a client that keeps its side open", async () => {
    const server = loggedServer(() => {})()
    server.on("request", (_req, res) => res.end("never"))
    server.listen(0, "127.0.0.1")
    await once(server, "listening")
    const { port } = server.address() as AddressInfo
    try {
      const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true })
      await once(socket, "connect")
      let got = ""
      socket.on("data", (chunk: Buffer) => {
        got += chunk.toString("latin1")
      })
      socket.write(`GET /x HTTP/1.1\r\nHost: x\r\nX-Big: ${"y".repeat(20_000)}\r\n\r\n`)
      await once(socket, "end")
      expect(got).toMatch(/^HTTP\/1\.1 431 /)
      const id = /\r\nX-Request-Id: ([0-9a-f-]{36})\r\n/.exec(got)?.[1]
      expect(got).toContain("\r\nContent-Type: application/problem+json\r\n")
      expect(JSON.parse(got.slice(got.indexOf("\r\n\r\n") + 4))).toEqual({
        type: "/docs#error-headers_too_large",
        title: "Request headers too large",
        status: 431,
        detail: "the request line and headers exceed 16 KiB",
        instance: `urn:fds:request:${id}`,
        error: "headers_too_large",
        message: "the request line and headers exceed 16 KiB",
      })
      // the server closed its side entirely: no connection left although the client's side is open
      const left = () => new Promise<number>((resolve) => server.getConnections((_e, n) => resolve(n)))
      const end = Date.now() + 2000
      while ((await left()) > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
      expect(await left()).toBe(0)
      socket.destroy()
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})

describe("the access line as written", () => {
  it("is the line's JSON.stringify, field for field, whatever the path holds", () => {
    const base: AccessLogLine = {
      time: "2026-12-03T18:16:00.123Z",
      level: "info",
      msg: "request",
      method: "GET",
      path: "/api/real_assets/3852669/returns",
      status: 200,
      duration_ms: 1.234,
      request_id: "843fd996-589f-48cd-8164-a141e0eff07f",
      key_lookup: "n8xnaOhG",
    }
    const lines: Array<AccessLogLine> = [
      base,
      { ...base, key_lookup: null, status: 499, duration_ms: 0 },
      { ...base, method: "DELETE", status: 404, duration_ms: 12345.678, request_id: "my.id-1_2" },
      // what a path may hold: quotes, a backslash, non-ASCII, a percent-encoded NUL
      { ...base, path: '/api/x"y\\z?q=ñandú&r=%00&s="t"', duration_ms: 0.001 },
    ]
    for (const line of lines) expect(accessLogText(line)).toBe(`${JSON.stringify(line)}\n`)
  })
})

describe("loggablePath", () => {
  it("keeps the path as sent (a leading // is a path, not a host) and redacts keys in the query and the path", () => {
    expect(loggablePath("//api/asset_providers?scope=all")).toBe("//api/asset_providers?scope=all")
    expect(loggablePath("/api/x?api_key=abc&b=1")).toBe("/api/x?api_key=[redacted]&b=1")
    expect(loggablePath("/api/real_assets/fds_abc123_def/days;k=fds_x")).toBe("/api/real_assets/[redacted]/days;k=[redacted]")
    // percent-encoded, as the router and URLSearchParams decode it
    expect(loggablePath("/api/real_assets/%66ds_abc/days?a=%66ds_b")).toBe("/api/real_assets/[redacted]/days?a=[redacted]")
    // after `;` the router reads a query: secret names are redacted there too
    expect(loggablePath("/api/alerts/unsubscribe/one-click;token=abc&x=1")).toBe("/api/alerts/unsubscribe/one-click;token=[redacted]&x=1")
    expect(loggablePath("http://host:8080/api/x?code=1")).toBe("/api/x?code=[redacted]")
    // a key sent as a parameter's name
    expect(loggablePath("/api/x?fds_abc_def&b=1")).toBe("/api/x?[redacted]=&b=1")
    expect(loggablePath("/api/x?%66ds_abc=1")).toBe("/api/x?[redacted]=1")
  })
})

describe("keys never reach the access log", () => {
  /** A real server logging to `lines`, answering 200; each request sent on a raw socket exactly as written. */
  const withServer = async (run: (send: (target: string, headers?: string) => Promise<string>, lines: AccessLogLine[]) => Promise<void>) => {
    const lines: AccessLogLine[] = []
    const server = loggedServer((line) => lines.push(line))()
    server.on("request", (_req, res) => res.end("ok"))
    server.listen(0, "127.0.0.1")
    await once(server, "listening")
    const { port } = server.address() as AddressInfo
    const send = (target: string, headers = "") =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}\r\n`))
        let got = ""
        socket.on("data", (chunk: Buffer) => {
          got += chunk.toString("latin1")
        })
        socket.on("close", () => resolve(got))
        socket.on("error", reject)
      })
    try {
      await run(send, lines)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  }
  const key = generateKey().key // a real key: prefix, lookup, secret and check characters
  const body = key.slice(KEY_PREFIX.length) // `<lookup>_<secret><check>`
  const secret = body.slice(9) // `<secret><check>`
  const encoded = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("")

  it("an X-Request-Id holding a key (with or without its prefix) or unsafe is replaced by a fresh id; a safe one is echoed", async () => {
    await withServer(async (send, lines) => {
      const cases = [key, body, secret, `req-${body}`, "id:with:colons", "x".repeat(65), "trace-1.2_3"]
      const answers = []
      for (const id of cases) answers.push(await send("/health", `X-Request-Id: ${id}\r\n`))
      expect(await waitFor(() => lines.length === cases.length)).toBe(true)
      const sentBack = answers.map((a) => /\r\nx-request-id: ([^\r]*)\r\n/i.exec(a)?.[1])
      for (const [i, id] of cases.slice(0, -1).entries()) {
        expect(lines[i]!.request_id, id).toMatch(/^[0-9a-f-]{36}$/)
        expect(sentBack[i], id).toBe(lines[i]!.request_id)
      }
      expect([lines.at(-1)!.request_id, sentBack.at(-1)]).toEqual(["trace-1.2_3", "trace-1.2_3"])
      const text = JSON.stringify(lines)
      expect(text).not.toContain(secret)
      expect(text).not.toContain(secret.slice(0, 43))
    })
  })

  it("a key without its prefix, split from its prefix, or percent-encoded, in the query or the path, is redacted", async () => {
    await withServer(async (send, lines) => {
      const targets: Array<readonly [string, string]> = [
        [`/api/x?q=${body}`, "/api/x?q=[redacted]"],
        [`/api/x?f%64s_=1&x=${body}`, "/api/x?[redacted]=1&x=[redacted]"],
        [`/api/x?f%64s_=1&x=${secret}`, "/api/x?[redacted]=1&x=[redacted]"],
        [`/api/x?x=${encoded(body)}&y=2`, "/api/x?x=[redacted]&y=2"],
        // encoded twice (`%25` is `%`)
        [`/api/x?x=${encoded(body).replaceAll("%", "%25")}`, "/api/x?x=[redacted]"],
        [`/api/x?${body}=1`, "/api/x?[redacted]=1"],
        [`/api/real_assets/${body}/days`, "/api/real_assets/[redacted]/days"],
        [`/api/real_assets/${encoded(secret)}/days`, "/api/real_assets/[redacted]/days"],
        [`/api/x;k=${body}`, "/api/x;k=[redacted]"],
        [`/api/x?k=FDS_abc`, "/api/x?k=[redacted]"],
        // a key cut into pieces, each too short to look like one: in the query, and in the path
        [`/api/asset_providers?a=${body.slice(0, 30)}&b=${body.slice(30)}&limit=5`, "/api/asset_providers?a=[redacted]&b=[redacted]&limit=5"],
        [`/api/x?a=${key.slice(0, 20)}&b=${key.slice(20)}`, "/api/x?a=[redacted]&b=[redacted]"],
        [`/x/${body.slice(0, 30)}/${body.slice(30)}/days`, "/x/[redacted]/[redacted]/days"],
        // what is not shaped like a key stays readable: ids, dates, a hex digest, words
        [
          `/api/x?id=96639280&from_date=2026-01-02&h=${"0123456789abcdef".repeat(4)}&q=fondo%20mixto`,
          `/api/x?id=96639280&from_date=2026-01-02&h=${"0123456789abcdef".repeat(4)}&q=fondo%20mixto`,
        ],
      ]
      for (const [target] of targets) await send(target)
      expect(await waitFor(() => lines.length === targets.length)).toBe(true)
      expect(lines.map((l) => l.path)).toEqual(targets.map(([, logged]) => logged))
      const text = JSON.stringify(lines)
      expect(text).not.toContain(secret.slice(0, 43))
      expect(text).not.toContain(body.slice(9, 30))
    })
  })
})
