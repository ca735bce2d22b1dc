/**
 * `./fds keys create|list|revoke|set-quota|usage`. Only `create` prints a key (the clear key alone
 * on stdout, once); the others name keys by their lookup token.
 */
import { Clock, Effect, Schema } from "effect"
import { type ParseArgsConfig, parseArgs } from "node:util"
import { isEmailAddress } from "../schemas/Account.ts"
import { AccountsDb } from "./AccountsDb.ts"
import { listKeys, lookupOf, revokeKey, setQuota, table, usage } from "./KeyAdmin.ts"
import { type AccountsUnavailable, attemptDb, KeyStore, type Tier } from "./KeyStore.ts"
import { santiagoDay } from "./SantiagoTime.ts"
import { DECIMAL_DIGITS } from "../schemas/QueryParams.ts"

/** Bad arguments (exit 2) or an unknown key (exit 1). */
export class CliError extends Schema.TaggedError<CliError>()("CliError", {
  message: Schema.String,
  exitCode: Schema.Int,
}) {}

const usageError = (message: string) => new CliError({ message, exitCode: 2 })
const TIERS: ReadonlyArray<Tier> = ["free", "institutional", "internal"]
const print = (text: string) => Effect.sync(() => process.stdout.write(text))

/** node:util's parseArgs, its refusals (an unknown option, a value such as `-1` read as an option) as usage errors. */
const parsed = <T extends ParseArgsConfig>(config: T) =>
  Effect.try({ try: () => parseArgs(config), catch: (e) => usageError(e instanceof Error ? e.message : String(e)) })

/** A whole number in decimal digits, as the API's integer parameters (no sign, exponent or hex: `1e3`, `0x10` are refused). */
const whole = (text: string): number | null => (DECIMAL_DIGITS.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : null)

const quotaArg = (text: string) => {
  const n = whole(text)
  return n === null ? Effect.fail(usageError("the quota must be a whole number ≥ 0")) : Effect.succeed(n)
}

const lookupArg = (text: string | undefined) => {
  const lookup = text === undefined ? null : lookupOf(text)
  return lookup === null ? Effect.fail(usageError("name the key by its lookup token (8 characters after fds_)")) : Effect.succeed(lookup)
}

const create = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values } = yield* parsed({
      args: [...args],
      options: { email: { type: "string" }, tier: { type: "string", default: "free" }, quota: { type: "string" }, name: { type: "string" } },
      strict: true,
    })
    // the registration form's rule: a key's address is one that could receive mail
    if (values.email === undefined || !isEmailAddress(values.email)) return yield* usageError("keys create needs --email E (an e-mail address)")
    const tier = values.tier as Tier
    if (!TIERS.includes(tier)) return yield* usageError(`--tier must be one of ${TIERS.join(", ")}`)
    const quota = values.quota === undefined ? undefined : yield* quotaArg(values.quota)
    const keys = yield* KeyStore
    const created = yield* keys.create({ email: values.email, name: values.name, tier, dailyQuota: quota })
    yield* print(created.key + "\n")
  })

const list = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values } = yield* parsed({ args: [...args], options: { email: { type: "string" } }, strict: true })
    const db = yield* AccountsDb
    const rows = yield* attemptDb(() => listKeys(db, values.email))
    yield* print(
      table(
        ["lookup", "email", "tier", "quota", "created", "revoked"],
        rows.map((r) => [r.lookup, r.email, r.tier, r.quota, r.created, r.revoked]),
      ),
    )
  })

const revoke = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const lookup = yield* lookupArg(args[0])
    const db = yield* AccountsDb
    const now = yield* Clock.currentTimeMillis
    if (!(yield* attemptDb(() => revokeKey(db, lookup, now)))) {
      return yield* new CliError({ message: `no active key with lookup ${lookup}`, exitCode: 1 })
    }
    yield* print(`revoked ${lookup}\n`)
  })

const setQuotaCommand = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const lookup = yield* lookupArg(args[0])
    const text = args[1]
    if (text === undefined) return yield* usageError("keys set-quota LOOKUP N|tier")
    const quota = text === "tier" ? null : yield* quotaArg(text)
    const db = yield* AccountsDb
    if (!(yield* attemptDb(() => setQuota(db, lookup, quota)))) {
      return yield* new CliError({ message: `no key with lookup ${lookup}`, exitCode: 1 })
    }
    yield* print(`${lookup} daily quota ${quota === null ? "of its tier" : quota}\n`)
  })

const usageCommand = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values, positionals } = yield* parsed({
      args: [...args],
      options: { days: { type: "string", default: "7" } },
      allowPositionals: true,
      strict: true,
    })
    const days = whole(values.days)
    if (days === null || days < 1) return yield* usageError("--days must be a whole number ≥ 1")
    const lookup = positionals[0] === undefined ? undefined : yield* lookupArg(positionals[0])
    const now = yield* Clock.currentTimeMillis
    // Noon-to-noon steps never skip a local date, whatever the clock changes.
    const fromDay = santiagoDay(new Date(now - (days - 1) * 86_400_000))
    const db = yield* AccountsDb
    const rows = yield* attemptDb(() => usage(db, fromDay, lookup))
    yield* print(table(["lookup", "day", "requests"], rows.map((r) => [r.lookup, r.day, String(r.count)])))
  })

export const keysCommand = (
  sub: string | undefined,
  args: ReadonlyArray<string>,
): Effect.Effect<void, CliError | AccountsUnavailable, KeyStore | AccountsDb> => {
  switch (sub) {
    case "create":
      return create(args)
    case "list":
      return list(args)
    case "revoke":
      return revoke(args)
    case "set-quota":
      return setQuotaCommand(args)
    case "usage":
      return usageCommand(args)
    default:
      return Effect.fail(usageError(`keys ${sub ?? ""}: expected create, list, revoke, set-quota or usage`))
  }
}
