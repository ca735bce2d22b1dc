/**
 * The ceiling of the answers bench (test/bench/answers.ts): plain node:http answering fixed bytes
 * by path, no routing beyond one Map lookup, no checks. Each path has its identity bytes and,
 * when given, a gzip copy sent (with Content-Encoding) to a request whose Accept-Encoding names
 * gzip. A POST's body is read to its end before the answer, as any server must.
 *
 *   node test/bench/ceilingServer.ts <answers.json>   # [{ path, identity, gzip?, contentType }] (file names)
 *
 * With a second argument, the accounts store of a data directory, it is the ceiling with the
 * duties the issue keeps per request (#32: "Quota, per-IP limit, key check, Batch-Id and the quota
 * headers stay per request") and the access log, done by the service's own code and nothing else:
 * the request id and one access line per request (api/http/RequestLog.ts accessLogListener), the
 * key checked and one request of its quota counted (KeyStore.verifyAndConsume on the real
 * accounts.sqlite: the key's row, its hash, the counting statement, a turn's requests together)
 * and the quota headers. No routing, no answer cache, no other header, no per-IP limit (the bench
 * turns it off for our server too). What the hit path can at best reach, these duties being paid:
 *
 *   node test/bench/ceilingServer.ts <answers.json> <data dir>/accounts.sqlite
 *
 * With a third argument, `all`, it also does the rest of what a hit does per request, with the
 * service's own code, so that what is left between it and a hit is the hit path's own cost:
 * the request metrics (ServiceMetrics: the route template of the answer's route, its count and
 * latency, the key check's time), and the answer's own headers (Vary, ETag, Batch-Id, as our
 * server sent them, and Cache-Control to the next batch, made per request):
 *
 *   node test/bench/ceilingServer.ts <answers.json> <data dir>/accounts.sqlite all
 */
import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Exit } from "effect"
import { openAccountsDb } from "../../accounts/AccountsDb.ts"
import { KeyStore } from "../../accounts/KeyStore.ts"
import { secondsUntilNextBatch } from "../../api/http/Caching.ts"
import { ServiceMetrics } from "../../api/http/Metrics.ts"
import { accessLogListener } from "../../api/http/RequestLog.ts"
import { routeTemplate } from "../../api/http/RouteTemplate.ts"
import { quotaHeaders } from "../../api/security/SecurityLive.ts"

interface Entry {
  readonly path: string
  readonly identity: string
  readonly gzip?: string
  readonly contentType: string
  /** The answer's route on our server, and the headers it sent with each coding. */
  readonly route?: string
  readonly headers?: Record<string, string>
  readonly gzipHeaders?: Record<string, string>
}

const answers = new Map(
  (JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Entry[]).map((e) => [
    e.path,
    {
      identity: readFileSync(e.identity),
      gzip: e.gzip === undefined ? null : readFileSync(e.gzip),
      contentType: e.contentType,
      route: e.route ?? e.path,
      headers: e.headers ?? {},
      gzipHeaders: e.gzipHeaders ?? {},
    },
  ]),
)

const accounts = process.argv[3]
/** `all`: the metrics and the answer's own headers too (see above). */
const all = process.argv[4] === "all"
const metrics = all ? new ServiceMetrics() : null
/** The duties (see above): the key's check and count, then `send` with the quota headers; 401 for a refused key. */
const duties: ((req: IncomingMessage, res: ServerResponse, send: (headers: Record<string, string>) => void) => void) | null =
  accounts === undefined
    ? null
    : await (async () => {
        const keys = KeyStore.make(await openAccountsDb(accounts))
        return (req, res, send) => {
          const key = req.headers["x-api-key"]
          const started = performance.now()
          Effect.runCallback(keys.verifyAndConsume(typeof key === "string" ? key : ""), {
            onExit: (exit) => {
              metrics?.quotaStoreCall((performance.now() - started) / 1000, Exit.isSuccess(exit))
              if (Exit.isSuccess(exit) && exit.value?.quota.allowed) send(quotaHeaders(exit.value.quota))
              else res.writeHead(401).end()
            },
          })
        }
      })()
const logged =
  duties === null
    ? null
    : accessLogListener(
        undefined,
        metrics === null
          ? undefined
          : (method, url, status, seconds) => metrics.answered(routeTemplate(method, answers.get(url)?.route ?? url), method, status, seconds),
      )

const server = createServer((req, res) => {
  logged?.(req, res)
  const answer = answers.get(req.url ?? "")
  const send = (quota: Record<string, string>) => {
    if (answer === undefined) {
      res.writeHead(404).end()
      return
    }
    const gzip = answer.gzip !== null && (req.headers["accept-encoding"] ?? "").includes("gzip")
    const body = gzip ? answer.gzip! : answer.identity
    res.writeHead(200, {
      "content-type": answer.contentType,
      "content-length": body.length,
      ...(gzip ? { "content-encoding": "gzip" } : {}),
      ...(all ? { ...(gzip ? answer.gzipHeaders : answer.headers), "cache-control": `private, max-age=${secondsUntilNextBatch(Date.now())}` } : {}),
      ...quota,
    })
    res.end(body)
  }
  const answer1 = () => (duties === null ? send({}) : duties(req, res, send))
  if (req.method === "POST") {
    req.resume()
    req.on("end", answer1)
  } else answer1()
})
server.listen(0, "127.0.0.1", () => {
  console.log(`Listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`)
})
