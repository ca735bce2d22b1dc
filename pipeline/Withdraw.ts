/**
 * `./fds pipeline withdraw --sha HEX [--reason TEXT]`: takes a raw file out of the inputs the next
 * batch folds over (a `RawFileWithdrawn` event; the raw bytes stay stored). For a file that no
 * later delivery supersedes — one named by its own content (a dropped file without a CMF name) —
 * this is the way out of a rejection; delivering the same file again reinstates it.
 */
import { Effect, Schema } from "effect"
import { join } from "node:path"
import { withRunLock } from "./daemon/RunLock.ts"
import { Ledger, type RawFileObserved } from "./ledger/Ledger.ts"
import { printableName } from "./cmf/PrintableName.ts"

export class WithdrawRefused extends Schema.TaggedError<WithdrawRefused>()("WithdrawRefused", {
  reason: Schema.String,
  /** 1: nothing to withdraw; 2: the argument names no single file. */
  exitCode: Schema.Int,
}) {}

/** At least 12 hex characters of the file's SHA-256 (as rejection messages and `raw/` show it). */
const SHA_PREFIX = /^[0-9a-f]{12,64}$/u

/** The prefix asked for, lower-cased; a bad one is refused before anything is opened. */
const shaPrefix = (sha: string): Effect.Effect<string, WithdrawRefused> => {
  const wanted = sha.toLowerCase()
  return SHA_PREFIX.test(wanted)
    ? Effect.succeed(wanted)
    : Effect.fail(new WithdrawRefused({ reason: "--sha needs 12 to 64 hex characters of the file's SHA-256", exitCode: 2 }))
}

/** Withdraws the current input whose SHA-256 starts with `sha`, in the ledger of the context. */
export const withdraw = (sha: string, reason: string | null) =>
  Effect.gen(function* () {
    const wanted = yield* shaPrefix(sha)
    const ledger = yield* Ledger
    const matches = ledger.currentInputs().filter((i) => i.sha256.startsWith(wanted))
    if (matches.length === 0) {
      return yield* new WithdrawRefused({ reason: `no current input has a SHA-256 starting with ${wanted}`, exitCode: 1 })
    }
    if (matches.length > 1) {
      return yield* new WithdrawRefused({
        reason: `${matches.length} current inputs start with ${wanted} (${matches.map((m) => printableName(m.name)).join(", ")}): give more characters`,
        exitCode: 2,
      })
    }
    const file: RawFileObserved = matches[0]!
    ledger.append({
      type: "RawFileWithdrawn",
      payload: { data_set: file.data_set, key: file.key, name: file.name, sha256: file.sha256, reason },
    })
    return file
  })

/** `pipeline withdraw`: the argument checked, then the data folder's ledger opened under its lock. */
export const withdrawLive = (dataDir: string, sha: string, reason: string | null) =>
  shaPrefix(sha).pipe(
    Effect.andThen(withRunLock(dataDir, withdraw(sha, reason).pipe(Effect.provide(Ledger.layer(join(dataDir, "ledger.sqlite")))))),
  )
