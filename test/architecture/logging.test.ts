/**
 * One logger, one format (issue #28, item 5): every log line of the server, the pipeline, the
 * daemon, the accounts and ops is made by snapshots/Log.ts, `Effect.log*` under its `JsonLogger`
 * or `logLine` outside any Effect. A log line made by hand (`JSON.stringify({ level…` /
 * `{ time…`) anywhere else fails here, and so does a new bare `console.*(` or
 * `process.std*.write(`: the ones left are counted per file, each named with why it is not a log
 * line (a command's answer or usage error for whoever typed it, a protocol's output, the access
 * log's own format). Then the logger itself: one valid JSON line per entry, with time, level,
 * msg, the annotations, spans and cause.
 */
import { Data, Effect, Logger } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import { formatLine, JsonLogger, jsonLogger, logLine, withJsonLogs } from "../../snapshots/Log.ts"
import { sources } from "./sources.ts"

const LOGGER = "snapshots/Log.ts"

/** A log line made by hand: an object literal opening with `level` or `time`, serialized. */
const HAND_MADE = /JSON\.stringify\(\s*\{\s*(?:level|time)\s*:/g
/** Output that bypasses the logger. */
const BARE = /\bconsole\.(?:log|error|warn|info|debug)\(|process\.std(?:out|err)\.write\(/g

/** The bare writes that are not log lines, per file: how many, and why. */
const NOT_LOGS: Readonly<Record<string, readonly [count: number, why: string]>> = {
  "pipeline/main.ts": [13, "the commands' answers (published …, match: …, withdrawn: …) and their errors and warnings for whoever ran them, in words"],
  "pipeline/Rollback.ts": [6, "`pipeline rollback`: its answer and its refusal, in words"],
  "pipeline/StatusCommand.ts": [1, "`pipeline status`: its answer"],
  "pipeline/CliArgs.ts": [1, "a usage error of a command line"],
  "pipeline/daemon/DaemonCommand.ts": [1, "a bad setting stops `pipeline daemon` before it starts, in words"],
  "pipeline/Pipeline.ts": [1, "`fds: warning: the previous pipeline run was killed`, said to whoever starts the next run (test/ops/kill.test.ts, runState.test.ts)"],
  "pipeline/offload/ChildProcess.ts": [1, "the child's answer to its parent on stdout: a protocol, not a log"],
  "pipeline/daemon/Log.ts": [1, "the daemon's lines on stdout (its contract with journald and the tests); made by formatLine"],
  "api/main.ts": [3, "`config check`'s answer (the settings, the release signing key), and a command's error in words"],
  "api/http/RequestLog.ts": [1, "the access log: its own line format, batched on stdout"],
  "api/http/ServerErrors.ts": [1, "the access log's line of a request that failed (500), beside the access log's"],
  "api/mcp/McpStdio.ts": [1, "stdout is the MCP protocol's: console.log is sent to stderr"],
  "api/mcp/McpStdioTransport.ts": [1, "the transport's warning line on stderr (made by formatLine); injectable for its tests"],
  "accounts/KeysCommand.ts": [1, "`keys …`: the command's answer"],
  "ops/main.ts": [2, "a bad setting or an unknown command, in words"],
  "ops/FollowCommand.ts": [1, "a usage error of `follow`"],
  "ops/VerifyCommand.ts": [6, "`verify`: each check that held, its verdict, its warning (a key not pinned), the check that failed and its usage errors, in words"],
  "ops/PublishCommand.ts": [2, "usage errors of `publish`"],
  "ops/AlertsCommand.ts": [8, "`alerts send`: its answer and its usage errors"],
  "ops/WebhooksCommand.ts": [4, "`webhooks send`: its answer (what it wrote and sent, one JSON object) and its usage and setting errors"],
  [LOGGER]: [2, "the logger itself"],
}

describe("one logger", () => {
  it(`no log line is made by hand outside ${LOGGER}`, () => {
    const found = sources()
      .filter((s) => s.path !== LOGGER)
      .flatMap((s) => [...s.text.matchAll(HAND_MADE)].map((m) => `${s.path}:${s.text.slice(0, m.index).split("\n").length}`))
    expect(found).toEqual([])
  })

  it("no bare console or std stream write but those that are not log lines, each named with why", () => {
    const counted = Object.fromEntries(
      sources()
        .map((s) => [s.path, [...s.text.matchAll(BARE)].length] as const)
        .filter(([, n]) => n > 0),
    )
    expect(counted).toEqual(Object.fromEntries(Object.entries(NOT_LOGS).map(([path, [count]]) => [path, count])))
  })
})

describe("the JSON logger", () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  const capture = <A, E>(program: Effect.Effect<A, E>): Promise<ReadonlyArray<string>> => {
    const lines: string[] = []
    return Effect.runPromise(Effect.exit(program).pipe(Effect.provide(Logger.layer([jsonLogger((line) => lines.push(line))])))).then(() => lines)
  }

  it("writes one JSON line per entry: time, level in lower case, msg, then the annotations", async () => {
    const lines = await capture(
      Effect.gen(function* () {
        yield* Effect.log("collected").pipe(Effect.annotateLogs({ stage: "collected", inputs: 3 }))
        yield* Effect.logWarning("inbox: a skipped: not a regular file").pipe(Effect.annotateLogs("file", "a"))
        yield* Effect.logError("STATUS.json not written").pipe(Effect.annotateLogs({ error: "ENOSPC" }))
        yield* Effect.logDebug("below the minimum level: not written")
      }),
    )
    expect(lines).toHaveLength(3)
    for (const line of lines) expect(line).not.toContain("\n")
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(parsed[0]).toEqual({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), level: "info", msg: "collected", stage: "collected", inputs: 3 })
    expect(Object.keys(parsed[0]!)).toEqual(["time", "level", "msg", "stage", "inputs"])
    expect(parsed[1]).toMatchObject({ level: "warn", msg: "inbox: a skipped: not a regular file", file: "a" })
    expect(parsed[2]).toMatchObject({ level: "error", msg: "STATUS.json not written", error: "ENOSPC" })
  })

  it("adds the spans (ms since each began) and the cause when there are any", async () => {
    class Boom extends Data.TaggedError("Boom")<{ readonly why: string }> {}
    const lines = await capture(
      Effect.fail(new Boom({ why: "disk" })).pipe(
        Effect.tapCause((cause) => Effect.logError("run failed", cause)),
        Effect.withLogSpan("run"),
      ),
    )
    const line = JSON.parse(lines[0]!) as { level: string; msg: string; spans: Record<string, number>; cause?: string }
    expect(line.level).toBe("error")
    expect(line.msg).toBe("run failed")
    expect(line.spans).toEqual({ run: expect.any(Number) })
    expect(line.cause).toMatch(/^Boom/)
  })

  it("JsonLogger replaces Effect's default logger and writes on stderr (console.error)", async () => {
    const written: string[] = []
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void written.push(args.map(String).join(" ")))
    const log = vi.spyOn(console, "log").mockImplementation(() => {})
    await Effect.runPromise(Effect.log("serving").pipe(Effect.annotateLogs({ url: "http://127.0.0.1:1" }), Effect.provide(JsonLogger)))
    await Effect.runPromise(withJsonLogs(Effect.logInfo("again")))
    expect(written.map((l) => JSON.parse(l))).toMatchObject([
      { level: "info", msg: "serving", url: "http://127.0.0.1:1" },
      { level: "info", msg: "again" },
    ])
    // the port-bound line's shape that test/operations/fleet.test.ts reads: msg, then url
    expect(written[0]).toMatch(/"msg":"serving","url":"http:\/\/127\.0\.0\.1:1"/)
    expect(log).not.toHaveBeenCalled()
  })

  it("logLine, outside any Effect, writes the same shape through the same formatter", () => {
    const written: string[] = []
    vi.spyOn(console, "error").mockImplementation((line: unknown) => void written.push(String(line)))
    logLine("warn", "accounts store connection lost", { code: "57P01", error: "terminating connection" })
    expect(JSON.parse(written[0]!)).toEqual({ time: expect.any(String), level: "warn", msg: "accounts store connection lost", code: "57P01", error: "terminating connection" })
    const at = new Date("2026-11-20T12:00:00.000Z")
    expect(formatLine("info", "m", { a: 1 }, at)).toBe('{"time":"2026-11-20T12:00:00.000Z","level":"info","msg":"m","a":1}')
  })

  it("a field that cannot be serialized plainly (a bigint, a cycle, an Error) still makes one valid line", () => {
    const cycle: Record<string, unknown> = { name: "c" }
    cycle.self = cycle
    const line = formatLine("error", "odd fields", { big: 10n, cycle, error: new Error("boom") })
    expect(JSON.parse(line)).toMatchObject({ msg: "odd fields", big: "10n", cycle: { name: "c" }, error: { message: "boom" } })
  })
})
