/**
 * A synchronous job beside this thread (snapshots/Beside.ts): in a worker thread, `wait()` blocks
 * for the worker's answer; here, `wait()` runs the job once on this thread. A job that throws, a
 * worker whose job cannot be loaded and one that never answers all end in the job's `failed`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { threadId } from "node:worker_threads"
import { afterAll, describe, expect, it } from "vitest"
import { type BesideJob, besideHere, besideInWorker } from "../../snapshots/Beside.ts"

const dir = mkdtempSync(join(tmpdir(), "fds-beside-test-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

type Answer = { readonly squared: number; readonly thread: number } | { readonly failed: string }

const besideModule = pathToFileURL(join(import.meta.dirname, "../../snapshots/Beside.ts")).href

/** A job squaring its request (throwing on a negative one) and saying which thread ran it; `entry` is its worker's top level. */
const squaring = (name: string, entry: string): BesideJob<number, Answer> => {
  const script = join(dir, `${name}.ts`)
  const job = join(dir, `${name}-job.ts`)
  writeFileSync(
    job,
    [
      'import { threadId } from "node:worker_threads"',
      "export const job = {",
      '  run: (n) => { if (n < 0) throw new Error("negative: " + n); return { squared: n * n, thread: threadId } },',
      "  failed: (reason) => ({ failed: reason }),",
      "  deadlineMs: 60_000,",
      "}",
    ].join("\n"),
  )
  writeFileSync(script, [`import { serveBeside } from ${JSON.stringify(besideModule)}`, entry].join("\n"))
  return {
    script: pathToFileURL(script),
    run: (n) => {
      if (n < 0) throw new Error(`negative: ${n}`)
      return { squared: n * n, thread: threadId }
    },
    failed: (reason) => ({ failed: reason }),
    deadlineMs: 60_000,
  }
}

const served = (name: string) => `await serveBeside(async () => (await import(${JSON.stringify(pathToFileURL(join(dir, `${name}-job.ts`)).href)})).job)`

describe("beside in a worker thread", () => {
  it("answers from another thread; wait() blocks until it has, and gives the same answer again", () => {
    const pending = besideInWorker(squaring("square", served("square")), 12)
    const answer = pending.wait()
    expect(answer).toMatchObject({ squared: 144 })
    expect((answer as { thread: number }).thread).not.toBe(threadId)
    expect(pending.wait()).toBe(answer)
  })

  it("a job that throws answers its failed, with the error", () => {
    expect(besideInWorker(squaring("throws", served("throws")), -3).wait()).toMatchObject({ failed: expect.stringContaining("negative: -3") })
  })

  it("a job its worker cannot load answers failed, saying so, without waiting out the deadline", () => {
    const job = squaring("unloadable", 'await serveBeside(async () => (await import("./no-such-job.ts")).job)')
    const began = performance.now()
    expect(besideInWorker(job, 2).wait()).toMatchObject({ failed: expect.stringContaining("could not be loaded") })
    expect(performance.now() - began).toBeLessThan(job.deadlineMs)
  })

  it("a worker that never answers is given up at the deadline", () => {
    const job = { ...squaring("silent", "setInterval(() => {}, 60_000)"), deadlineMs: 1500 }
    const began = performance.now()
    expect(besideInWorker(job, 2).wait()).toEqual({ failed: "no answer from its worker within 1500 ms" })
    const waited = performance.now() - began
    // at the deadline, not at the end of a whole 1 s slice of waiting (2 s)
    expect(waited).toBeGreaterThanOrEqual(1490)
    expect(waited).toBeLessThan(1900)
  })
})

/** The job, counting its runs. */
const counting = (job: BesideJob<number, Answer>) => {
  let runs = 0
  const run = (n: number) => {
    runs++
    return job.run(n)
  }
  return { job: { ...job, run }, runs: () => runs }
}

describe("beside here", () => {
  it("runs nothing until wait(), then the job once on this thread", () => {
    const { job, runs } = counting(squaring("here", served("here")))
    const pending = besideHere(job, 7)
    expect(runs()).toBe(0)
    expect(pending.wait()).toEqual({ squared: 49, thread: threadId })
    pending.wait()
    expect(runs()).toBe(1)
  })

  it("a job that throws gives its failed; one stopped before it ran never runs", () => {
    expect(besideHere(squaring("here-throws", served("here-throws")), -1).wait()).toMatchObject({ failed: expect.stringContaining("negative: -1") })
    const { job, runs } = counting(squaring("here-stopped", served("here-stopped")))
    const pending = besideHere(job, 7)
    pending.stop()
    expect(pending.wait()).toEqual({ failed: "stopped before it ran" })
    expect(runs()).toBe(0)
  })
})
