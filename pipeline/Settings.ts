/**
 * Reading the pipeline's FDS_* settings through Effect Config: a text or a non-negative number
 * with its default, and a bad value said with the setting's name and the value given.
 */
import { Config, ConfigProvider, Effect, Exit, Schema, SchemaIssue } from "effect"

export type Env = Readonly<Record<string, string | undefined>>

/** A setting given a wrong value; `message` names the setting and says what it needs. */
export const invalidSetting = (message: string, input: unknown): Config.ConfigError =>
  new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.InvalidValue({ message }, input)))

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

/** The environment as a config provider (an empty value is a value, as the settings always read it). */
export const envProvider = (env: Env): ConfigProvider.ConfigProvider =>
  ConfigProvider.fromEnvRecord({ ...env }, { preserveEmptyStrings: true })

/** Reads `config` from `env`; a bad value throws an Error with the setting's message (the commands exit 2 with it). */
export const readSettings = <A>(config: Config.Config<A>, env: Env): A => {
  const exit = Effect.runSyncExit(config.parse(envProvider(env)))
  if (Exit.isSuccess(exit)) return exit.value
  const failure = exit.cause.reasons.find((r) => r._tag === "Fail")
  throw new Error(failure?._tag === "Fail" ? failure.error.cause.message : String(exit.cause))
}

