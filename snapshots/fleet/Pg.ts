/**
 * PostgreSQL connections that outlive the server: a restart, a fast shutdown, idle_session_timeout
 * or pg_terminate_backend must never end the process.
 *
 * `pg` emits 'error' on a client whose connection is lost, whether it is idle or in use, and Node
 * throws an 'error' nobody listens to. The pool listens on idle clients only, and `pool.query`
 * listens once on the client it checks out: a lost connection can report twice (the server's
 * message, then the closed socket), and the second report would end the process. So every client
 * of these pools gets a listener of its own for its whole life. The pool drops a client that is
 * no longer queryable and opens a new one for the next query, so the store comes back by itself.
 */
import pg from "pg"

/**
 * A pool whose lost connections are reported to `onLost` once per client (the SQLSTATE and the
 * message only: the error object also holds the client and its settings, password included).
 */
export const durablePool = (config: pg.PoolConfig, onLost: (e: { readonly code: string | null; readonly message: string }) => void = () => undefined): pg.Pool => {
  const pool = new pg.Pool(config)
  // each client's errors are reported by its own listener below
  pool.on("error", () => undefined)
  pool.on("connect", (client) => {
    let reported = false
    client.on("error", (e: Error & { readonly code?: string }) => {
      if (reported) return
      reported = true
      onLost({ code: e.code ?? null, message: e.message })
    })
  })
  return pool
}

export interface Listener {
  /** Whether the connection is listening now. */
  readonly listening: () => boolean
  readonly close: () => Promise<void>
}

/**
 * LISTEN on `channel` on a connection of its own, reconnecting `retryMillis` after any loss or
 * failed attempt (one attempt at a time, however many ways a connection reports its end).
 * `onListening` runs each time the connection listens again (a notice sent while no connection
 * listened is lost: the caller reads what it missed); `onLost` each time it is lost.
 */
export const listenDurably = (
  url: string,
  channel: string,
  handlers: {
    readonly onNotice: (payload: string | undefined) => void
    readonly onListening?: () => void
    readonly onLost?: (error: string) => void
  },
  retryMillis = 1_000,
): Listener => {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`)
  let closed = false
  let client: pg.Client | null = null
  let listening = false
  const attempt = () => {
    if (closed) return
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 })
    client = c
    let ended = false
    const lost = (e: unknown) => {
      if (ended) return
      ended = true
      if (listening) handlers.onLost?.(e instanceof Error ? e.message : String(e))
      listening = false
      c.end().catch(() => undefined)
      if (!closed) setTimeout(attempt, retryMillis).unref()
    }
    c.on("error", lost)
    c.on("end", () => lost(new Error("the connection ended")))
    c.on("notification", (n) => handlers.onNotice(n.payload))
    c.connect()
      .then(() => c.query(`LISTEN ${channel}`))
      .then(() => {
        if (ended || closed) return
        listening = true
        handlers.onListening?.()
      })
      .catch(lost)
  }
  attempt()
  return {
    listening: () => listening,
    close: async () => {
      closed = true
      listening = false
      await client?.end().catch(() => undefined)
    },
  }
}
