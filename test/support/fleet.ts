/**
 * Helpers of the fleet tests: a key made with the CLI (`node api/main.ts keys create`) in the
 * store an environment names (the fleet's PostgreSQL with FDS_ACCOUNTS_URL).
 */
import { execFile } from "node:child_process"
import { join } from "node:path"
import { promisify } from "node:util"

const root = join(import.meta.dirname, "..", "..")

/** An internal-tier key (no daily limit) in the accounts store `env` names. */
export const createKeyIn = async (env: Record<string, string>, email = "fleet@example.cl"): Promise<string> => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(root, "api", "main.ts"), "keys", "create", "--email", email, "--tier", "internal"],
    { cwd: root, env: { ...process.env, ...env }, timeout: 30_000 },
  )
  return stdout.trim()
}
