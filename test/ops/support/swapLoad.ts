/**
 * Parts of the swap-under-load test: the API in-process with its access log kept (its descriptors
 * and heap are then this process's), what the process holds open, and the log of answers, each
 * checked as it arrives against the published batches.
 */
import { createHash } from "node:crypto"
import { readdirSync, readFileSync, readlinkSync } from "node:fs"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { Worker } from "node:worker_threads"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpServer } from "effect/http"
import { ServerLive } from "../../../api/Server.ts"

export interface QuietServer {
  readonly url: string
  /** The status of every answer, from the access log. */
  readonly statuses: ReadonlyArray<number>
  readonly close: () => Promise<void>
}

/** The real server on 127.0.0.1, its access log lines kept here instead of printed. */
export const startQuietServer = async (options: {
  readonly dataDir: string
  readonly pollMillis: number
  readonly drainMillis: number
}): Promise<QuietServer> => {
  const statuses: number[] = []
  const scope = Effect.runSync(Scope.make())
  const layer = ServerLive({ ...options, host: "127.0.0.1", port: 0, accessLog: (line) => void statuses.push(line.status) })
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  return { url: `http://127.0.0.1:${address.port}`, statuses, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/** This process's descriptors: how many, and the snapshot files of `snapshotsDir` among them. */
export const openFiles = (snapshotsDir: string): { readonly total: number; readonly snapshots: ReadonlyArray<string> } => {
  const targets = readdirSync("/proc/self/fd").map((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`)
    } catch {
      return "" // the directory listing's own descriptor, closed meanwhile
    }
  })
  return { total: targets.length, snapshots: targets.filter((t) => t.startsWith(snapshotsDir) && t.endsWith(".sqlite")).sort() }
}

/** Live threads of this process named `name` (a Worker's name is its thread's). */
export const threadsNamed = (name: string): number =>
  readdirSync("/proc/self/task").filter((task) => {
    try {
      return readFileSync(`/proc/self/task/${task}/comm`, "utf8").trim() === name
    } catch {
      return false // ended meanwhile
    }
  }).length

/**
 * Descriptors a worker thread holds while it lives (its own event loop's: pipes and anonymous
 * inodes), measured on one that does nothing: those that appear while it runs, sockets and files
 * left out (the process's own come and go meanwhile).
 */
export const threadDescriptors = async (): Promise<number> => {
  const own = () =>
    new Set(
      readdirSync("/proc/self/fd").flatMap((fd) => {
        try {
          const target = readlinkSync(`/proc/self/fd/${fd}`)
          return target.startsWith("pipe:") || target.startsWith("anon_inode:") ? [`${fd} ${target}`] : []
        } catch {
          return []
        }
      }),
    )
  const before = own()
  const worker = new Worker("setInterval(() => {}, 1000)", { eval: true })
  await new Promise((resolve) => worker.once("online", resolve))
  await new Promise((r) => setTimeout(r, 50))
  const during = [...own()].filter((fd) => !before.has(fd)).length
  await worker.terminate()
  return during
}

/** Files of `snapshotsDir` mapped into this process (a reader's mmap lasts until it closes). */
export const mappedSnapshots = (snapshotsDir: string): ReadonlyArray<string> => [
  ...new Set(
    readFileSync("/proc/self/maps", "utf8")
      .split("\n")
      .map((line) => line.slice(line.indexOf("/")))
      .filter((path) => path.startsWith(snapshotsDir)),
  ),
]

setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as () => void

/** heapUsed after full collections. */
export const heapAfterGc = async (): Promise<number> => {
  for (let i = 0; i < 3; i++) {
    gc()
    await new Promise((r) => setTimeout(r, 20))
  }
  return process.memoryUsage().heapUsed
}

export interface Batch {
  readonly file: string
  readonly contentHash: string
  readonly batchDate: string
}

export interface LoadRoute {
  readonly name: string
  readonly path: string
  /** The batch date the body states. */
  readonly dateOf: (body: { readonly meta?: Record<string, unknown> }) => unknown
}

/** Answers of one kind, counted: `file` is the batch the ETag names ("-" without ETag). */
export interface AnswerGroup {
  readonly client: "load" | "check"
  readonly route: string
  readonly status: number
  readonly file: string
  readonly date: string
  readonly bytes: number
  /** Of the whole body (checking clients only). */
  readonly hash: string | null
  readonly n: number
}

/**
 * Every answer, checked as it arrives and counted by kind (the log stays small under load). A 200
 * must state one of `dates` and, with an ETag, the date of the batch the ETag names; a 503 must
 * carry Retry-After (its bodies are kept for the error-shape check); anything else is a problem.
 */
export class AnswerLog {
  readonly problems: string[] = []
  readonly unavailableBodies = new Set<string>()
  private readonly groups = new Map<string, AnswerGroup>()
  private readonly batchByTag: ReadonlyMap<string, Batch>
  private readonly dates: ReadonlyArray<string>

  /** `batchByTag`: the batch of each ETag a route may send, keyed `<route name> <ETag>`. */
  constructor(batchByTag: ReadonlyMap<string, Batch>, dates: ReadonlyArray<string>) {
    this.batchByTag = batchByTag
    this.dates = dates
  }

  /** `bytes`: the whole body (a checking client), or null (autocannon: its size from Content-Length). */
  record(
    client: AnswerGroup["client"],
    route: LoadRoute,
    status: number,
    headers: Readonly<Record<string, unknown>>,
    text: string,
    bytes: Buffer | null,
  ): void {
    const { file, date } = this.check(route, status, headers, text) ?? { file: "-", date: "-" }
    const size = bytes === null ? Number(headers["content-length"]) : bytes.length
    // every answer names its batch (meta.batch_id): the one its ETag says; the rest of the body is the day's
    const named = /"batch_id":"([^"]+)"/.exec(text)?.[1]
    if (named !== undefined && file !== "-" && `${named}.sqlite` !== file) this.problem(`${route.name}: meta.batch_id ${named}, its ETag's batch ${file}`)
    const body = bytes === null ? null : Buffer.from(bytes.toString("utf8").replace(/"batch_id":"[^"]+",?/, ""), "utf8")
    const hash = body === null ? null : createHash("sha256").update(body).digest("hex").slice(0, 16)
    const k = [client, route.name, status, file, date, size, hash].join(" ")
    const group = this.groups.get(k)
    this.groups.set(k, { client, route: route.name, status, file, date, bytes: size, hash, n: (group?.n ?? 0) + 1 })
  }

  get answers(): ReadonlyArray<AnswerGroup> {
    return [...this.groups.values()]
  }

  private problem(text: string): void {
    if (this.problems.length < 20) this.problems.push(text)
  }

  private check(route: LoadRoute, status: number, headers: Readonly<Record<string, unknown>>, text: string) {
    if (status === 503) {
      if (!(Number(headers["retry-after"]) >= 1)) this.problem(`${route.name}: 503 without Retry-After`)
      this.unavailableBodies.add(text)
      return null
    }
    if (status !== 200) {
      this.problem(`${route.name}: status ${status}: ${text.slice(0, 200)}`)
      return null
    }
    let body: { meta?: Record<string, unknown>; data?: unknown[] }
    try {
      body = JSON.parse(text)
    } catch {
      this.problem(`${route.name}: a 200 whose body is not JSON (${text.length} chars)`)
      return null
    }
    const date = String(route.dateOf(body))
    if (body.meta?.count !== undefined && body.meta.count !== body.data?.length) this.problem(`${route.name}: meta.count is not the rows'`)
    if (headers.etag === undefined) {
      // no validator: the snapshot changed while the route ran; the body alone must be one batch's
      if (!this.dates.includes(date)) this.problem(`${route.name}: a 200 without ETag states ${date}`)
      return { file: "-", date }
    }
    const batch = this.batchByTag.get(`${route.name} ${String(headers.etag)}`)
    if (batch === undefined) this.problem(`${route.name}: ETag ${String(headers.etag)} names no published batch`)
    else if (batch.batchDate !== date) this.problem(`${route.name}: ETag of ${batch.file}, body states ${date}`)
    return { file: batch?.file ?? "?", date }
  }
}
