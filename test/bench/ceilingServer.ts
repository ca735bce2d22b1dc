/**
 * The ceiling of the answers bench (test/bench/answers.ts): plain node:http answering fixed bytes
 * by path, no routing beyond one Map lookup, no checks. Each path has its identity bytes and,
 * when given, a gzip copy sent (with Content-Encoding) to a request whose Accept-Encoding names
 * gzip. A POST's body is read to its end before the answer, as any server must.
 *
 *   node test/bench/ceilingServer.ts <answers.json>   # [{ path, identity, gzip?, contentType }] (file names)
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

interface Entry {
  readonly path: string
  readonly identity: string
  readonly gzip?: string
  readonly contentType: string
}

const answers = new Map(
  (JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Entry[]).map((e) => [
    e.path,
    { identity: readFileSync(e.identity), gzip: e.gzip === undefined ? null : readFileSync(e.gzip), contentType: e.contentType },
  ]),
)

const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? "")
  const send = () => {
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
    })
    res.end(body)
  }
  if (req.method === "POST") {
    req.resume()
    req.on("end", send)
  } else send()
})
server.listen(0, "127.0.0.1", () => {
  console.log(`Listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`)
})
