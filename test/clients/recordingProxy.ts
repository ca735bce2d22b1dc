/** An HTTP proxy for tests that records what each request carried and what it got, and can cut an answer short. */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

/** What a request carried and the status it got, as the proxy saw it. */
export interface Seen {
  readonly method: string
  readonly url: string
  readonly headers: IncomingHttpHeaders
  status: number
  answer: IncomingHttpHeaders
}

export interface RecordingProxy {
  readonly url: string
  readonly seen: Seen[]
  /**
   * The next answer to a request whose path starts with `path` is cut after `bytes` bytes of its
   * body: the connection is ended ("end") or, a moment later, reset ("reset").
   */
  readonly cutNext: (path: string, bytes: number, how?: "end" | "reset") => void
  readonly close: () => Promise<void>
}

/** A proxy in front of `target` recording each request; it passes everything through unchanged. */
export const recordingProxy = async (target: string): Promise<RecordingProxy> => {
  const seen: Seen[] = []
  let cut: { path: string; bytes: number; how: "end" | "reset" } | undefined
  const server = createServer((req, res) => {
    const entry: Seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, status: 0, answer: {} }
    seen.push(entry)
    const upstream = httpRequest(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      entry.status = answer.statusCode ?? 0
      entry.answer = answer.headers
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      const cutHere = cut !== undefined && entry.url.startsWith(cut.path) ? cut : undefined
      if (cutHere === undefined) {
        answer.pipe(res)
        return
      }
      cut = undefined
      let sent = 0
      answer.on("data", (chunk: Buffer) => {
        if (sent >= cutHere.bytes) return
        const piece = chunk.subarray(0, cutHere.bytes - sent)
        sent += piece.length
        res.write(piece)
        if (sent >= cutHere.bytes) {
          answer.destroy()
          if (cutHere.how === "end") res.socket?.destroySoon()
          else setTimeout(() => res.socket?.resetAndDestroy(), 200)
        }
      })
    })
    upstream.on("error", () => res.destroy())
    req.pipe(upstream)
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    cutNext: (path, bytes, how = "end") => {
      cut = { path, bytes, how }
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}

