/** API command line: `serve`, `keys` and `mcp`. Run through ./fds. */

import { setFlagsFromString } from "node:v8"
import { NodeRuntime } from "@effect/platform-node"
import { Config, ConfigProvider, Effect, Layer } from "effect"
import { AccountsDb } from "../accounts/AccountsDb.ts"
import { KeyStore } from "../accounts/KeyStore.ts"
import { withJsonLogs } from "../snapshots/Log.ts"
import { releaseKeyCheck } from "../snapshots/releases/ReleaseKey.ts"
import { CliError, keysCommand } from "../accounts/KeysCommand.ts"
import { DrainState, runWithDrain } from "./system/Drain.ts"
import { formatSettings, readSettings, SettingInvalid, withSecretFiles } from "./system/Settings.ts"

const DataDir = Config.String("FDS_DATA_DIR").pipe(Config.withDefault("./data"))

/**
 * V8's allocation-site pretenuring off for the server: once a snapshot's caches are built (the
 * compare rows of the universe: many objects that live on), V8 learned to allocate the objects of
 * shared code paths (effect's contexts, request objects) directly in the old generation, and every
 * request after that kept its young objects alive through them until the next full collection:
 * each scavenge then copied ~6 MB and paused the server ~11 ms (a ten-id compare: 264 → 176 µs of
 * CPU per request side by side; docs/operations.md). Building a cache copies its objects once more
 * instead. Set here, before the server's modules are loaded: Node warns that V8 flags changed at
 * run time may do nothing, so it was measured this way (the same figures as the command-line flag).
 */
const calmYoungGeneration = () => setFlagsFromString("--no-allocation-site-pretenuring")

/** Why the server could not listen, in words and with the variable to change (effect's ServeError has no message). */
const listenFailure = (error: unknown, host: string, port: number): unknown => {
  // by its tag: `keys` commands start without effect's HTTP modules
  const serveError = typeof error === "object" && error !== null && "_tag" in error && error._tag === "ServeError"
  const cause = serveError ? (error as { readonly cause?: unknown }).cause : undefined
  const code = (cause as { readonly code?: unknown } | undefined)?.code
  if (code === "EADDRINUSE") return new Error(`port ${port} on ${host} is in use (EADDRINUSE); set PORT`)
  if (code === "EACCES") return new Error(`port ${port} on ${host} needs privileges this user lacks (EACCES); set PORT above 1023`)
  if (code === "EADDRNOTAVAIL") return new Error(`${host} is not an address of this machine (EADDRNOTAVAIL); set HOST`)
  if (serveError) return new Error(`cannot listen on ${host}:${port}: ${String(cause)}`)
  return error
}

/** The drain SIGTERM begins (api/system/Drain.ts); its grace period is set from FDS_DRAIN_SECONDS. */
const drain = new DrainState()

/**
 * `config check`: every setting, validated; the effective values (secrets as ***); and the release
 * signing key the pipeline would sign with, checked as a publish checks it (never generated here).
 */
const configCheck = Effect.gen(function* () {
  const settings = yield* readSettings
  console.log(formatSettings(settings))
  console.log(`release signing key: ${yield* releaseKeyCheck(yield* DataDir)}`)
}).pipe(Effect.provideServiceEffect(ConfigProvider.ConfigProvider, withSecretFiles))

const serve = Effect.gen(function* () {
  calmYoungGeneration()
  // every setting checked before anything starts: a bad one stops the server, named
  yield* readSettings
  drain.graceMillis = Math.round((yield* Config.Number("FDS_DRAIN_SECONDS").pipe(Config.withDefault(5))) * 1000)
  const metricsAllow = (yield* Config.String("FDS_METRICS_ALLOW").pipe(Config.withDefault("127.0.0.0/8,::1")))
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")
  const rateLimitStore = yield* Config.String("FDS_RATE_LIMIT_STORE").pipe(Config.withDefault("auto"))
  const dataDir = yield* DataDir
  const host = yield* Config.String("HOST").pipe(Config.withDefault("127.0.0.1"))
  // 0 = an ephemeral port (tests); Config.Port refuses it.
  const port = yield* Config.Int("PORT").pipe(Config.withDefault(8080))
  if (port < 0 || port > 65535) return yield* Effect.fail(new Error(`PORT must be 0–65535, got ${port}`))
  // Per-IP token bucket; FDS_RATE_LIMIT_PER_SECOND=0 turns it off (load benchmarks from one address).
  const perSecond = yield* Config.Number("FDS_RATE_LIMIT_PER_SECOND").pipe(Config.withDefault(10))
  const burst = yield* Config.Int("FDS_RATE_LIMIT_BURST").pipe(Config.withDefault(20))
  const proxies = yield* Config.String("FDS_TRUSTED_PROXIES").pipe(Config.withDefault(""))
  const trustedProxies = proxies.split(",").map((p) => p.trim()).filter((p) => p !== "")
  // Loaded here so that `keys` commands start without the whole server.
  const { connectionLimitsFromEnv } = yield* Effect.promise(() => import("./ratelimit/ConnectionGuard.ts"))
  const limits = yield* connectionLimitsFromEnv
  const { fleetSettings } = yield* Effect.promise(() => import("./snapshot/FleetSettings.ts"))
  const fleet = yield* fleetSettings.pipe(Effect.mapError((e) => new Error(e.cause.message)))
  const { ServerLive } = yield* Effect.promise(() => import("./Server.ts"))
  yield* Effect.log("serving").pipe(Effect.annotateLogs({ url: `http://${host}:${port}`, dataDir }))
  return yield* Layer.launch(
    ServerLive({
      dataDir,
      host,
      port,
      trustedProxies,
      rateLimit: perSecond > 0 ? { perSecond, burst: Math.max(1, burst) } : undefined,
      rateLimitStore: rateLimitStore === "auto" ? undefined : (rateLimitStore as "shared" | "process"),
      metricsAllow,
      drain,
      waitForAccountsStore: true,
      ...limits,
      fleet,
    }),
  ).pipe(Effect.mapError((e) => listenFailure(e, host, port)))
}).pipe(Effect.provideServiceEffect(ConfigProvider.ConfigProvider, withSecretFiles))

const keys = (sub: string | undefined, args: ReadonlyArray<string>) =>
  Effect.flatMap(DataDir, (dataDir) =>
    keysCommand(sub, args).pipe(Effect.provide(KeyStore.layer.pipe(Layer.provideMerge(AccountsDb.layer(dataDir))))),
  )

/** `mcp`: the MCP tools over stdio on the local data folder (loaded here so that `keys` starts without them). */
const mcp = Effect.flatMap(DataDir, (dataDir) =>
  Effect.flatMap(
    Effect.promise(() => import("./mcp/McpStdio.ts")),
    ({ mcpStdio }) => mcpStdio(dataDir),
  ),
)

const [command, sub, ...rest] = process.argv.slice(2)
const program: Effect.Effect<void, unknown> =
  command === "serve"
    ? serve
    : command === "config" && sub === "check"
      ? configCheck
    : command === "keys"
      ? keys(sub, rest)
      : command === "mcp"
        ? mcp
        : Effect.fail(new Error(`unknown command: ${[command, sub].filter(Boolean).join(" ")}`))

/** An error in words: its message, or (an effect error without one) its tag and its cause's message. */
const describe = (e: unknown): string => {
  if (e instanceof Error && e.message !== "") return e.message
  const tag = typeof e === "object" && e !== null && "_tag" in e ? String(e._tag) : String(e)
  const cause = e instanceof Error && e.cause !== undefined ? describe(e.cause) : ""
  return cause === "" ? tag : `${tag}: ${cause}`
}

// the server drains on SIGTERM (exit 0); the commands stop at once
const run = command === "serve" ? runWithDrain(drain) : NodeRuntime.runMain
run(
  program.pipe(
    Effect.catch((e) =>
      Effect.sync(() => {
        console.error(`fds: ${describe(e)}`)
        process.exitCode = e instanceof CliError ? e.exitCode : 2
        // a bad setting stops the server before it listens: exit now, whatever was started
        if (e instanceof SettingInvalid) process.exit(2)
      }),
    ),
    withJsonLogs,
  ),
  { disableErrorReporting: false },
)
