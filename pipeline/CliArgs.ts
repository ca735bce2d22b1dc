/** Command-line arguments of the pipeline commands: a refusal is a usage error (exit 2), never a stack trace. */
import { type ParseArgsConfig, parseArgs } from "node:util"

/** Prints `fds: message` and exits 2 (bad arguments). */
export const usageExit = (message: string): never => {
  console.error(`fds: ${message}`)
  process.exit(2)
}

/** node:util's parseArgs; an unknown option or a missing value exits 2 with its message. */
export const argsOrExit = <T extends ParseArgsConfig>(config: T) => {
  try {
    return parseArgs(config)
  } catch (e) {
    return usageExit(e instanceof Error ? e.message : String(e))
  }
}
