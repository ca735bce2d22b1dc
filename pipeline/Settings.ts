/**
 * Reading the pipeline's FDS_* settings through Effect Config: a text or a non-negative number
 * with its default, and a bad value said with the setting's name and the value given. Each
 * setting is a `Config` read through the effect's ConfigProvider; the commands' entry points
 * install `environmentProvider()`, tests a provider over a record (`envProvider`).
 */
import { Config, ConfigProvider, Effect, Exit } from "effect"
import { invalidSetting } from "../snapshots/InvalidSetting.ts"

export { invalidSetting }

export type Env = Readonly<Record<string, string | undefined>>

/** A text setting; unset: the fallback (set but empty: empty). */
export const textSetting = (name: string, fallback: string): Config.Config<string> =>
  Config.String(name).pipe(Config.withDefault(fallback))

/** A non-negative number; unset or empty: the fallback. A bad value is a configuration error, said at start. */
export const numberSetting = (name: string, fallback: number): Config.Config<number> =>
  textSetting(name, "").pipe(
    Config.mapEffect((raw) => {
      if (raw === "") return Effect.succeed(fallback)
      const n = Number(raw)
      return Number.isFinite(n) && n >= 0
        ? Effect.succeed(n)
        : Effect.fail(invalidSetting(`${name} must be a non-negative number, got "${raw}"`, raw))
    }),
  )

/** A record of settings as a config provider (an empty value is a value, as the settings always read it). */
export const envProvider = (env: Env): ConfigProvider.ConfigProvider =>
  ConfigProvider.fromEnvRecord({ ...env }, { preserveEmptyStrings: true })

/**
 * The process's environment as a config provider, read as `envProvider` reads a record (effect's
 * default provider takes an empty value for unset, which `FDS_X=` never meant here).
 */
export const environmentProvider = (): ConfigProvider.ConfigProvider => ConfigProvider.fromEnv({ preserveEmptyStrings: true })

/** `effect` reading its settings from the process's environment: for the commands' entry points. */
export const withEnvironment = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, ConfigProvider.ConfigProvider, environmentProvider())

/** The message of a configuration error: the setting's name and what it needs. */
export const settingMessage = (error: Config.ConfigError): string => error.cause.message

/**
 * Reads settings through `provider` (default: the environment) for a command that is not an
 * Effect; a bad value throws an Error with the setting's message (the commands exit 2 with it),
 * or the settings' own error when they fail with one.
 */
export const readSettings = <A, E>(settings: Effect.Effect<A, E>, provider: ConfigProvider.ConfigProvider = environmentProvider()): A => {
  const exit = Effect.runSyncExit(Effect.provideService(settings, ConfigProvider.ConfigProvider, provider))
  if (Exit.isSuccess(exit)) return exit.value
  const failure = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (failure?._tag !== "Fail") throw new Error(String(exit.cause))
  throw failure.error instanceof Config.ConfigError ? new Error(settingMessage(failure.error)) : failure.error
}
