/** One FI fixture snapshot served by the real API on an ephemeral port, with a key, for a test file. */
import { join } from "node:path"
import { afterAll, beforeAll } from "vitest"
import { createKey, get, type JsonResponse, type RunningServer, startServer } from "../support/server.ts"
import { type FiState, makeFiFixture } from "./fiFixture.ts"

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back and assert on it
export type Json = any

export interface FiServer {
  /** GET with the key (and `headers`); the parsed JSON body is `body`. */
  readonly call: (path: string, headers?: Record<string, string>) => Promise<JsonResponse & { readonly body: Json }>
  /** Base URL of the running server (after beforeAll). */
  readonly url: () => string
  /** The key the calls carry (after beforeAll). */
  readonly key: () => string
  /** The published snapshot file's path. */
  readonly snapshotPath: string
  /** The published batch's id: the fixture's file name without .sqlite. */
  readonly batchId: string
}

/**
 * Registers beforeAll/afterAll hooks that publish the fixture, start the server and make a key;
 * `computed`: the market computations run on the fixture (see fiFixture.ts).
 */
export const useFiServer = (fi: FiState = "available", computed = false): FiServer => {
  const fx = makeFiFixture(fi, computed)
  let server: RunningServer
  let key: string
  beforeAll(async () => {
    key = (await createKey(fx.dataDir, { email: "fi@example.cl" })).key
    server = await startServer({ dataDir: fx.dataDir })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })
  return {
    call: (path, headers = {}) => get(server.url + path, { ...headers, "x-api-key": key }),
    url: () => server.url,
    key: () => key,
    snapshotPath: join(fx.snapshotsDir, fx.file),
    batchId: fx.file.replace(/\.sqlite$/, ""),
  }
}
