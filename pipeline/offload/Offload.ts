/**
 * The one way the pipeline runs a job off this thread: "run this job elsewhere while this thread
 * does its part, or run it here". A job names its entry and its function; the layer decides
 * where it runs:
 * - the second core (the default): an asynchronous caller's job (`alongside`) in a child process
 *   (ChildProcess.ts), its memory back to the system when it exits, a child that gives no answer
 *   leaving its part to the caller; a synchronous caller's (`beside`: the build's compute split
 *   and the snapshot's content hash, which cannot await) in a worker thread it blocks on
 *   (snapshots/Beside.ts), since a child process cannot be waited for without the event loop;
 * - `inProcessLayer`: one core, nothing split; the callers do all of it on this thread, as
 *   they do when a job's child gives no answer.
 * `offloadLayer` chooses through `Config`: `FDS_PARSE_AHEAD=0` is the in-process one (and so is
 * a machine with one CPU); without a layer, `currentOffload` reads the same setting.
 *
 * Its users are the folder collect's recognition (RecognizeAhead.ts), the cold build's parse
 * ahead (ParseAhead.ts), the compute split (compute/Alongside.ts) and the snapshot's
 * content hash (the writer's `finish`, given `beside`). A job's location (the raw store's folder, the parse cache's) is
 * a member of the store's port (`dir`, `dataDir`: null for a store in memory), never an
 * `instanceof` on a service.
 */
import { availableParallelism } from "node:os"
import { Config, Context, Effect, Layer } from "effect"
import { type Beside, besideHere, besideInWorker } from "../../snapshots/Beside.ts"
import { textSetting } from "../Settings.ts"
import { alongsideProcess, childAnswer, childRequest } from "./ChildProcess.ts"

/** A job that runs in a child process (its `script` calls `serveJob`) or on this thread (`run`). */
export interface OffloadJob<Request, Answer> {
  /** The child's entry: a module whose top level is `await serveJob(thisJob)`. */
  readonly script: URL
  /** The job's work; a failure is an answer (`noAnswer` or one of its own), never a throw. */
  readonly run: (request: Request) => Promise<Answer>
  /** The answer when the job gave none (no child, a crash, a deadline). */
  readonly noAnswer: Answer
}

export interface OffloadShape {
  /** How many cores the work is shared between: 1 means all of it here, nothing split. */
  readonly cores: number
  /**
   * Runs `job` on `request` elsewhere while `here` runs on this thread, then gives the job's
   * answer. With one core both run here, `here` first.
   */
  readonly alongside: <Request, Answer>(job: OffloadJob<Request, Answer>, request: Request, here: () => void) => Promise<Answer>
  /** Starts a synchronous caller's job beside this thread; with one core it runs here at `wait()`. */
  readonly beside: Beside
}

/** A child process beside this thread (on a machine with fewer than two CPUs: the in-process one). */
export const childProcessOffload = (cores: number = availableParallelism()): OffloadShape =>
  cores < 2
    ? inProcessOffload
    : { cores, alongside: (job, request, here) => alongsideProcess(job.script, request, here, job.noAnswer), beside: besideInWorker }

/** Everything on this thread. */
export const inProcessOffload: OffloadShape = {
  cores: 1,
  beside: besideHere,
  alongside: async (job, request, here) => {
    here()
    try {
      return await job.run(request)
    } catch {
      return job.noAnswer
    }
  },
}

/** `FDS_PARSE_AHEAD`: "0" keeps the build on one core; anything else (default "1") uses a second one when the machine has it. */
export const offloadSetting: Config.Config<OffloadShape> = textSetting("FDS_PARSE_AHEAD", "1").pipe(
  Config.map((value) => (value.trim() === "0" ? inProcessOffload : childProcessOffload())),
)

/** Where the pipeline's jobs run: `offloadLayer` (the setting) or `inProcessLayer`; read it through `currentOffload`. */
export class Offload extends Context.Service<Offload, OffloadShape>()("fds/pipeline/Offload") {}

/**
 * The Offload provided; unprovided, the one `FDS_PARSE_AHEAD` chooses through the current
 * ConfigProvider (so no path ignores the setting, as a fixed default did).
 */
export const currentOffload: Effect.Effect<OffloadShape> = Effect.flatMap(Effect.serviceOption(Offload), (provided) =>
  provided._tag === "Some" ? Effect.succeed(provided.value) : Effect.orDie(offloadSetting),
)

/** Where the pipeline's jobs run, chosen by `FDS_PARSE_AHEAD` through Config (any text is accepted: it does not fail). */
export const offloadLayer: Layer.Layer<Offload> = Layer.orDie(Layer.effect(Offload, offloadSetting))

/** Everything on this thread, whatever the settings. */
export const inProcessLayer: Layer.Layer<Offload> = Layer.succeed(Offload, inProcessOffload)

/** The child's side of a job: reads its request, runs the job, prints its answer (or the job's noAnswer, should it throw). */
export const serveJob = async <Request, Answer>(job: OffloadJob<Request, Answer>): Promise<void> => {
  let answer: Answer
  try {
    answer = await job.run(childRequest<Request>())
  } catch {
    answer = job.noAnswer
  }
  childAnswer(answer)
}
