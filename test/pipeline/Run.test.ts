/**
 * `pipeline run` end to end inside the process: real files, a real ledger, real snapshots, and a
 * real local HTTP server standing in for the CMF. Bad inputs reject the batch and leave CURRENT
 * and the previous snapshot alone.
 */
import Database from "better-sqlite3"
import { Effect } from "effect"
import { appendFileSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runPipelineLive } from "../../pipeline/Pipeline.ts"
import type { RunOutcome } from "../../pipeline/run/Outcome.ts"
import type { RunOptions, Source } from "../../pipeline/RunOptions.ts"
import { sha256 } from "../../pipeline/RawStore.ts"
import { withdrawLive } from "../../pipeline/Withdraw.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { readCurrent } from "../../snapshots/Pointer.ts"
import { captchaSolver } from "../../pipeline/fetch/CaptchaSolver.ts"
import { writeSolver } from "../support/captchaSolver.ts"
import { startCmfServer } from "../support/cmfServer.ts"
import { envProvider, readSettings } from "../../pipeline/Settings.ts"

let work: string
let sampleDir: string
const fast = { timeoutMillis: 2000, retries: 2, retryBaseMillis: 10 }

/** Solves the fake CMF's cartola captcha (the HTTP runs fetch the cartola through its form). */
const solverDir = mkdtempSync(join(tmpdir(), "fds-run-solver-"))
const captcha = readSettings(captchaSolver, envProvider({ FDS_CAPTCHA_COMMAND: writeSolver(solverDir) }))
afterAll(() => rmSync(solverDir, { recursive: true, force: true }))

const options = (dataDir: string, sources: Source[], extra: Partial<RunOptions> = {}): RunOptions => ({
  dataDir,
  sources,
  today: "2026-11-22",
  historyStart: "2018-12-01",
  fetch: fast,
  captcha,
  ...extra,
})
type Outcome =
  | { readonly _tag: "Right"; readonly right: RunOutcome }
  | { readonly _tag: "Left"; readonly left: { readonly reason: string } }
const run = (o: RunOptions): Promise<Outcome> =>
  Effect.runPromise(
    Effect.match(runPipelineLive(o), {
      onSuccess: (right): Outcome => ({ _tag: "Right", right }),
      onFailure: (left): Outcome => ({ _tag: "Left", left }),
    }),
  )
const eventCount = (dataDir: string) =>
  (new Database(join(dataDir, "ledger.sqlite"), { readonly: true }).prepare("SELECT count(*) n FROM events").get() as { n: number }).n
const eventTypes = (dataDir: string) =>
  (
    new Database(join(dataDir, "ledger.sqlite"), { readonly: true })
      .prepare("SELECT type FROM events ORDER BY seq")
      .all() as Array<{ type: string }>
  ).map((r) => r.type)

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-run-"))
  sampleDir = join(work, "sample")
  await writeSample({ out: sampleDir, scale: "small", seed: 3, endDate: "2026-11-20" })
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A copy of the sample with one file changed, for bad-input cases. */
const variantOf = (name: string, change: (dir: string) => void): string => {
  const dir = join(work, name)
  mkdirSync(dir)
  for (const f of readdirSync(sampleDir)) copyFileSync(join(sampleDir, f), join(dir, f))
  change(dir)
  return dir
}
/** Appends to a cartola a copy of its first data row dated `yyyymmdd` (FECHA_INF). */
const appendFirstRowDated = (file: string, yyyymmdd: string) => {
  const cells = readFileSync(file, "latin1").trimEnd().split("\n")[1]!.split(";")
  cells[3] = yyyymmdd
  appendFileSync(file, `${cells.join(";")}\n`, "latin1")
}
const lastCartola = (dir: string) => join(dir, readdirSync(dir).filter((n) => n.startsWith("ffmm_todos_")).sort().at(-1)!)

// Many cases start from the same build of the sample from scratch (a cold build of the whole
// folder): it is built once, and each case gets its own copy of that data folder (ledger, raw
// store, parse cache, snapshots), as a data folder after its first run.
let good: Promise<{ readonly dataDir: string; readonly outcome: Outcome }> | null = null
const goodBuild = () =>
  (good ??= (async () => {
    const dataDir = join(work, "data-good")
    return { dataDir, outcome: await run(options(dataDir, [{ kind: "folder", path: sampleDir }])) }
  })())
/** A copy of the good build's data folder at `data-<name>`. */
const copyOfGood = async (name: string): Promise<string> => {
  const { dataDir: built, outcome } = await goodBuild()
  expect(outcome._tag).toBe("Right")
  const dataDir = join(work, `data-${name}`)
  cpSync(built, dataDir, { recursive: true })
  return dataDir
}

describe("pipeline run from a folder", () => {
  it("publishes, and a second run with the same files appends nothing and publishes nothing new", async () => {
    const first = (await goodBuild()).outcome
    const dataDir = await copyOfGood("folder")
    expect(first._tag).toBe("Right")
    if (first._tag !== "Right" || first.right.outcome !== "published") throw new Error("not published")
    expect(first.right.batchDate).toBe("2026-11-20")
    expect(readCurrent(join(dataDir, "snapshots"))).toBe(first.right.file)
    // the build leaves nothing behind: no temporary database, nor the -wal/-shm a reader of it made
    expect(readdirSync(join(dataDir, "snapshots")).filter((n) => n.startsWith("."))).toEqual([])
    const files = readdirSync(sampleDir).filter((n) => !n.startsWith("."))
    // one RawFileObserved per file, then BatchBuilt and BatchPublished
    expect(eventTypes(dataDir)).toEqual([...files.map(() => "RawFileObserved"), "BatchBuilt", "BatchPublished"])
    // every raw file is stored under its hash
    for (const f of files) {
      const sha = sha256(readFileSync(join(sampleDir, f)))
      expect(existsSync(join(dataDir, "raw", sha.slice(0, 2), sha))).toBe(true)
    }
    const before = eventCount(dataDir)
    const second = await run(options(dataDir, [{ kind: "folder", path: sampleDir }]))
    expect(second._tag === "Right" && second.right.outcome).toBe("unchanged")
    expect(eventCount(dataDir)).toBe(before)
  })

  it("gives the same snapshot file (same content hash) when built twice from scratch", async () => {
    const a = (await goodBuild()).outcome
    const b = await run(options(join(work, "data-b"), [{ kind: "folder", path: sampleDir }]))
    expect(a._tag === "Right" && b._tag === "Right").toBe(true)
    if (a._tag === "Right" && b._tag === "Right") expect(a.right.file).toBe(b.right.file)
  })

  it("--date builds an earlier cutoff without the later rows", async () => {
    const dataDir = join(work, "data-date")
    const r = await run(options(dataDir, [{ kind: "folder", path: sampleDir }], { date: "2026-06-30" }))
    expect(r._tag === "Right" && r.right.batchDate).toBe("2026-06-30")
    const file = readCurrent(join(dataDir, "snapshots"))!
    const db = new Database(join(dataDir, "snapshots", file), { readonly: true })
    expect((db.prepare("SELECT max(date) d FROM quotas").get() as { d: number }).d).toBeLessThanOrEqual(20260630)
  })

  it("--date before the first daily value or after the last is refused (an empty batch, or one dated past its data)", async () => {
    const first = (await goodBuild()).outcome
    const dataDir = await copyOfGood("date-bounds")
    expect(first._tag).toBe("Right")
    const current = readCurrent(join(dataDir, "snapshots"))
    const early = await run(options(dataDir, [{ kind: "folder", path: sampleDir }], { date: "2018-01-01" }))
    expect(early._tag === "Left" && early.left.reason).toMatch(/^--date 2018-01-01 is before the first daily value in the inputs \(2019-01-0\d\)/)
    const late = await run(options(dataDir, [{ kind: "folder", path: sampleDir }], { date: "2026-11-21" }))
    expect(late._tag === "Left" && late.left.reason).toBe(
      "--date 2026-11-21 is after the latest daily value in the inputs (2026-11-20): a batch is dated by its data",
    )
    expect(readCurrent(join(dataDir, "snapshots"))).toBe(current)
  })
})

describe("the same bytes under another name", () => {
  const holdings = (dataDir: string, file: string) => {
    const db = new Database(join(dataDir, "snapshots", file), { readonly: true })
    try {
      return db.prepare("SELECT month, count(*) AS n FROM fm_holdings WHERE market = 'N' GROUP BY month ORDER BY month").all() as Array<{
        month: string
        n: number
      }>
    } finally {
      db.close()
    }
  }

  it("are parsed for that name (a portfolio's month comes from it), never read back from the parse cache under the first", async () => {
    const first = (await goodBuild()).outcome
    const dataDir = await copyOfGood("renamed")
    if (first._tag !== "Right" || first.right.outcome !== "published") throw new Error("not published")
    const before = new Map(holdings(dataDir, first.right.file).map((r) => [r.month, r.n]))
    const october = before.get("2026-10")!
    expect(october).toBeGreaterThan(0)
    expect(before.has("2025-10")).toBe(false)
    // October's national portfolio delivered again as September 2025's (a month the sample lacks)
    const copied = variantOf("renamed-portfolio", (dir) => copyFileSync(join(dir, "ffm_NACI_202610.txt"), join(dir, "ffm_NACI_202510.txt")))
    const second = await run(options(dataDir, [{ kind: "folder", path: copied }]))
    if (second._tag !== "Right" || second.right.outcome !== "published") throw new Error(JSON.stringify(second))
    const after = new Map(holdings(dataDir, second.right.file).map((r) => [r.month, r.n]))
    expect(after.get("2025-10")).toBe(october) // was nothing: the cached records said 2026-10
    expect(after.get("2026-10")).toBe(october) // was doubled
    // the same bytes under a name without a month are refused, as on a fresh data folder
    const unnamed = variantOf("unnamed-portfolio", (dir) => copyFileSync(join(dir, "ffm_NACI_202610.txt"), join(dir, "ffm_NACI.txt")))
    const third = await run(options(dataDir, [{ kind: "folder", path: unnamed }]))
    expect(third._tag).toBe("Left")
    if (third._tag === "Left") expect(third.left.reason).toContain("ffm_NACI.txt")
    expect(readCurrent(join(dataDir, "snapshots"))).toBe(second.right.file)
  })
})

describe("bad input rejects the batch and keeps the previous snapshot", () => {
  // The good batch each case starts from is the shared good build (goodBuild), copied.
  const rejectsKeepingPrevious = async (dir: string, expected: RegExp) => {
    const dataDir = await copyOfGood(dir.split("/").at(-1)!)
    expect(eventTypes(dataDir).at(-1)).toBe("BatchPublished")
    const current = readCurrent(join(dataDir, "snapshots"))
    const bad = await run(options(dataDir, [{ kind: "folder", path: dir }]))
    expect(bad._tag).toBe("Left")
    if (bad._tag === "Left") expect(bad.left.reason).toMatch(expected)
    expect(readCurrent(join(dataDir, "snapshots"))).toBe(current)
    expect(eventTypes(dataDir).at(-1)).toBe("BatchRejected")
    return dataDir
  }

  it("a malformed row: names the data set, file, line and field", async () => {
    const dir = variantOf("bad-row", (d) => {
      const f = lastCartola(d)
      const lines = readFileSync(f, "latin1").split("\n")
      const cells = lines[3]!.split(";")
      cells[12] = "12a.5" // VALOR_CUOTA
      lines[3] = cells.join(";")
      writeFileSync(f, lines.join("\n"), "latin1")
    })
    const name = lastCartola(dir).split("/").at(-1)!
    const sha = sha256(readFileSync(lastCartola(dir))).slice(0, 12)
    // with what to do: the file stays an input until replaced under its name, or withdrawn
    const dataDir = await rejectsKeepingPrevious(
      dir,
      new RegExp(
        `cartola_diaria ${name} line 4 field VALOR_CUOTA: .*\\(raw ${sha}: a corrected file for the same cartola_diaria key from_20261101 replaces it; ` +
          `\`\\./fds pipeline withdraw --sha ${sha}\` takes it out of the inputs\\)$`,
      ),
    )
    // the good file delivered again is the current one again: the batch is no longer rejected
    const again = await run(options(dataDir, [{ kind: "folder", path: sampleDir }]))
    expect(again._tag).toBe("Right")
    expect(eventTypes(dataDir)).toContain("RawFileReinstated")
  })

  it("a file whose content gives no key: the message says no corrected file replaces it, withdraw does", async () => {
    const dir = variantOf("bad-indicator", (d) => {
      const f = join(d, "cmf_dolar_2026.json")
      writeFileSync(f, readFileSync(f).subarray(0, 5000))
    })
    const sha = sha256(readFileSync(join(dir, "cmf_dolar_2026.json"))).slice(0, 12)
    await rejectsKeepingPrevious(
      dir,
      new RegExp(`cmf_dolar_2026\\.json.*\\(raw ${sha}: its content gives no key, so no corrected file replaces it; \`\\./fds pipeline withdraw --sha ${sha}\``),
    )
  })

  it("an empty file is said to be empty", async () => {
    const dir = variantOf("bad-empty", (d) => writeFileSync(join(d, "ffmm_todos_20261001_20261031.txt"), ""))
    await rejectsKeepingPrevious(dir, /ffmm_todos_20261001_20261031\.txt is empty \(stored as raw e3b0c44298fc\); remove it from the source/)
  })

  it("a file that matches no data set: named, and still stored raw for inspection", async () => {
    const dir = variantOf("bad-unknown", (d) => writeFileSync(join(d, "notes.txt"), "hello;world\n1;2\n"))
    const dataDir = await rejectsKeepingPrevious(dir, /notes\.txt matches no CMF data set we read \(stored as raw [0-9a-f]{12}\); remove it from the source/)
    const sha = sha256(Buffer.from("hello;world\n1;2\n"))
    expect(existsSync(join(dataDir, "raw", sha.slice(0, 2), sha))).toBe(true)
  })

  it("a truncated file", async () => {
    const dir = variantOf("bad-truncated", (d) => {
      const f = lastCartola(d)
      const text = readFileSync(f, "latin1")
      writeFileSync(f, text.slice(0, Math.floor(text.length / 2)), "latin1")
    })
    await rejectsKeepingPrevious(dir, /line \d+/)
  })

  /** Rewrites cell `col` of data line `line` (1-based, after the header) of the newest cartola. */
  const withCell = (name: string, line: number, col: number, value: string) =>
    variantOf(name, (d) => {
      const f = lastCartola(d)
      const lines = readFileSync(f, "latin1").split("\n")
      const cells = lines[line]!.split(";")
      cells[col] = value
      lines[line] = cells.join(";")
      writeFileSync(f, lines.join("\n"), "latin1")
    })

  it.each([
    ["bad-date", 3, "20261131", /line 4 field FECHA_INF/], // 31 November does not exist
    ["bad-zero-price", 12, "0", /line 4 field VALOR_CUOTA/],
    ["bad-negative-price", 12, "-5.1", /line 4 field VALOR_CUOTA/],
    ["bad-number", 13, "1.2.3", /line 4 field PATRIMONIO_NETO/],
  ] as const)("a bad cell (%s) names its line and field", async (name, col, value, expected) => {
    await rejectsKeepingPrevious(withCell(name, 3, col, value), expected)
  })

  it("a wrong column count", async () => {
    const dir = variantOf("bad-columns", (d) => {
      const f = lastCartola(d)
      const lines = readFileSync(f, "latin1").split("\n")
      lines[5] = lines[5]!.split(";").slice(0, 20).join(";")
      writeFileSync(f, lines.join("\n"), "latin1")
    })
    await rejectsKeepingPrevious(dir, /line 6/)
  })

  it("a wrong header: the file is not recognised, and is named", async () => {
    const dir = variantOf("bad-header", (d) => {
      const f = lastCartola(d)
      writeFileSync(f, readFileSync(f, "latin1").replace("VALOR_CUOTA", "VALOR CUOTA"), "latin1")
    })
    await rejectsKeepingPrevious(dir, /ffmm_todos_20261101_20261120\.txt matches no CMF data set/)
  })

  it("a wrong encoding (UTF-16): not recognised, named", async () => {
    const dir = variantOf("bad-encoding", (d) => {
      const f = lastCartola(d)
      writeFileSync(f, Buffer.from(readFileSync(f, "latin1"), "utf16le"))
    })
    await rejectsKeepingPrevious(dir, /matches no CMF data set/)
  })

  it("the same series and date with different values in two files: both places named", async () => {
    const dir = variantOf("bad-conflict", (d) => {
      const f = lastCartola(d)
      const lines = readFileSync(f, "latin1").trimEnd().split("\n")
      const cells = lines[1]!.split(";")
      cells[12] = String(Number(cells[12]) + 1)
      writeFileSync(join(d, "correction.txt"), [lines[0], cells.join(";")].join("\n") + "\n", "latin1")
    })
    const dataDir = await rejectsKeepingPrevious(dir, /conflicts with ffmm_todos_20261101_20261120\.txt line 2|correction\.txt line 2/)
    // no later delivery supersedes a file named by its own content: the good files alone are still rejected…
    expect((await run(options(dataDir, [{ kind: "folder", path: sampleDir }])))._tag).toBe("Left")
    // …until the operator withdraws it; the raw bytes stay stored, and the same file dropped again is an input again
    const correction = readFileSync(join(dir, "correction.txt"))
    const withdrawn = await Effect.runPromise(withdrawLive(dataDir, sha256(correction).slice(0, 12), "a wrong correction"))
    expect(withdrawn.name).toBe("correction.txt")
    expect((await run(options(dataDir, [{ kind: "folder", path: sampleDir }])))._tag).toBe("Right")
    expect(existsSync(join(dataDir, "raw", sha256(correction).slice(0, 2), sha256(correction)))).toBe(true)
    expect((await run(options(dataDir, [{ kind: "folder", path: dir }])))._tag).toBe("Left")
    expect(eventTypes(dataDir)).toEqual(expect.arrayContaining(["RawFileWithdrawn", "RawFileReinstated"]))
  })

  it("a later delivery holding fewer days would move CURRENT back in time: refused, naming the file", async () => {
    const dir = variantOf("shorter-month", (d) => {
      const f = lastCartola(d)
      const lines = readFileSync(f, "latin1").trimEnd().split("\n")
      writeFileSync(f, `${[lines[0], ...lines.slice(1).filter((l) => l.split(";")[3] !== "20261120")].join("\n")}\n`, "latin1")
    })
    const name = lastCartola(dir).split("/").at(-1)!
    const dataDir = await rejectsKeepingPrevious(dir, new RegExp(`now end on 2026-11-19, before the published batch 2026-11-20 \\(changed since it was built: ${name}\\)`))
    // asked for on purpose, the earlier day is built
    expect((await run(options(dataDir, [{ kind: "folder", path: dir }], { date: "2026-11-19" })))._tag).toBe("Right")
  })

  it("a date in the future: names the file and the field", async () => {
    const dir = variantOf("bad-future", (d) => {
      const f = lastCartola(d)
      appendFirstRowDated(f, "20261130")
      // the month's file as CMF would name it through the 30th (a row outside its name's dates is refused on its own)
      renameSync(f, f.replace(/_\d{8}\.txt$/, "_20261130.txt"))
    })
    const name = lastCartola(dir).split("/").at(-1)!
    expect(name).toBe("ffmm_todos_20261101_20261130.txt")
    await rejectsKeepingPrevious(dir, new RegExp(`cartola_diaria ${name} field FECHA_INF: daily values dated 2026-11-30, after today \\(2026-11-22\\)`))
  })

  it("a row dated outside its file's name: names the file, line and field", async () => {
    const dir = variantOf("bad-outside", (d) => appendFirstRowDated(lastCartola(d), "20181215"))
    const name = lastCartola(dir).split("/").at(-1)!
    await rejectsKeepingPrevious(dir, new RegExp(`cartola_diaria ${name} line \\d+ field FECHA_INF: 20181215 is outside the dates the file's name gives`))
  })
})

describe("pipeline run over HTTP from a local CMF stand-in", () => {
  it("fetches the registry, the cartola month by month, portfolios, TAC workbooks and FI lists; same data as the folder", async () => {
    const cmf = await startCmfServer(sampleDir)
    try {
      const viaHttp = await run(options(join(work, "data-http"), [{ kind: "http", baseUrl: cmf.url }], { date: "2026-11-20" }))
      // Over HTTP: the registry, the cartola, 12 months of portfolios and the FI lists; compare
      // with a folder of just those files.
      const fmOnly = join(work, "fm-only")
      mkdirSync(fmOnly)
      const fetchable = (n: string) =>
        n === "fm_ident2.txt" ||
        n.startsWith("ffmm_todos_") ||
        n.startsWith("fi_consulta_") ||
        /^ffm_(NACI|EXTR)_2025(1[12])|^ffm_(NACI|EXTR)_2026(0\d|10)/.test(n) ||
        /^fm_tac_2025(1[12])|^fm_tac_2026(0\d|10)/.test(n)
      for (const f of readdirSync(sampleDir).filter(fetchable)) copyFileSync(join(sampleDir, f), join(fmOnly, f))
      const viaFolder = await run(options(join(work, "data-folder2"), [{ kind: "folder", path: fmOnly }]))
      expect(viaHttp._tag === "Right" && viaFolder._tag === "Right").toBe(true)
      if (viaHttp._tag !== "Right" || viaFolder._tag !== "Right") return
      // The HTTP files are keyed by month like the sample's: same rows, so the same content hash.
      expect(viaHttp.right.file).toBe(viaFolder.right.file)
      const months = cmf.requests.filter((r) => r.path.endsWith("cfm_download.php"))
      // 2018-12 .. 2026-11 inclusive = 1 + 12*7 + 11 = 96 months
      expect(months.length).toBe(96)
      expect(months[0]!.form).toMatchObject({ txt_inicio: "01/12/2018", txt_termino: "31/12/2018", ffmm: "%" })
      // Through the captcha form: one image solved for the run, its code on every download.
      expect(cmf.captchas()).toBe(1)
      expect(new Set(months.map((m) => m.form.captcha)).size).toBe(1)
      expect(months[0]!.form.captcha).toMatch(/^[0-9A-F]{6}$/)
      // 12 closed months (2025-11 .. 2026-10) × NACI and EXTR
      const portfolios = cmf.requests.filter((r) => r.path.endsWith("ffm_download.php"))
      expect(portfolios.length).toBe(24)
      expect(portfolios[0]!.form).toMatchObject({ aa: "2025", mm: "11", cartera: "NACI" })
      // the TAC workbook of the same 12 closed months, in the session of its form page (XLS, read as such)
      const tac = cmf.requests.filter((r) => r.path.endsWith("fmdfm_excel2.php"))
      expect(tac.map((r) => `${r.form.anno2}-${r.form.mes2}`)).toEqual(portfolios.filter((r) => r.form.cartera === "NACI").map((r) => `${r.form.aa}-${r.form.mm}`))
      expect(cmf.requests.filter((r) => r.path.endsWith("fmdfm_consulta1.php"))).toHaveLength(1)
      // A second run fetches the registry and only the month that was not whole.
      cmf.requests.length = 0
      await run(options(join(work, "data-http"), [{ kind: "http", baseUrl: cmf.url }], { date: "2026-11-20" }))
      // (again: the FI lists, which change as funds open and close; no past month of portfolios)
      const captchaForm = /fondos_cartola_diaria\.php$|captcha\.php$|fm\.fm_bpr_dia\.php$/
      expect(cmf.requests.filter((r) => !captchaForm.test(r.path)).map((r) => r.form.txt_inicio ?? r.form.entidad ?? r.form.cartera ?? "registry")).toEqual([
        "registry",
        "01/11/2026",
        "FIRES",
        "FIRES",
        "FINRE",
        "FINRE",
      ])

    } finally {
      await cmf.close()
    }
  })

  it.each([
    ["500", /HTTP 500/],
    ["html", /HTML page/],
    ["hang", /timed out|request failed/],
  ] as const)("a source answering %s rejects the batch after retries; the previous snapshot stays", async (kind, expected) => {
    const cmf = await startCmfServer(sampleDir)
    try {
      const good = (await goodBuild()).outcome
      const dataDir = await copyOfGood(`fault-${kind}`)
      expect(good._tag).toBe("Right")
      const current = readCurrent(join(dataDir, "snapshots"))
      cmf.fault = { path: "fm_ident2.php", kind, times: 100 }
      const bad = await run(options(dataDir, [{ kind: "http", baseUrl: cmf.url }], { fetch: { ...fast, timeoutMillis: 300 } }))
      expect(bad._tag).toBe("Left")
      if (bad._tag === "Left") expect(bad.left.reason).toMatch(expected)
      expect(readCurrent(join(dataDir, "snapshots"))).toBe(current)
      if (kind !== "html") expect(cmf.requests.length).toBe(1 + fast.retries) // retried, then gave up
    } finally {
      await cmf.close()
    }
  })

  it("a closed month that was rejected is fetched again on the next run, not taken as final", async () => {
    const closed = readdirSync(sampleDir).filter((n) => n.startsWith("ffmm_todos_")).sort().at(-2)!
    const dir = variantOf("bad-closed-month", (d) => {
      const f = join(d, closed)
      const lines = readFileSync(f, "latin1").split("\n")
      const cells = lines[3]!.split(";")
      cells[12] = "12a.5" // VALOR_CUOTA
      lines[3] = cells.join(";")
      writeFileSync(f, lines.join("\n"), "latin1")
    })
    const bad = await startCmfServer(dir)
    const good = await startCmfServer(sampleDir)
    const dataDir = join(work, "data-refetch-closed")
    try {
      const first = await run(options(dataDir, [{ kind: "http", baseUrl: bad.url }], { date: "2026-11-20" }))
      expect(first._tag).toBe("Left")
      if (first._tag === "Left") expect(first.left.reason).toContain(`${closed} line 4 field VALOR_CUOTA`)
      const second = await run(options(dataDir, [{ kind: "http", baseUrl: good.url }], { date: "2026-11-20" }))
      expect(second._tag).toBe("Right")
    } finally {
      await bad.close()
      await good.close()
    }
  })

  it("a source answering garbage bytes with 200 rejects the batch by content, naming the URL; no retry; the previous snapshot stays", async () => {
    const cmf = await startCmfServer(sampleDir)
    try {
      const good = (await goodBuild()).outcome
      const dataDir = await copyOfGood("fault-garbage")
      expect(good._tag).toBe("Right")
      const current = readCurrent(join(dataDir, "snapshots"))
      cmf.fault = { path: "cfm_download.php", kind: "garbage", times: 100 }
      const bad = await run(options(dataDir, [{ kind: "http", baseUrl: cmf.url }], { date: "2026-11-20" }))
      expect(bad._tag).toBe("Left")
      if (bad._tag === "Left") expect(bad.left.reason).toMatch(/cfm_download\.php\?2018-12-01\.\.2018-12-31 matches no CMF data set we read \(stored as raw [0-9a-f]{12}\)/)
      expect(cmf.requests.filter((r) => r.path.endsWith("cfm_download.php"))).toHaveLength(1) // a 200 is not retried
      expect(readCurrent(join(dataDir, "snapshots"))).toBe(current)
      expect(eventTypes(dataDir).at(-1)).toBe("BatchRejected")
    } finally {
      await cmf.close()
    }
  })
})
