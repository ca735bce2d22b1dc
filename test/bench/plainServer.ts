/** The ceiling for the bench: plain node:http answering fixed bytes, no routing, no checks. */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

const body = readFileSync(process.argv[2]!)
const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": body.length })
  res.end(body)
})
server.listen(0, "127.0.0.1", () => {
  console.log(`Listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`)
})
