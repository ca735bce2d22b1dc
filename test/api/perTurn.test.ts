/** perTurn: what is asked during one turn of the event loop is run together, each caller answered. */

import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { Cause, Effect, Exit, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { perTurn } from "../../accounts/PerTurn.ts"

describe("perTurn", () => {
  it("runs one turn's items in one call, in the order asked; a later turn is another call", async () => {
    const calls: Array<ReadonlyArray<number>> = []
    const double = perTurn((batch: ReadonlyArray<number>) => {
      calls.push(batch)
      return batch.map((n) => (n < 0 ? Effect.fail(`negative ${n}`) : Effect.succeed(n * 2)))
    })
    const first = await Promise.all([3, -1, 5].map((n) => Effect.runPromiseExit(double(n))))
    expect(first).toEqual([Exit.succeed(6), Exit.fail("negative -1"), Exit.succeed(10)])
    expect(await Effect.runPromise(double(7))).toBe(14)
    expect(calls).toEqual([[3, -1, 5], [7]])
  })

  it("a throw while running ends each caller of the turn as a defect instead of leaving it waiting", async () => {
    const broken = perTurn((_batch: ReadonlyArray<string>): ReadonlyArray<Effect.Effect<string>> => {
      throw new Error("boom")
    })
    const exits = await Promise.all(["a", "b"].map((s) => Effect.runPromiseExit(broken(s))))
    for (const exit of exits) {
      expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
    }
  })

  it("a caller interrupted while it waits is left out of the turn", async () => {
    const ran: Array<string> = []
    const record = perTurn((batch: ReadonlyArray<string>) => {
      ran.push(...batch)
      return batch.map((s) => Effect.succeed(s))
    })
    const gone = Effect.runFork(record("gone"))
    const stays = Effect.runPromise(record("stays"))
    await Effect.runPromise(Fiber.interrupt(gone))
    expect(await stays).toBe("stays")
    expect(ran).toEqual(["stays"])
  })

  it("a throw out of one resumed caller does not strand the others; it is thrown afterwards", () => {
    // In a child process: the throw ends up uncaught, as any throw out of a timer callback would.
    const perTurnPath = join(import.meta.dirname, "../../accounts/PerTurn.ts")
    const script = `
      import { Effect } from "effect"
      import { perTurn } from ${JSON.stringify(perTurnPath)}
      process.on("uncaughtException", (e) => console.log("uncaught:", e.message))
      const echo = perTurn((batch) => batch.map((s) => Effect.succeed(s)))
      const first = Effect.runFork(echo("first"))
      first.addObserver(() => { throw new Error("observer failed") })
      const second = Effect.runFork(echo("second"))
      second.addObserver((exit) => console.log("second:", exit._tag, exit.value))
    `
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: join(import.meta.dirname, "../.."),
      encoding: "utf8",
    })
    expect(out.trim().split("\n")).toEqual(["second: Success second", "uncaught: observer failed"])
  })
})
