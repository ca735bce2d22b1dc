/**
 * The Python package against a hostile or broken server (a plain node:http server of this test,
 * answering what a man in the middle or a damaged proxy could): the key never leaves the service's
 * origin nor shows in an error, a path from an answer never names where a file goes, a resume
 * never mixes two files, paging that loops stops, odd answers raise the package's own errors, and
 * a call's deadline holds against an answer trickled a byte at a time and a long Retry-After.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { python, runPython } from "./pythonRun.ts"

const KEY = `fds_Hostile1_${"k".repeat(40)}`
const FILE = Buffer.from("the snapshot's bytes, 40 of them.......\n")
const OTHER = Buffer.from("another file's bytes, 40 of them.......\n")
const digest = (bytes: Buffer) => `sha-256=:${createHash("sha256").update(bytes).digest("base64")}:`

interface Seen {
  readonly method: string
  readonly url: string
  readonly key: string | undefined
}

/** The webhook writes' answers (see below): how many times each was asked, and the create's body. */
const writes = { test: 0, delete: 0, created: [] as Array<{ contentType: string | undefined; body: string }> }

/** The hostile answers, by path. */
const answer = (req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? "/", "http://x")
  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "Content-Type": "application/json", ...headers })
    res.end(JSON.stringify(body))
  }
  switch (url.pathname) {
    case "/api/webhooks": {
      // a 5xx after the server may have acted: a POST must not be sent again
      let body = ""
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString()
      })
      req.on("end", () => {
        writes.created.push({ contentType: req.headers["content-type"], body })
        json({ error: "internal_error", title: "Internal Server Error", status: 502 }, 502)
      })
      return
    }
    case "/api/webhooks/w1/test":
      // refused by the per-IP limit before anything ran: safe to send again
      return ++writes.test === 1
        ? json({ error: "rate_limited", title: "Too Many Requests", status: 429 }, 429, { "Retry-After": "0" })
        : json({ id: "d1", state: "delivered" })
    case "/api/webhooks/w1":
      // a DELETE may be sent again
      if (++writes.delete === 1) return json({ error: "service_unavailable", title: "Service Unavailable", status: 503 }, 503, { "Retry-After": "0" })
      res.writeHead(204)
      return void res.end()
    case "/health":
      return json({ status: "ok", batch_id: "../../pwned" })
    case "/api/loop":
      return json({ data: [{ id: "1" }], links: { next: "/api/loop?offset=1" } })
    case "/api/leave":
      return json({ data: [{ id: "1" }], links: { next: url.searchParams.get("to") } })
    case "/api/big":
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "5000" })
      return void res.end(" ".repeat(5000))
    case "/api/html":
      res.writeHead(200, { "Content-Type": "text/html" })
      return void res.end("<html>a login page</html>")
    case "/api/quota":
      return json({ error: "quota_exceeded", title: "Daily quota exhausted", status: 429 }, 429, {
        "X-RateLimit-Limit": "300",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": "99999999999999",
      })
    case "/api/screener":
      return json({ data: [], links: { next: null } })
    case "/api/trickle": {
      // 50 bytes promised, one sent every 200 ms: each socket wait is short, the whole answer 10 s
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "50" })
      const timer = setInterval(() => res.write(" "), 200)
      return void res.on("close", () => clearInterval(timer))
    }
    case "/api/busy":
      return json({ error: "service_unavailable", title: "Service Unavailable", status: 503 }, 503, { "Retry-After": "5" })
    case "/api/batches/b/snapshot": {
      // The first answer: the whole file, with its digest, cut after 10 bytes; a resume: the rest of another file, with no digest.
      const range = req.headers.range
      if (range === undefined) {
        res.writeHead(200, { "Content-Length": String(FILE.length), ETag: '"e1"', "Repr-Digest": digest(FILE) })
        res.write(FILE.subarray(0, 10))
        return void setTimeout(() => res.destroy(), 50) // once the head and the first bytes are out
      }
      res.writeHead(206, { "Content-Range": `bytes 10-${OTHER.length - 1}/${OTHER.length}`, "Content-Length": String(OTHER.length - 10), ETag: '"e1"' })
      return void res.end(OTHER.subarray(10))
    }
    case "/api/batches/short/snapshot": {
      // 416 for a resume although the part is short of the file
      if (req.headers.range === undefined) {
        res.writeHead(200, { "Content-Length": String(FILE.length), ETag: '"e2"', "Repr-Digest": digest(FILE) })
        res.write(FILE.subarray(0, 10))
        return void setTimeout(() => res.destroy(), 50) // once the head and the first bytes are out
      }
      res.writeHead(416, { "Content-Range": "bytes */10", "Content-Type": "application/problem+json" })
      return void res.end("{}")
    }
    case "/api/batches/whole/snapshot":
      res.writeHead(200, { "Content-Length": String(FILE.length), ETag: '"e3"', "Repr-Digest": digest(FILE) })
      return void res.end(FILE)
    default:
      return json({ error: "not_found", status: 404 }, 404)
  }
}

const SCRIPT = String.raw`
import json, os, sys
from fds_client import Client, FdsError, DigestMismatch, QuotaExceeded
base, work, key = sys.argv[1], sys.argv[2], sys.argv[3]
out = {}
def outcome(f):
    try:
        r = f()
        return {"ok": True, "value": r}
    except BaseException as e:
        return {"ok": False, "class": type(e).__name__, "text": str(e) + repr(e) + repr(getattr(e, "__dict__", ""))}
fds = Client(api_key=key, base_url=base, max_attempts=1)
out["key_newline"] = outcome(lambda: Client(api_key=key + "\r\n", base_url=base, max_attempts=1).api.get("/api/screener"))
out["key_control"] = outcome(lambda: Client(api_key=key[:20] + "\x01" + key[20:], base_url=base))
out["key_unicode"] = outcome(lambda: Client(api_key=key + "ñ", base_url=base))
out["leave_dot"] = outcome(lambda: list(fds.api.items("/api/leave", {"to": ".evil.example/x"})))
out["leave_slashes"] = outcome(lambda: list(fds.api.items("/api/leave", {"to": "//evil.example/x"})))
out["leave_port"] = outcome(lambda: list(fds.api.items("/api/leave", {"to": ":1/x"})))
out["loop"] = outcome(lambda: len(list(fds.api.items("/api/loop"))))
os.chdir(os.path.join(work, "deep", "er"))
out["traversal"] = outcome(lambda: fds.download_snapshot().path)
out["pwned_exists"] = os.path.exists(os.path.join(work, "pwned.sqlite")) or os.path.exists(os.path.join(work, "deep", "pwned.sqlite"))
out["big"] = outcome(lambda: Client(api_key=key, base_url=base, max_attempts=1, max_body_bytes=1000).api.get("/api/big"))
out["html"] = outcome(lambda: fds.api.get("/api/html"))
out["quota"] = outcome(lambda: fds.api.get("/api/quota"))
try:
    fds.api.get("/api/quota")
except QuotaExceeded as e:
    out["quota_fields"] = {"reset": e.reset, "reset_at": e.reset_at, "limit": e.limit}
dest = os.path.join(work, "b.sqlite")
out["cut"] = outcome(lambda: fds.api.batch_snapshot("b", dest))
out["mixed_resume"] = outcome(lambda: fds.api.batch_snapshot("b", dest))
out["mixed_part_left"] = os.path.exists(dest + ".part") or os.path.exists(dest)
short = os.path.join(work, "short.sqlite")
out["short_cut"] = outcome(lambda: fds.api.batch_snapshot("short", short))
out["short_416"] = outcome(lambda: fds.api.batch_snapshot("short", short))
out["short_left"] = os.path.exists(short + ".part") or os.path.exists(short)
stale = os.path.join(work, "whole.sqlite")
open(stale, "w").write("yesterday's file")
out["stale_dest"] = outcome(lambda: fds.api.batch_snapshot("whole", stale))
out["overwrite"] = outcome(lambda: fds.api.batch_snapshot("whole", stale, overwrite=True).verified)
out["same_dest"] = outcome(lambda: [fds.api.batch_snapshot("whole", stale).verified, open(stale, "rb").read().decode()])
import pandas
out["empty_screener"] = list(fds.screener(q="nomatch").columns)
out["empty_returns"] = list(fds.returns([]).reset_index().columns)
out["empty_id"] = outcome(lambda: fds.api.batch(""))
print(json.dumps(out, default=str))
`

describe("the Python package against a hostile server", () => {
  const work = mkdtempSync(join(tmpdir(), "fds-py-hostile-"))
  const seen: Seen[] = []
  let server: Server
  let base = ""

  beforeAll(async () => {
    mkdirSync(join(work, "deep", "er"), { recursive: true })
    server = createServer((req, res) => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", key: req.headers["x-api-key"] as string | undefined })
      answer(req, res)
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    rmSync(work, { recursive: true, force: true })
  })

  it("keeps the key, the files and the paging safe, and raises its own errors", async () => {
    writeFileSync(join(work, "run.py"), SCRIPT)
    const ran = await runPython([join(work, "run.py"), base, work, KEY], {})
    expect(ran.stderr).toBe("")
    expect(ran.code).toBe(0)
    const out = JSON.parse(ran.stdout) as Record<string, { ok: boolean; class?: string; text?: string; value?: unknown } & Record<string, unknown>>
    // The key: a line end is dropped and the call goes out with the key; control or non-ASCII characters are refused, unquoted.
    expect(out.key_newline!.ok).toBe(true)
    for (const name of ["key_control", "key_unicode"]) {
      expect(out[name]!.class, name).toBe("ValueError")
      expect(out[name]!.text, name).not.toContain(KEY.slice(0, 20))
    }
    // Leaving the origin through links.next: refused before any request, whatever the shape.
    for (const name of ["leave_dot", "leave_slashes", "leave_port"]) expect(out[name]!.class, name).toBe("FdsError")
    expect(seen.filter((s) => !s.url.startsWith("/")).length).toBe(0)
    expect(seen.filter((s) => s.url.startsWith("/api/leave")).length).toBe(3)
    // A page that repeats: stopped after the second request.
    expect(out.loop!.class).toBe("FdsError")
    expect(seen.filter((s) => s.url.startsWith("/api/loop")).length).toBe(2)
    // A batch id from /health never names a path.
    expect(out.traversal!.class).toBe("ValueError")
    expect(out.pwned_exists).toBe(false)
    expect(existsSync(join(work, "pwned.sqlite"))).toBe(false)
    // Odd answers: the package's errors.
    expect(out.big!.class).toBe("FdsError")
    expect(out.html!.class).toBe("FdsError")
    expect(out.quota!.class).toBe("QuotaExceeded")
    // a reset no calendar holds: the number as sent, no datetime, no crash
    expect(out.quota_fields).toEqual({ reset: 99999999999999, reset_at: null, limit: 300 })
    // A resume answered by another file (no digest): refused, nothing kept.
    expect(out.cut!.class).toBe("TransportError")
    expect(out.mixed_resume!.class).toBe("DigestMismatch")
    expect(out.mixed_part_left).toBe(false)
    // A 416 for a part short of the file: refused, nothing kept.
    expect(out.short_cut!.class).toBe("TransportError")
    expect(out.short_416!.class).toBe("FdsError")
    expect(out.short_left).toBe(false)
    // A file already at dest: kept only when it is this file.
    expect(out.stale_dest!.class).toBe("FileExistsError")
    expect(out.overwrite).toEqual({ ok: true, value: true })
    expect(out.same_dest).toEqual({ ok: true, value: [true, FILE.toString()] })
    // Empty answers keep their columns; an empty id is refused rather than reaching the list route.
    expect(out.empty_screener).toEqual(["id"])
    expect(out.empty_returns).toEqual(["id", "as_of_date", "currency", "1m", "3m", "6m", "1y", "ytd", "3y_ann", "5y_ann", "last_closed_month"])
    expect(out.empty_id!.class).toBe("ValueError")
    // Every request the server saw carried the key in its header, stripped, and none in its URL.
    for (const s of seen) {
      expect(s.key).toBe(KEY)
      expect(s.url).not.toContain(KEY)
    }
  })

  it("the webhook writes: a POST is sent once after a 5xx (it may have acted), again after a per-IP 429; a DELETE again after a 503", async () => {
    const from = seen.length
    const run = await python(
      `
fds = fds_client.Client(sys.argv[1], sys.argv[2], max_attempts=3)
out({"create": caught(lambda: fds.api.create_webhook("https://hooks.example.cl/fds", ["batch.published", "tac.changed"]))})
out({"test": fds.api.test_webhook("w1")})
out({"delete": fds.api.delete_webhook("w1")})
`,
      { argv: [KEY, base] },
    )
    expect(run.stderr).toBe("")
    const [create, test, deleted] = run.lines
    expect([create.create.fds_error, create.create.status]).toEqual([true, 502])
    expect(test.test).toEqual({ id: "d1", state: "delivered" })
    expect(deleted).toEqual({ delete: null })
    expect(seen.slice(from).map((s) => `${s.method} ${s.url}`)).toEqual([
      "POST /api/webhooks",
      "POST /api/webhooks/w1/test",
      "POST /api/webhooks/w1/test",
      "DELETE /api/webhooks/w1",
      "DELETE /api/webhooks/w1",
    ])
    expect(writes.created.map((c) => [c.contentType, JSON.parse(c.body)])).toEqual([
      ["application/json", { url: "https://hooks.example.cl/fds", events: ["batch.published", "tac.changed"] }],
    ])
  })

  it("a call's deadline bounds a trickled answer and the retries' waits: TransportError saying so", async () => {
    const from = seen.length
    const run = await python(
      `
fds = fds_client.Client(sys.argv[1], sys.argv[2], deadline=1, timeout=5)
for path in ("/api/trickle", "/api/busy"):
    started = time.monotonic()
    error = caught(lambda: fds.api.get(path))
    out({"path": path, "class": error["class"], "fds_error": error["fds_error"], "str": error["str"], "elapsed": time.monotonic() - started})
`,
      { argv: [KEY, base] },
    )
    expect(run.stderr).toBe("")
    const [trickle, busy] = run.lines
    // Each byte comes well within timeout=5; the whole answer would take 10 s: cut at the deadline.
    expect([trickle.class, trickle.fds_error]).toEqual(["TransportError", true])
    expect(trickle.str).toContain("GET /api/trickle: the answer was not read within the deadline (the call's deadline: 1 s")
    expect(trickle.elapsed).toBeGreaterThanOrEqual(1)
    expect(trickle.elapsed).toBeLessThan(2)
    // A 503 whose Retry-After (5 s) would pass the deadline: raised at once, not slept on.
    expect(busy.class).toBe("TransportError")
    expect(busy.str).toContain("GET /api/busy: 503, and its retry in")
    expect(busy.str).toContain("would come after the deadline")
    expect(busy.elapsed).toBeLessThan(1)
    expect(seen.slice(from).map((s) => s.url)).toEqual(["/api/trickle", "/api/busy"])
  })
})
