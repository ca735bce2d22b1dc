/**
 * A worker thread that a synchronous caller waits on (the build's steps are synchronous, as
 * better-sqlite3 is): the worker answers on a MessagePort, then raises a shared flag; `wait()`
 * blocks on the flag (Atomics.wait, in 1 s slices) and takes the answer from the port. Used by the
 * snapshot writer's hash worker and the pipeline's compute worker.
 *
 * A worker answers even when its work fails (its modules are imported inside a try); one killed
 * outright (out of memory) cannot, and the caller, blocked, cannot see its exit: it gives up at
 * the deadline with `noAnswer`.
 */
import { type MessagePort, MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads"

/** What the worker receives besides its request: where to answer and the flag to raise. */
export interface BlockingChannel {
  readonly port: MessagePort
  readonly done: Int32Array
}

export interface BlockingWorker<Answer> {
  /** Blocks until the worker has answered or the deadline passed (once; later calls repeat it). */
  readonly wait: () => Answer
  /** Ends the worker without waiting for it. */
  readonly stop: () => void
}

export const startBlockingWorker = <Request extends BlockingChannel, Answer>(
  script: URL,
  request: Omit<Request, keyof BlockingChannel>,
  options: { readonly deadlineMs: number; readonly noAnswer: Answer },
): BlockingWorker<Answer> => {
  const { port1, port2 } = new MessageChannel()
  const done = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(script, { workerData: { ...request, port: port2, done }, transferList: [port2] })
  let answer: Answer | undefined
  return {
    wait: () => {
      if (answer !== undefined) return answer
      const deadline = performance.now() + options.deadlineMs
      while (Atomics.load(done, 0) === 0 && performance.now() < deadline) Atomics.wait(done, 0, 0, 1000)
      answer = (receiveMessageOnPort(port1)?.message as Answer | undefined) ?? options.noAnswer
      port1.close()
      void worker.terminate()
      return answer
    },
    stop: () => void worker.terminate(),
  }
}

/** The worker's side: posts the answer, then raises the flag its caller waits on. */
export const answerBlocking = (channel: BlockingChannel, answer: unknown): void => {
  channel.port.postMessage(answer)
  Atomics.store(channel.done, 0, 1)
  Atomics.notify(channel.done, 0)
}
