/**
 * A throwaway PostgreSQL cluster for the tests: Debian's binaries (/usr/lib/postgresql/<v>/bin,
 * installed by `make test` when missing), initdb into a temporary directory (as the `postgres`
 * user when the tests run as root, since PostgreSQL refuses to run as root), started with pg_ctl
 * on a free port of 127.0.0.1 only (no Unix socket outside the directory), trust authentication
 * for loopback; stopped (immediate mode) and deleted by `stop`.
 */
import { execFileSync } from "node:child_process"
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { freePort } from "./ports.ts"

export interface TestPostgres {
  /** postgres://fds@127.0.0.1:<port>/<database> */
  readonly url: (database?: string) => string
  /** A new empty database; its URL. */
  readonly createDatabase: (prefix?: string) => Promise<string>
  /** Stops the server (`pg_ctl stop -m <mode>`, fast by default) and keeps its files, for `restart`. */
  readonly halt: (mode?: "smart" | "fast" | "immediate") => void
  /** Starts a halted server again, on the same port. */
  readonly restart: () => void
  readonly stop: () => void
}

/** The newest installed server's bin directory, or undefined. */
export const postgresBin = (): string | undefined => {
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "pg_ctl")) && existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin")
}


let counter = 0

export const startPostgres = async (): Promise<TestPostgres> => {
  const bin = postgresBin()
  if (bin === undefined) {
    throw new Error("PostgreSQL is not installed: run `make test` (it installs Debian's postgresql) or apt-get install postgresql")
  }
  const asRoot = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), "fds-pg-"))
  const data = join(dir, "data")
  // As root, every step runs as `postgres`, which must be able to enter and write the directory.
  if (asRoot) {
    chmodSync(dir, 0o777)
  }
  const run = (tool: string, args: ReadonlyArray<string>) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", join(bin, tool), ...args], { stdio: "pipe", cwd: dir })
      : execFileSync(join(bin, tool), [...args], { stdio: "pipe", cwd: dir })
  let started = false
  const stop = () => {
    process.off("exit", stop)
    if (started) {
      started = false
      try {
        run("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w"])
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true })
  }
  // Whatever happens to the test process, the cluster does not outlive it.
  process.on("exit", stop)
  try {
    run("initdb", ["-D", data, "--username=fds", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"])
    let lastError: unknown
    for (let attempt = 0; attempt < 5 && !started; attempt++) {
      const port = await freePort()
      const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`
      try {
        run("pg_ctl", ["start", "-D", data, "-w", "-t", "30", "-l", join(dir, "server.log"), "-o", options])
        started = true
        const base = `postgres://fds@127.0.0.1:${port}`
        const url = (database = "postgres") => `${base}/${database}`
        const createDatabase = async (prefix = "fds") => {
          const name = `${prefix}_${process.pid}_${++counter}`
          const client = new pg.Client({ connectionString: url() })
          await client.connect()
          try {
            await client.query(`CREATE DATABASE ${name}`)
          } finally {
            await client.end()
          }
          return url(name)
        }
        const halt = (mode: "smart" | "fast" | "immediate" = "fast") => {
          run("pg_ctl", ["stop", "-D", data, "-m", mode, "-w", "-t", "30"])
          started = false
        }
        const restart = () => {
          run("pg_ctl", ["start", "-D", data, "-w", "-t", "30", "-l", join(dir, "server.log"), "-o", options])
          started = true
        }
        return { url, createDatabase, halt, restart, stop }
      } catch (e) {
        lastError = e // the port was taken in between: another one
      }
    }
    throw lastError
  } catch (e) {
    stop()
    throw e
  }
}
