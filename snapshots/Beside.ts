/**
 * A synchronous job run beside this thread: for callers that cannot await (the build's steps are
 * synchronous, as better-sqlite3 is). A `Beside` starts the job and gives a handle whose `wait()`
 * blocks until the answer is there. The pipeline's Offload service (pipeline/offload/Offload.ts)
 * chooses which one its users get: `besideInWorker` on a second core, `besideHere` on one.
 *
 * - `besideInWorker`: a worker thread (a child process could not be waited for without the event
 *   loop, which a synchronous caller holds). The worker answers on a MessagePort, then raises a
 *   shared flag; `wait()` blocks on the flag (Atomics.wait, in slices of at most 1 s) and takes the answer
 *   from the port. A worker answers even when its work fails (`serveBeside` loads the job inside a
 *   try); one killed outright (out of memory) cannot, and the caller, blocked, cannot see its
 *   exit: it gives up at the job's deadline with `noAnswer`.
 * - `besideHere`: nothing starts; `wait()` runs the job on this thread, once.
 *
 * Used by the snapshot writer's content hash (HashJob.ts) and the pipeline's compute split.
 */
import { type MessagePort, MessageChannel, receiveMessageOnPort, Worker, workerData } from "node:worker_threads"

/** A job a synchronous caller can run beside it: its worker entry and its work, the same function both ways. */
export interface BesideJob<Request, Answer> {
  /** The worker's entry: a module whose top level is `await serveBeside(() => import(<the job's module>))`. */
  readonly script: URL
  /** The job's work, on whichever thread runs it; a throw is turned into `failed`. */
  readonly run: (request: Request) => Answer
  /** The answer when the job threw (or could not be loaded). */
  readonly failed: (reason: string) => Answer
  /** How long a caller waits for a worker before giving up with `failed`. */
  readonly deadlineMs: number
}

export interface Pending<Answer> {
  /** Blocks until the answer is there or the deadline passed (once; later calls repeat it). */
  readonly wait: () => Answer
  /** Ends the job without waiting for it (a job here that has not run never will). */
  readonly stop: () => void
}

/** Starts `job` on `request` beside this thread (or readies it to run here at `wait()`). */
export type Beside = <Request, Answer>(job: BesideJob<Request, Answer>, request: Request) => Pending<Answer>

/** What the worker posts: the job's answer, or why the job could not be loaded. */
type Posted<Answer> = { readonly answer: Answer } | { readonly unloaded: string }

/** What the worker receives: the request, where to answer, the flag to raise. */
interface Channel {
  readonly request: unknown
  readonly port: MessagePort
  readonly done: Int32Array
}

const runCaught = <Request, Answer>(job: BesideJob<Request, Answer>, request: Request): Answer => {
  try {
    return job.run(request)
  } catch (e) {
    return job.failed(e instanceof Error ? (e.stack ?? e.message) : String(e))
  }
}

/** The job in a worker thread; `wait()` blocks for its answer. */
export const besideInWorker: Beside = <Request, Answer>(job: BesideJob<Request, Answer>, request: Request): Pending<Answer> => {
  const { port1, port2 } = new MessageChannel()
  const done = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(job.script, { workerData: { request, port: port2, done } satisfies Channel, transferList: [port2] })
  let answer: Answer | undefined
  return {
    wait: () => {
      if (answer !== undefined) return answer
      const deadline = performance.now() + job.deadlineMs
      for (let left = job.deadlineMs; Atomics.load(done, 0) === 0 && left > 0; left = deadline - performance.now()) {
        Atomics.wait(done, 0, 0, Math.min(left, 1000))
      }
      const message = receiveMessageOnPort(port1)?.message as Posted<Answer> | undefined
      answer =
        message === undefined
          ? job.failed(`no answer from its worker within ${job.deadlineMs} ms`)
          : "answer" in message
            ? message.answer
            : job.failed(message.unloaded)
      port1.close()
      void worker.terminate()
      return answer
    },
    stop: () => void worker.terminate(),
  }
}

/** The job on this thread, run at the first `wait()`. */
export const besideHere: Beside = <Request, Answer>(job: BesideJob<Request, Answer>, request: Request): Pending<Answer> => {
  let answer: Answer | undefined
  let stopped = false
  return {
    wait: () => {
      if (answer === undefined) answer = stopped ? job.failed("stopped before it ran") : runCaught(job, request)
      return answer
    },
    stop: () => {
      stopped = true
    },
  }
}

/**
 * The worker's side: loads the job (inside the try, so a failed import still answers), runs it on
 * its request, posts the answer, then raises the flag its caller waits on.
 */
export const serveBeside = async <Request, Answer>(load: () => Promise<BesideJob<Request, Answer>>): Promise<void> => {
  const channel = workerData as Channel
  let posted: Posted<Answer>
  try {
    const job = await load()
    posted = { answer: runCaught(job, channel.request as Request) }
  } catch (e) {
    posted = { unloaded: `the job could not be loaded in its worker: ${String(e)}` }
  }
  channel.port.postMessage(posted)
  Atomics.store(channel.done, 0, 1)
  Atomics.notify(channel.done, 0)
}
