/**
 * The daemon's retry of a whole run, on Effect's TestClock (no waiting): only source failures
 * are retried, after 1×, 2×, 4× … the base delay, at most `retries` times; a batch rejected for
 * its content, a failed build or a busy data folder is final.
 */
import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Exit, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { withSourceRetry } from "../../pipeline/daemon/Retry.ts"
import { RunLocked } from "../../pipeline/daemon/RunLock.ts"
import { BatchRejectedError } from "../../pipeline/run/Outcome.ts"

type Step = "source" | "content" | "build" | "locked" | "ok"

/** An attempt that fails as `steps` say, one step per attempt, recording when each attempt began. */
const scripted = (steps: ReadonlyArray<Step>) => {
  const startedAt: number[] = []
  const attempt = Effect.gen(function* () {
    startedAt.push(yield* Clock.currentTimeMillis)
    const step = steps[startedAt.length - 1] ?? "ok"
    if (step === "ok") return "published" as const
    if (step === "locked") return yield* new RunLocked({ pid: 1, path: "pipeline.lock" })
    return yield* new BatchRejectedError({ reason: `${step} trouble`, kind: step, batchDate: null })
  })
  return { attempt, startedAt }
}

describe("withSourceRetry", () => {
  it.effect("retries source failures with exponential backoff, then succeeds", () =>
    Effect.gen(function* () {
      const { attempt, startedAt } = scripted(["source", "source", "ok"])
      const retries: Array<{ retry: number; delayMillis: number }> = []
      const fiber = yield* Effect.forkChild(withSourceRetry(attempt, { retries: 3, baseMillis: 1000 }, (r) => retries.push(r)))
      yield* TestClock.adjust(999)
      assert.deepStrictEqual(startedAt, [0]) // the first retry waits the base delay
      yield* TestClock.adjust(1)
      assert.deepStrictEqual(startedAt, [0, 1000])
      yield* TestClock.adjust(1999)
      assert.strictEqual(startedAt.length, 2) // the second waits twice as long
      yield* TestClock.adjust(1)
      assert.strictEqual(yield* Fiber.join(fiber), "published")
      assert.deepStrictEqual(startedAt, [0, 1000, 3000])
      assert.deepStrictEqual(
        retries.map((r) => [r.retry, r.delayMillis]),
        [
          [1, 1000],
          [2, 2000],
        ],
      )
    }))

  it.effect("gives up after the bounded number of retries with the last source failure", () =>
    Effect.gen(function* () {
      const { attempt, startedAt } = scripted(["source", "source", "source", "source", "ok"])
      const fiber = yield* Effect.forkChild(Effect.exit(withSourceRetry(attempt, { retries: 2, baseMillis: 50 })))
      yield* TestClock.adjust(10_000)
      const exit = yield* Fiber.join(fiber)
      assert.isTrue(Exit.isFailure(exit))
      assert.deepStrictEqual(startedAt, [0, 50, 150])
    }))

  it.effect.each(["content", "build", "locked"] as const)("never retries a %s failure", (step) =>
    Effect.gen(function* () {
      const { attempt, startedAt } = scripted([step, "ok"])
      const fiber = yield* Effect.forkChild(Effect.exit(withSourceRetry(attempt, { retries: 5, baseMillis: 10 })))
      yield* TestClock.adjust(60_000)
      const exit = yield* Fiber.join(fiber)
      assert.isTrue(Exit.isFailure(exit))
      assert.deepStrictEqual(startedAt, [0])
    }))
})
