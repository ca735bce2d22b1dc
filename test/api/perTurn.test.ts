/** perTurn: what is asked during one turn of the event loop is run together, each caller answered. */
import { Cause, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { perTurn } from "../../api/accounts/PerTurn.ts"

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
})
