/**
 * Solves the cartola's captcha with an operator's command (FDS_CAPTCHA_COMMAND, a shell command
 * line run as `/bin/sh -c`): the image bytes go to its stdin, the code comes back on its stdout.
 * Its run time and output are bounded; a failure says the program, its exit and the start of its
 * stderr, never the image and never the command's arguments (they may hold a solving service's key).
 */
import { Config, Effect, Redacted, Schema } from "effect"
import { spawn } from "node:child_process"
import { invalidSetting, numberSetting } from "../Settings.ts"

/** One image the command could not read: it failed, timed out or printed no valid code. */
export class CaptchaUnsolved extends Schema.TaggedError<CaptchaUnsolved>()("CaptchaUnsolved", {
  message: Schema.String,
}) {}

/** Reads a captcha image; `tries` bounds the images tried for one download. */
export interface CaptchaSolver {
  /** The program, for messages (the command line's first word). */
  readonly program: string
  readonly tries: number
  readonly solve: (image: Uint8Array) => Effect.Effect<string, CaptchaUnsolved>
}

export const defaultCaptchaTimeoutMillis = 60_000
export const defaultCaptchaTries = 3
/** More than this on stdout is not a code: the command is stopped. */
const MAX_OUTPUT_BYTES = 4096
const CODE = /^[A-Z0-9]{4,8}$/

/**
 * FDS_CAPTCHA_COMMAND with FDS_CAPTCHA_TRIES and FDS_CAPTCHA_TIMEOUT_MS, or null when the command
 * is unset (the cartola then waits for a drop; the other two are not read). The command is read
 * redacted, as a secret is: its line may hold a solving service's key, so the settings it is part
 * of print `<redacted>` for it.
 */
export const captchaSettings = Config.Redacted("FDS_CAPTCHA_COMMAND").pipe(
  Config.withDefault(Redacted.make("")),
  Config.map((command) => Redacted.make(Redacted.value(command).trim())),
  Config.flatMap((command) =>
    Redacted.value(command) === ""
      ? Config.succeed(null)
      : Config.all({
          command: Config.succeed(command),
          tries: numberSetting("FDS_CAPTCHA_TRIES", defaultCaptchaTries).pipe(
            Config.mapEffect((tries) =>
              Number.isInteger(tries) && tries >= 1
                ? Effect.succeed(tries)
                : Effect.fail(invalidSetting(`FDS_CAPTCHA_TRIES must be a whole number ≥ 1, got "${tries}"`, tries)),
            ),
          ),
          timeoutMillis: numberSetting("FDS_CAPTCHA_TIMEOUT_MS", defaultCaptchaTimeoutMillis).pipe(
            Config.mapEffect((ms) => (ms === 0 ? Effect.fail(invalidSetting("FDS_CAPTCHA_TIMEOUT_MS must be above 0", ms)) : Effect.succeed(ms))),
          ),
        }),
  ),
)

export const captchaSolverOf = (settings: Config.Success<typeof captchaSettings>): CaptchaSolver | null =>
  settings === null ? null : commandSolver(Redacted.value(settings.command), settings)

/** The solver FDS_CAPTCHA_COMMAND names, or null when it is unset (the cartola then waits for a drop). */
export const captchaSolver: Config.Config<CaptchaSolver | null> = captchaSettings.pipe(Config.map(captchaSolverOf))

/** A solver running `command` with /bin/sh -c for each image. */
export const commandSolver = (
  command: string,
  options: { readonly tries: number; readonly timeoutMillis: number },
): CaptchaSolver => {
  // The program, not a `VAR=value` before it (it may hold a solving service's key), nor its arguments.
  const program = command.split(/\s+/).find((word) => word !== "" && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) ?? "(empty)"
  const unsolved = (detail: string) => new CaptchaUnsolved({ message: `the captcha command ${program} ${detail}` })
  return {
    program,
    tries: options.tries,
    solve: (image) =>
      runCommand(command, image).pipe(
        Effect.timeoutOrElse({
          duration: options.timeoutMillis,
          orElse: () => Effect.fail({ detail: `did not answer within ${options.timeoutMillis} ms` }),
        }),
        Effect.mapError((e) => unsolved(e.detail)),
        Effect.flatMap((out) => {
          const code = out.trim()
          return CODE.test(code)
            ? Effect.succeed(code)
            : Effect.fail(unsolved(`printed ${show(code)}, not a code of 4 to 8 characters A-Z 0-9`))
        }),
      ),
  }
}

const show = (text: string): string => (text === "" ? "nothing" : JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text))

/**
 * The environment the command runs with: PATH, HOME and the locale only. The pipeline's own holds
 * its secrets (the accounts URL, API keys, bucket credentials) and a solver is a third party's
 * program; a key it needs goes in the command itself (`KEY=… solver`).
 */
export const captchaEnv = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(
    Object.entries(env).filter(
      (e): e is [string, string] => e[1] !== undefined && (e[0] === "PATH" || e[0] === "HOME" || e[0] === "LANG" || e[0] === "LANGUAGE" || e[0].startsWith("LC_")),
    ),
  )

/** Runs the command in its own process group, so that a timeout stops it and all it started. */
const runCommand = (command: string, image: Uint8Array) =>
  Effect.callback<string, { readonly detail: string }>((resume) => {
    const child = spawn("/bin/sh", ["-c", command], { stdio: ["pipe", "pipe", "pipe"], detached: true, env: captchaEnv(process.env) })
    // The whole process group, even when the shell has exited: a child it left behind may hold stdout.
    const stop = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
      } catch {
        // Already gone.
      }
    }
    const out: Buffer[] = []
    let outBytes = 0
    let overflow = false
    let err = ""
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length
      if (outBytes > MAX_OUTPUT_BYTES) {
        overflow = true
        stop()
      } else out.push(chunk)
    })
    child.stderr.on("data", (chunk: Buffer) => {
      if (err.length < MAX_OUTPUT_BYTES) err += chunk.toString("utf8")
    })
    // A command that exits without reading its input closes the pipe under us: its exit says why.
    child.stdin.on("error", () => {})
    child.on("error", (e) => resume(Effect.fail({ detail: `could not be started: ${e.message}` })))
    child.on("close", (code, signal) => {
      const stderr = err.trim().replace(/\s+/g, " ")
      const said = stderr === "" ? "" : `: ${stderr.length > 200 ? `${stderr.slice(0, 200)}…` : stderr}`
      if (overflow) resume(Effect.fail({ detail: `printed more than ${MAX_OUTPUT_BYTES} bytes` }))
      else if (code !== 0) resume(Effect.fail({ detail: `${code === null ? `was killed by ${signal}` : `exited ${code}`}${said}` }))
      else resume(Effect.succeed(Buffer.concat(out).toString("utf8")))
    })
    child.stdin.end(image)
    return Effect.sync(stop)
  })
