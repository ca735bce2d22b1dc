/**
 * The one way the pipeline runs a job off this thread (pipeline/offload/Offload.ts): with the
 * child-process Offload a job runs in another process while this thread does its part; with the
 * in-process one both run here, this thread's part first; a job that throws gives its noAnswer;
 * FDS_PARSE_AHEAD chooses between them through Config.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { ConfigProvider, Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import {
  childProcessOffload,
  currentOffload,
  inProcessLayer,
  inProcessOffload,
  Offload,
  type OffloadJob,
  offloadLayer,
  offloadSetting,
} from "../../pipeline/offload/Offload.ts"
import { envProvider } from "../../pipeline/Settings.ts"

const dir = mkdtempSync(join(tmpdir(), "fds-offload-test-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

type Answer = { readonly doubled: number; readonly pid: number } | { readonly failed: true }

/** A job doubling its request and saying which process ran it; its child entry is a file of this test. */
const doubling = (): OffloadJob<number, Answer> => {
  const script = join(dir, "doubling.ts")
  const offload = pathToFileURL(join(import.meta.dirname, "../../pipeline/offload/Offload.ts")).href
  writeFileSync(
    script,
    [
      `import { serveJob } from ${JSON.stringify(offload)}`,
      "await serveJob({ script: new URL(import.meta.url), noAnswer: { failed: true }, run: async (n) => ({ doubled: n * 2, pid: process.pid }) })",
    ].join("\n"),
  )
  return { script: pathToFileURL(script), noAnswer: { failed: true }, run: async (n) => ({ doubled: n * 2, pid: process.pid }) }
}

describe("Offload", () => {
  it("a child process runs the job beside this thread's part: the answer comes from another process", async () => {
    const order: string[] = []
    const answer = await childProcessOffload(2).alongside(doubling(), 21, () => order.push("here"))
    expect(order).toEqual(["here"])
    expect(answer).toMatchObject({ doubled: 42 })
    expect((answer as { pid: number }).pid).not.toBe(process.pid)
  })

  it("in process, this thread's part runs first and then the job, both here", async () => {
    const order: string[] = []
    const job = doubling()
    const run = async (n: number) => {
      order.push("job")
      return job.run(n)
    }
    const answer = await inProcessOffload.alongside({ ...job, run }, 5, () => order.push("here"))
    expect(order).toEqual(["here", "job"])
    expect(answer).toEqual({ doubled: 10, pid: process.pid })
    expect(inProcessOffload.cores).toBe(1)
  })

  it("a job that throws gives its noAnswer, in process as from a child", async () => {
    const throwing: OffloadJob<number, Answer> = {
      ...doubling(),
      run: async () => {
        throw new Error("boom")
      },
    }
    expect(await inProcessOffload.alongside(throwing, 1, () => {})).toEqual({ failed: true })
    const dead = join(dir, "dead.ts")
    writeFileSync(dead, "process.exit(3)\n")
    expect(await childProcessOffload(2).alongside({ ...throwing, script: pathToFileURL(dead) }, 1, () => {})).toEqual({ failed: true })
  })

  it("FDS_PARSE_AHEAD=0 through Config is the in-process one; unset, a child process when the machine has two CPUs; one CPU is in process", async () => {
    const read = (env: Record<string, string>) => Effect.runSync(offloadSetting.parse(envProvider(env)))
    expect(read({ FDS_PARSE_AHEAD: "0" })).toBe(inProcessOffload)
    expect(read({}).cores).toBe(availableParallelism() < 2 ? 1 : availableParallelism())
    expect(read({ FDS_PARSE_AHEAD: "1" }).cores).toBe(read({}).cores)
    expect(childProcessOffload(1)).toBe(inProcessOffload)
    // the layer the pipeline provides reads the same setting from the ConfigProvider
    const provided = (env: Record<string, string>) =>
      Effect.runSync(
        Effect.gen(function* () {
          return yield* Offload
        }).pipe(Effect.provide(offloadLayer), Effect.provide(ConfigProvider.layer(envProvider(env)))),
      )
    expect(provided({ FDS_PARSE_AHEAD: "0" })).toBe(inProcessOffload)
    expect(provided({}).cores).toBe(read({}).cores)
  })

  it("without a layer the jobs' Offload still honours FDS_PARSE_AHEAD from the ConfigProvider; a layer provided wins", () => {
    const current = (env: Record<string, string>) => Effect.runSync(currentOffload.pipe(Effect.provideService(ConfigProvider.ConfigProvider, envProvider(env))))
    expect(current({ FDS_PARSE_AHEAD: "0" })).toBe(inProcessOffload)
    expect(current({}).cores).toBe(availableParallelism() < 2 ? 1 : availableParallelism())
    const withLayer = (layer: typeof inProcessLayer, env: Record<string, string>) =>
      Effect.runSync(currentOffload.pipe(Effect.provide(layer), Effect.provideService(ConfigProvider.ConfigProvider, envProvider(env))))
    expect(withLayer(inProcessLayer, {})).toBe(inProcessOffload)
    expect(withLayer(offloadLayer, { FDS_PARSE_AHEAD: "0" })).toBe(inProcessOffload)
  })
})
