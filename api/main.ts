/** API command line: `serve` and `keys`. Run through ./fds. */
import { NodeRuntime } from "@effect/platform-node"
import { Config, Effect, Layer } from "effect"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { KeyStore, type Tier } from "./accounts/KeyStore.ts"
import { ServerLive } from "./Server.ts"

const DataDir = Config.String("FDS_DATA_DIR").pipe(Config.withDefault("./data"))

const serve = Effect.gen(function* () {
  const dataDir = yield* DataDir
  const host = yield* Config.String("HOST").pipe(Config.withDefault("127.0.0.1"))
  // 0 = an ephemeral port (tests); Config.Port refuses it.
  const port = yield* Config.Int("PORT").pipe(Config.withDefault(8080))
  if (port < 0 || port > 65535) return yield* Effect.fail(new Error(`PORT must be 0–65535, got ${port}`))
  console.error(JSON.stringify({ level: "info", msg: "serving", url: `http://${host}:${port}`, dataDir }))
  return yield* Layer.launch(ServerLive({ dataDir, host, port }))
})

const TIERS: ReadonlyArray<Tier> = ["free", "institutional", "internal"]

const keysCreate = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values } = parseArgs({
      args: [...args],
      options: {
        email: { type: "string" },
        tier: { type: "string", default: "free" },
        quota: { type: "string" },
        name: { type: "string" },
      },
      strict: true,
    })
    if (values.email === undefined || !/^[^@\s]+@[^@\s]+$/.test(values.email)) {
      return yield* Effect.fail(new Error("keys create needs --email E"))
    }
    const tier = values.tier as Tier
    if (!TIERS.includes(tier)) return yield* Effect.fail(new Error(`--tier must be one of ${TIERS.join(", ")}`))
    const quota = values.quota === undefined ? undefined : Number(values.quota)
    if (quota !== undefined && !(Number.isInteger(quota) && quota >= 0)) {
      return yield* Effect.fail(new Error("--quota must be a whole number ≥ 0"))
    }
    const dataDir = yield* DataDir
    const created = yield* Effect.gen(function* () {
      const keys = yield* KeyStore
      return yield* keys.create({ email: values.email!, name: values.name, tier, dailyQuota: quota })
    }).pipe(Effect.provide(KeyStore.layerSqlite(join(dataDir, "accounts.sqlite"))))
    // stdout: the key alone, shown once; only its hash is stored.
    process.stdout.write(created.key + "\n")
  })

const [command, sub, ...rest] = process.argv.slice(2)
const program =
  command === "serve"
    ? serve
    : command === "keys" && sub === "create"
      ? keysCreate(rest)
      : Effect.fail(new Error(`unknown command: ${[command, sub].filter(Boolean).join(" ")}`))

NodeRuntime.runMain(
  program.pipe(
    Effect.catch((e) =>
      Effect.sync(() => {
        console.error(`fds: ${e instanceof Error ? e.message : String(e)}`)
        process.exitCode = 2
      }),
    ),
  ),
  { disableErrorReporting: false },
)
