/**
 * `./fds mcp`: the same tools over stdio, for an agent host on the analyst's own machine. It reads
 * the local data folder directly (its snapshot store, as `serve` has): no HTTP, no key, no quota;
 * its server info says so. stdout carries the protocol only: the store's log lines go to stderr.
 * A line it cannot take (too long, not JSON) is answered and logged, and the server goes on
 * (McpStdioTransport.ts). Ends when the host closes stdin (status 0), or when stdin fails (not 0).
 */

import { join } from "node:path"
import { Effect, Layer } from "effect"
import { OffThreadRenderer } from "../market/OffThreadRender.ts"
import { SnapshotStore } from "../snapshot/SnapshotStore.ts"
import { warmSnapshot } from "../snapshot/Warm.ts"
import { McpCalls } from "./McpCalls.ts"
import { makeMcpServer } from "./McpServer.ts"
import { McpStdioTransport } from "./McpStdioTransport.ts"
import { RouteCaller } from "./RouteCaller.ts"

const stdioInfo = (dataDir: string) => ({
  description: `Fund Data Service (Chilean mutual funds, investment funds and ETFs from CMF files) on the local data folder ${dataDir}, over stdio: no HTTP, no API key, no quota. Each result names the batch (batch_id) it was read from.`,
})

/**
 * The protocol owns stdout; the store logs its info lines with console.log, from the moment its
 * layer is built (the first snapshot's check): they go to stderr before anything is built.
 */
const logToStderr = Effect.sync(() => {
  console.log = (...args: unknown[]) => console.error(...args)
})

const serve = (dataDir: string) =>
  Effect.gen(function* () {
    const calls = yield* McpCalls
    yield* Effect.callback<void>((resume) => {
      const server = makeMcpServer(calls, stdioInfo(dataDir))
      const transport = new McpStdioTransport()
      server.onclose = () => resume(transport.failure === null ? Effect.void : Effect.die(transport.failure))
      server.connect(transport).catch((e: unknown) => resume(Effect.die(e)))
      return Effect.promise(() => server.close())
    })
  }).pipe(
    Effect.provide(
      McpCalls.layer.pipe(
        Layer.provide(RouteCaller.layer),
        Layer.provideMerge(
          Layer.mergeAll(
            SnapshotStore.layer({ dir: join(dataDir, "snapshots"), pollMillis: 2000, drainMillis: 30_000, warm: warmSnapshot }),
            OffThreadRenderer.layer,
          ),
        ),
      ),
    ),
  )

export const mcpStdio = (dataDir: string) =>
  Effect.andThen(logToStderr, serve(dataDir))
