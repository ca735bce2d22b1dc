/** A running API over a market fixture, with a key, for the market tests. */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { request } from "undici"
import { createKey, get, type JsonResponse, startServer, type RunningServer } from "../support/server.ts"
import type { FixtureDir } from "../support/snapshotFixture.ts"
import { makeMarketFixture } from "./marketSnapshot.ts"

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back and assert on it
export type Json = any

export interface MarketClient {
  readonly call: (path: string) => Promise<JsonResponse & { body: Json }>
  /** The raw bytes, with Accept-Encoding: gzip; `body` is the decompressed JSON. */
  readonly callGzip: (path: string) => Promise<{ status: number; encoding: string | undefined; raw: Buffer; body: Json }>
  /** GET with the key and `headers`; the body's bytes as sent. */
  readonly raw: (path: string, headers: Record<string, string>) => Promise<{ status: number; encoding: string | undefined; bytes: Buffer }>
  readonly close: () => Promise<void>
  readonly fixture: FixtureDir
  /** The served batch's id, as the fixture published it (CURRENT's file name without .sqlite). */
  readonly batchId: string
}

export const startMarket = async (options: { readonly computed?: boolean } = {}): Promise<MarketClient> => {
  const fixture = makeMarketFixture(options)
  const key = await createKey(fixture.dataDir, { email: "market@example.cl", tier: "internal" })
  const server: RunningServer = await startServer({ dataDir: fixture.dataDir })
  const headers = { "x-api-key": key.key }
  return {
    fixture,
    batchId: readFileSync(join(fixture.snapshotsDir, "CURRENT"), "utf8").trim().replace(/\.sqlite$/, ""),
    call: (path) => get(server.url + path, headers),
    callGzip: async (path) => {
      const res = await request(server.url + path, { headers: { ...headers, "accept-encoding": "gzip" } })
      const raw = Buffer.from(await res.body.arrayBuffer())
      const encoding = res.headers["content-encoding"] as string | undefined
      const text = (encoding === "gzip" ? gunzipSync(raw) : raw).toString("utf8")
      return { status: res.statusCode, encoding, raw, body: JSON.parse(text) }
    },
    raw: async (path, extra) => {
      const res = await request(server.url + path, { headers: { ...headers, ...extra } })
      const bytes = Buffer.from(await res.body.arrayBuffer())
      return { status: res.statusCode, encoding: res.headers["content-encoding"] as string | undefined, bytes }
    },
    close: async () => {
      await server.close()
      fixture.cleanup()
    },
  }
}
