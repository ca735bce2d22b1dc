/** Pipeline command line: `sample`, `pipeline run|reproduce|rollback|withdraw|daemon`. Run through ./fds. */
import { Effect } from "effect"
import { existsSync, statSync } from "node:fs"
import { isIsoDate } from "../schemas/Dates.ts"
import { daemonCommand } from "./daemon/DaemonCommand.ts"
import { dataDir, runOptions, santiagoToday } from "./daemon/RunConfig.ts"
import { lockedMessage, type RunLocked, withRunLock } from "./daemon/RunLock.ts"
import { runPipelineLive, withoutFi } from "./Pipeline.ts"
import type { RunOptions } from "./RunOptions.ts"
import { terminalOrLogProgress } from "./Progress.ts"
import { reproduceLive } from "./Reproduce.ts"
import { rollbackCommand } from "./Rollback.ts"
import { businessDayBefore } from "./sample/Calendar.ts"
import { writeSample } from "./sample/Sample.ts"
import { argsOrExit, usageExit } from "./CliArgs.ts"
import { statusCommand } from "./StatusCommand.ts"
import { withdrawLive } from "./Withdraw.ts"
import { failureText } from "./Failure.ts"
import { printableName } from "./cmf/PrintableName.ts"
import { withJsonLogs } from "../snapshots/Log.ts"
import { readSettings } from "./Settings.ts"

const fail = usageExit
/** `--end previous-business-day`: the last business day before today. */
const PREVIOUS_BUSINESS_DAY = "previous-business-day"

const sample = async (args: string[]) => {
  const { values } = argsOrExit({
    args,
    options: {
      out: { type: "string" },
      scale: { type: "string", default: "small" },
      seed: { type: "string", default: "42" },
      end: { type: "string", default: "2026-11-20" },
    },
  })
  if (values.out === undefined) fail("sample needs --out DIR")
  if (values.scale !== "small" && values.scale !== "full") fail("--scale must be small or full")
  const seed = Number(values.seed)
  if (!Number.isInteger(seed)) fail("--seed must be an integer")
  // `make run`'s demo: the sample ends where today's batch would (America/Santiago, the sample's calendar)
  const end = values.end === PREVIOUS_BUSINESS_DAY ? businessDayBefore(santiagoToday()) : values.end
  if (!isIsoDate(end)) fail(`--end must be a date YYYY-MM-DD or ${PREVIOUS_BUSINESS_DAY}`)
  const started = performance.now()
  const result = await writeSample({
    out: values.out!,
    scale: values.scale as "small" | "full",
    seed,
    endDate: end,
  })
  console.error(
    `sample: ${result.files.length} files, ${result.rows} rows up to ${end} in ${((performance.now() - started) / 1000).toFixed(1)} s → ${values.out}`,
  )
}

const run = async (args: string[]) => {
  const { values } = argsOrExit({ args, options: { source: { type: "string" }, date: { type: "string" } } })
  if (values.date !== undefined && !isIsoDate(values.date)) fail("--date must be a real date YYYY-MM-DD")
  // a folder that is not there is a bad argument (exit 2), not a rejected batch
  if (values.source !== undefined && /^https?:\/\//u.test(values.source) && !URL.canParse(values.source)) {
    fail(`--source ${values.source}: not a URL (give a folder of CMF files or an http(s) URL)`)
  }
  if (values.source !== undefined && !/^https?:\/\//u.test(values.source) && !statSync(values.source, { throwIfNoEntry: false })?.isDirectory()) {
    const what = existsSync(values.source) ? "not a folder" : "no such folder"
    fail(`--source ${values.source}: ${what} (give a folder of CMF files or an http(s) URL)`)
  }
  const started = performance.now()
  let options: RunOptions
  try {
    options = readSettings(runOptions({ source: values.source, date: values.date, progress: terminalOrLogProgress() }))
  } catch (e) {
    return fail((e as Error).message)
  }
  const exit = await Effect.runPromiseExit(withJsonLogs(withRunLock(options.dataDir, runPipelineLive(options))))
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  if (exit._tag === "Success") {
    const r = exit.value
    if (r.outcome === "published" && r.fiUnavailable !== null) console.error(`fds: warning: ${withoutFi(r.fiUnavailable)}`)
    for (const w of r.waiting) console.error(`fds: warning: ${w.dataSet} waits for a drop: ${w.why}`)
    console.log(
      r.outcome === "published"
        ? `published ${r.batchDate}: ${r.file} (${Object.entries(r.rowCounts).map(([t, n]) => `${t} ${n}`).join(", ")}) in ${seconds} s`
        : r.note !== undefined
          ? `unchanged: ${r.note}`
          : `unchanged: ${r.batchDate} is already published as ${r.file}`,
    )
    return
  }
  const cause = exit.cause
  const rejected = cause.reasons.find((r) => r._tag === "Fail")
  if (rejected?._tag === "Fail" && (rejected.error as { _tag: string })._tag === "RunLocked") {
    console.error(`fds: ${lockedMessage(rejected.error as RunLocked)}`)
    process.exit(3)
  }
  if (rejected !== undefined && rejected._tag === "Fail") {
    const { reason, kind } = rejected.error as { reason: string; kind?: string }
    // as STATUS.json says: a refused content is a rejection, a source or build failure a failure
    console.error(`${kind === undefined || kind === "content" ? "batch rejected" : "batch failed"}: ${reason}`)
    console.error("CURRENT was not changed; the previous snapshot keeps serving.")
    process.exit(1)
  }
  console.error(`pipeline failed: ${failureText(cause)}`)
  process.exit(1)
}

const reproduceCommand = async (args: string[]) => {
  const { values } = argsOrExit({
    args,
    options: { date: { type: "string" }, file: { type: "string" }, restore: { type: "boolean", default: false } },
  })
  if (values.date === undefined || !isIsoDate(values.date)) fail("reproduce needs --date YYYY-MM-DD")
  const exit = await Effect.runPromiseExit(
    withJsonLogs(reproduceLive(readSettings(dataDir), values.date!, { restore: values.restore, file: values.file })),
  )
  if (exit._tag === "Failure") {
    const failure = exit.cause.reasons.find((r) => r._tag === "Fail")
    console.error(`reproduce failed: ${failure?._tag === "Fail" ? (failure.error as { reason: string }).reason : String(exit.cause)}`)
    process.exit(1)
  }
  const r = exit.value
  const altered =
    r.onDisk.state === "altered"
      ? r.restored
        ? `; the file on disk had been altered (content hash ${r.onDisk.hash}) and was replaced by the rebuilt one`
        : `; but the file on disk, ${r.file}, has content hash ${r.onDisk.hash}: it was altered since it was published (--restore replaces it)`
      : ""
  const line =
    r.outcome === "match"
      ? `match: ${r.batchDate} rebuilt from the ledger and raw store has content hash ${r.actualHash}${r.restored && r.onDisk.state === "absent" ? ` (restored ${r.file})` : ""}${altered}`
      : r.outcome === "version_differs"
        ? `version differs: ${r.batchDate} was built by pipeline ${r.builtWith}, this is ${r.reproducedWith}; hash ${r.actualHash} ≠ ${r.expectedHash}`
        : `hash differs: ${r.batchDate} rebuilt as ${r.actualHash}, published as ${r.expectedHash}`
  console.log(line)
  process.exit(r.outcome === "match" && (r.onDisk.state !== "altered" || r.restored) ? 0 : 1)
}

const withdrawCommand = async (args: string[]) => {
  const { values } = argsOrExit({ args, options: { sha: { type: "string" }, reason: { type: "string" } } })
  if (values.sha === undefined) fail("withdraw needs --sha HEX (12+ characters of the file's SHA-256)")
  const exit = await Effect.runPromiseExit(withJsonLogs(withdrawLive(readSettings(dataDir), values.sha!, values.reason ?? null)))
  if (exit._tag === "Success") {
    const f = exit.value
    console.log(
      `withdrawn: ${printableName(f.name)} (${f.data_set}, sha ${f.sha256.slice(0, 12)}); the next run builds without it ` +
        "(remove it from the inbox too: a file delivered again is an input again)",
    )
    return
  }
  const failure = exit.cause.reasons.find((r) => r._tag === "Fail")
  const error = failure?._tag === "Fail" ? (failure.error as { _tag: string; reason?: string; exitCode?: number }) : undefined
  if (error?._tag === "RunLocked") {
    console.error(`fds: ${lockedMessage(error as unknown as RunLocked)}`)
    process.exit(3)
  }
  console.error(`fds: withdraw: ${error?.reason ?? String(exit.cause)}`)
  process.exit(error?.exitCode ?? 1)
}

const [command, sub, ...rest] = process.argv.slice(2)
if (command === "sample") await sample([sub ?? "", ...rest].filter((a) => a !== ""))
else if (command === "pipeline" && sub === "run") await run(rest)
else if (command === "pipeline" && sub === "reproduce") await reproduceCommand(rest)
else if (command === "pipeline" && sub === "rollback") await rollbackCommand(rest)
else if (command === "pipeline" && sub === "withdraw") await withdrawCommand(rest)
else if (command === "pipeline" && sub === "daemon") daemonCommand()
else if (command === "pipeline" && sub === "status") statusCommand()
else fail(`unknown command: ${[command, sub].filter(Boolean).join(" ")}`)
