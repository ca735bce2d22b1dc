/**
 * One contender of the lock race (lock.test.ts), as a child process: for each data folder given,
 * waits (spinning, so that the contenders start within microseconds of each other) until its
 * start time, then tries the real pipeline lock. One turned away marks it in <dataDir>-attempts;
 * one that gets the lock holds it until every other contender has marked that it was turned away
 * (at most 3 s: a second holder never marks). Prints one JSON line per round:
 * { round, acquired, holder, from, to } (from/to: when it held the lock, epoch milliseconds).
 *
 *   node lockContender.ts <contenders> <startAt>:<dataDir> [<startAt>:<dataDir> ...]
 */
import { Effect, Exit } from "effect"
import fs, { mkdirSync, readdirSync, writeFileSync } from "node:fs"
import { syncBuiltinESMExports } from "node:module"

// Each file-system call the lock makes is delayed by 0 to 2 ms at random, so that the contenders'
// steps interleave in ever different orders (a race that needs one step to fall between two
// others of the other process is met in a few rounds, not once in a hundred).
const table = fs as unknown as Record<string, (...args: unknown[]) => unknown>
for (const name of ["openSync", "readFileSync", "writeFileSync", "writeSync", "linkSync", "renameSync", "rmSync", "unlinkSync", "fstatSync", "closeSync"]) {
  const original = table[name]!
  table[name] = function (this: unknown, ...args: unknown[]) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.random() * 2)
    return original.apply(this, args)
  }
}
syncBuiltinESMExports()
const { withRunLock } = await import("../../../pipeline/daemon/RunLock.ts")

const [contenders, ...rounds] = process.argv.slice(2)
for (const [round, spec] of rounds.entries()) {
  const at = spec.indexOf(":")
  const startAt = Number(spec.slice(0, at))
  const dataDir = spec.slice(at + 1)
  const attempts = `${dataDir}-attempts`
  mkdirSync(attempts, { recursive: true })
  while (Date.now() < startAt) {
    // spin: a timer would wake the contenders milliseconds apart
  }
  let from = 0
  const othersTurnedAway = Effect.gen(function* () {
    from = Date.now()
    for (let i = 0; i < 300 && readdirSync(attempts).length < Number(contenders) - 1; i++) yield* Effect.sleep(10)
    return Date.now()
  })
  const exit = await Effect.runPromiseExit(withRunLock(dataDir, othersTurnedAway))
  const failure = Exit.isFailure(exit) ? exit.cause.reasons.find((r) => r._tag === "Fail") : undefined
  const holder = failure?._tag === "Fail" ? (failure.error as { pid?: number }).pid : undefined
  if (Exit.isFailure(exit) && holder === undefined) throw new Error(String(exit.cause))
  if (!Exit.isSuccess(exit)) writeFileSync(`${attempts}/${process.pid}`, "")
  console.log(JSON.stringify({ round, acquired: Exit.isSuccess(exit), holder: holder ?? process.pid, from, to: Exit.isSuccess(exit) ? exit.value : 0 }))
}
