/**
 * Shared parts of the operations tests: a small real sample (the registry and this year's daily
 * values: a run takes about a second), the pipeline CLI as a child process (optionally with the
 * crash preload), the ledger as rows, and the check that nothing is half published.
 */
import Database from "better-sqlite3"
import { type ChildProcess, spawn } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect } from "vitest"
import { writeSample } from "../../../pipeline/sample/Sample.ts"
import { contentHash, rowCounts } from "../../../snapshots/ContentHash.ts"
import { logChildOutput } from "../../support/testLog.ts"

export const root = join(import.meta.dirname, "..", "..", "..")
const main = join(root, "pipeline", "main.ts")
const crashAt = join(import.meta.dirname, "crashAt.ts")

/**
 * The sample's registry, 2026 daily values (through 2026-11-20) and FI lists (so that a batch
 * carries its FI part: /health is degraded without it) in `dir`; the whole sample in `dir`-full.
 */
export const writeMiniSample = async (dir: string): Promise<{ readonly mini: string; readonly full: string }> => {
  const full = `${dir}-full`
  await writeSample({ out: full, scale: "small", seed: 5, endDate: "2026-11-20" })
  mkdirSync(dir, { recursive: true })
  for (const f of readdirSync(full)) {
    if (f.startsWith("fm_ident2") || f.startsWith("ffmm_todos_2026") || f.startsWith("fi_consulta_")) copyFileSync(join(full, f), join(dir, f))
  }
  return { mini: dir, full }
}

export interface CliResult {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export interface CliOptions {
  readonly env?: Record<string, string>
  /** Kill point for the crash preload (see crashAt.ts). */
  readonly crash?: { readonly fn: string; readonly when: "before" | "after"; readonly path: string; readonly nth?: number }
  /** Called with the child once it runs (to kill it from outside). */
  readonly onSpawn?: (child: ChildProcess) => void
  readonly timeoutMillis?: number
  /** A command run through bash before node (for example `ulimit -f 512`). */
  readonly shellPrefix?: string
}

/** `node pipeline/main.ts <args>` with FDS_DATA_DIR = dataDir; bounded in time (SIGKILL after the timeout). */
export const runCli = (dataDir: string, args: ReadonlyArray<string>, options: CliOptions = {}): Promise<CliResult> => {
  const crash = options.crash
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    FDS_DATA_DIR: dataDir,
    ...options.env,
    ...(crash === undefined
      ? {}
      : { FDS_CRASH_FN: crash.fn, FDS_CRASH_WHEN: crash.when, FDS_CRASH_PATH: crash.path, FDS_CRASH_NTH: String(crash.nth ?? 1) }),
  }
  const nodeArgs = [...(crash === undefined ? [] : ["--import", crashAt]), main, ...args]
  const child =
    options.shellPrefix === undefined
      ? spawn(process.execPath, nodeArgs, { env, cwd: root, stdio: ["ignore", "pipe", "pipe"] })
      : spawn("bash", ["-c", `${options.shellPrefix}; exec "$0" "$@"`, process.execPath, ...nodeArgs], {
          env,
          cwd: root,
          stdio: ["ignore", "pipe", "pipe"],
        })
  logChildOutput(child, `${args.slice(0, 2).join(" ")} (pid ${child.pid})`)
  options.onSpawn?.(child)
  let stdout = ""
  let stderr = ""
  child.stdout!.on("data", (c: Buffer) => {
    stdout += c.toString()
  })
  child.stderr!.on("data", (c: Buffer) => {
    stderr += c.toString()
  })
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMillis ?? 60_000)
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr })
    })
  })
}

export interface LedgerRow {
  readonly seq: number
  readonly type: string
  readonly payload: Record<string, unknown>
}

export const ledgerRows = (dataDir: string): LedgerRow[] => {
  const db = new Database(join(dataDir, "ledger.sqlite"), { readonly: true })
  try {
    return (db.prepare("SELECT seq, type, payload FROM events ORDER BY seq").all() as Array<{ seq: number; type: string; payload: string }>).map(
      (r) => ({ seq: r.seq, type: r.type, payload: JSON.parse(r.payload) as Record<string, unknown> }),
    )
  } finally {
    db.close()
  }
}

const FINAL = /^(\d{4}-\d{2}-\d{2})-([0-9a-f]{16})\.sqlite$/

export interface SnapshotsState {
  readonly current: string | null
  /** Snapshot files under their final names. */
  readonly finals: ReadonlyArray<string>
  readonly withManifest: ReadonlyArray<string>
  readonly leftovers: ReadonlyArray<string>
}

/**
 * Nothing half published: every file under a final snapshot name is a complete database whose
 * content hash is the one in its name and whose batch date is the one in its name; every manifest
 * next to such a file names it with that hash and its row counts; CURRENT names nothing or such a
 * file that has its manifest.
 */
export const expectNothingHalfPublished = (dataDir: string): SnapshotsState => {
  const dir = join(dataDir, "snapshots")
  const names = existsSync(dir) ? readdirSync(dir) : []
  const finals = names.filter((n) => FINAL.test(n)).sort()
  const withManifest: string[] = []
  for (const file of finals) {
    const [, date, hash16] = FINAL.exec(file)!
    const db = new Database(join(dir, file), { readonly: true, fileMustExist: true })
    try {
      expect(db.pragma("integrity_check", { simple: true }), `${file} integrity`).toBe("ok")
      const hash = contentHash(db)
      expect(hash.slice(0, 16), `${file} content hash`).toBe(hash16)
      expect(db.prepare("SELECT value FROM meta WHERE key = 'batch_date'").pluck().get(), `${file} batch date`).toBe(date)
      const manifestPath = join(dir, file.replace(/\.sqlite$/, ".manifest.json"))
      if (existsSync(manifestPath)) {
        const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { file: string; content_hash: string; row_counts: Record<string, number> }
        expect(manifest.file).toBe(file)
        expect(manifest.content_hash).toBe(hash)
        expect(manifest.row_counts).toEqual(rowCounts(db))
        withManifest.push(file)
      }
    } finally {
      db.close()
    }
  }
  const pointer = existsSync(join(dir, "CURRENT")) ? readFileSync(join(dir, "CURRENT"), "utf8").trim() : null
  if (pointer !== null) expect(withManifest, "CURRENT names a complete snapshot with its manifest").toContain(pointer)
  const leftovers = names.filter((n) => n.endsWith(".tmp"))
  return { current: pointer, finals, withManifest, leftovers }
}

export const readStatusFile = (dataDir: string): Record<string, unknown> | null => {
  const path = join(dataDir, "snapshots", "STATUS.json")
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>) : null
}

/** A `pipeline daemon` child process, its stdout read as JSON log lines as they come, its stderr kept. */
export interface DaemonProcess<L> {
  readonly child: ChildProcess
  readonly lines: L[]
  readonly stderr: () => string
}

export const spawnDaemon = <L>(env: Record<string, string>): DaemonProcess<L> => {
  const child = spawn(process.execPath, [main, "pipeline", "daemon"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...(process.env as Record<string, string>), ...env },
  })
  logChildOutput(child, `pipeline daemon (pid ${child.pid})`)
  const lines: L[] = []
  let buffer = ""
  child.stdout!.on("data", (c: Buffer) => {
    buffer += c.toString()
    const parts = buffer.split("\n")
    buffer = parts.pop()!
    for (const p of parts) if (p.trim() !== "") lines.push(JSON.parse(p) as L)
  })
  let stderr = ""
  child.stderr!.on("data", (c: Buffer) => {
    stderr += c.toString()
  })
  return { child, lines, stderr: () => stderr }
}
