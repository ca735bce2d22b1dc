/**
 * One undici dispatcher for tests that send many requests to the in-process server
 * (support/server.ts), which closes a connection idle for its keep-alive timeout: Node's default,
 * 5 s (advertised as `Keep-Alive: timeout=5`; Node closes it 1 s later still, its
 * keepAliveTimeoutBuffer), set nowhere in api/ (api/ratelimit/ConnectionGuard.ts). undici keeps
 * an idle socket for that hint less 2 s (3 s) and writes the next request on it; its timer starts
 * when it has read the end of an answer, the server's when the answer was written, and the two
 * share this process's event loop: under load the gap between them grew past the margin, the
 * server closed a socket undici still held as good, and the next request on it was reset
 * (ECONNRESET, or UND_ERR_SOCKET when undici saw the close). This dispatcher keeps an idle socket
 * 1 s at most, whatever the server advertises, leaving a margin of 4 s (5 s with the buffer).
 */
import { Agent } from "undici"

/** The server's keep-alive timeout (Node's default; api/ sets none), in ms. */
export const SERVER_KEEP_ALIVE_MS = 5_000

/** How long the dispatcher keeps an idle socket, in ms: well under SERVER_KEEP_ALIVE_MS. */
export const CLIENT_KEEP_ALIVE_MS = 1_000

/** Pass as `dispatcher` to undici's `request`. */
export const testDispatcher = new Agent({ keepAliveTimeout: CLIENT_KEEP_ALIVE_MS, keepAliveMaxTimeout: CLIENT_KEEP_ALIVE_MS })

/** The seconds of a `Keep-Alive: timeout=<s>` answer header, in ms; undefined without one. */
export const advertisedKeepAliveMs = (header: string | string[] | undefined): number | undefined => {
  const m = /timeout=(\d+)/.exec(String(header ?? ""))
  return m === null ? undefined : Number(m[1]) * 1000
}
