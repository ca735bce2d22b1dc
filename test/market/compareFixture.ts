/**
 * The compare/screener fixture: the market fixture (marketSnapshot.ts) plus CMF
 * spheres (SPHERES below) and the returns computation run on it as in a pipeline build, so
 * returns_latest and risk_latest hold the batch's answers. With `returns: false` the snapshot has
 * no returns rows (a batch compare/screener cannot answer from: 503).
 *
 * Hand-worked returns at the batch date 2026-03-04 (1m window: base on or before 2026-02-04 = M):
 *   8200:BPRIV 1003.002 / 1000 − 1 = 0.003002    9105:I 10.05 / 10.1 − 1 = −0.0049504950…
 *   9106:A (DOLAR) 10.71 / 10 − 1 = 0.071        9107:A 1009.8 / 1000 − 1 = 0.0098
 *   9300:A 130 / 100 − 1 = 0.3                   9301:A 95 / 100 − 1 = −0.05 (price return)
 *   8043:A, 8106:B, 9105:A: no quote by M (first quote D1) → unavailable;
 *   9302:A is EUR: 20.1 / 19 − 1 in euros, with currency null (neither PESOS nor DOLAR).
 * Every longer window (3m … 5y_ann, ytd, last_closed_month) needs a quote before M: unavailable for all.
 */
import { request } from "undici"
import { createKey, get, type JsonResponse, type RunningServer, startServer } from "../support/server.ts"
import { makeDataDir } from "../support/snapshotFixture.ts"
import type { Json } from "./client.ts"
import { sid } from "./fixtureFunds.ts"
import { publishMarketSnapshot } from "./marketSnapshot.ts"

const sphere = (key: string, family: string, investorType: string, spheres: number | null, asOf: string) => ({
  asset_id: sid(key),
  family,
  investor_type: investorType,
  spheres,
  as_of: asOf,
})

export const NACIONAL = "ACCIONARIO NACIONAL"
export const RETAIL = "RETAIL"

/** The CMF spheres of the fixture: 8043:A and 8106:B tie at 4; 9300:A is in the group but not rated. */
export const SPHERES = [
  sphere("8043:A", NACIONAL, RETAIL, 4, "2026-02-28"),
  sphere("8106:B", NACIONAL, RETAIL, 4, "2026-02-28"),
  sphere("9105:A", NACIONAL, RETAIL, 2, "2026-02-28"),
  sphere("9300:A", NACIONAL, RETAIL, null, "2026-02-28"),
  sphere("9105:I", NACIONAL, "INSTITUCIONAL", 5, "2026-02-28"),
  sphere("9106:A", "ACCIONARIO EEUU", RETAIL, null, "2026-02-28"),
  sphere("8200:BPRIV", "DEUDA CORTO PLAZO", RETAIL, 3, "2026-01-31"),
].sort((a, b) => a.asset_id - b.asset_id)


export interface CompareClient {
  readonly call: (path: string) => Promise<JsonResponse & { body: Json }>
  /** GET with the key and `headers`; the body's bytes as sent (undici leaves them encoded). */
  readonly raw: (path: string, headers: Record<string, string>) => Promise<{ status: number; encoding: string | undefined; bytes: Buffer }>
  readonly close: () => Promise<void>
}

export const startCompare = async (options: { readonly returns?: boolean } = {}): Promise<CompareClient> => {
  const dir = makeDataDir()
  publishMarketSnapshot(dir.snapshotsDir, { returns: options.returns !== false, extra: (w) => w.insertRows("cmf_spheres", SPHERES) })
  const key = await createKey(dir.dataDir, { email: "compare@example.cl", tier: "internal" })
  const server: RunningServer = await startServer({ dataDir: dir.dataDir })
  return {
    call: (path) => get(server.url + path, { "x-api-key": key.key }),
    raw: async (path, headers) => {
      const res = await request(server.url + path, { headers: { ...headers, "x-api-key": key.key } })
      const bytes = Buffer.from(await res.body.arrayBuffer())
      return { status: res.statusCode, encoding: res.headers["content-encoding"] as string | undefined, bytes }
    },
    close: async () => {
      await server.close()
      dir.cleanup()
    },
  }
}

/** The series of the fixture's universe (current ids; 8043:C is absorbed, 8300 terminated). */
export const UNIVERSE = ["8043:A", "8106:B", "8200:BPRIV", "9105:A", "9105:I", "9106:A", "9107:A", "9300:A", "9301:A", "9302:A"]

/** Decimal ids of series keys, as the API writes them. */
export const ids = (...keys: string[]): string[] => keys.map((k) => String(sid(k)))
/** The keys sorted by ascending numeric id. */
export const byAscendingId = (keys: ReadonlyArray<string>): string[] => [...keys].sort((a, b) => sid(a) - sid(b))
