/**
 * The alert mails after a publish, end to end: two snapshots built by the pipeline from a small
 * sample (the second with one series' TAC changed in the TAC file), users signed in and set up
 * through the real API (SQLite accounts store), mails to a real SMTP server (smtp-server), the
 * daemon's afterPublish hook and `alerts send` as a child process. The one-click link of a mail is
 * POSTed to the running API.
 */
import Database from "better-sqlite3"
import { spawn } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Published } from "../../pipeline/daemon/Daemon.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { alertsAfterPublish, sendAlerts } from "../../ops/SendAlerts.ts"
import { type AccountsServer, call, startAccountsServer } from "../accounts/support/accountsServer.ts"
import { type SentMail, type SmtpSink, startSmtpSink } from "../accounts/support/mail.ts"
import { publishFolder } from "../support/publishFolder.ts"
import { signIn } from "../accounts/support/session.ts"
import { writeSolver } from "../support/captchaSolver.ts"
import { logChildOutput } from "../support/testLog.ts"
import { type CmfServer, startCmfServer } from "../support/cmfServer.ts"
import { waitFor } from "../support/server.ts"
import { root } from "./support/ops.ts"
import { envProvider } from "../../pipeline/Settings.ts"

const MAIL_FROM = "Fund Data Service <alerts@fds.test>"

/** Bytes of quoted-printable text (`_` is a space in an RFC 2047 Q word). */
const qp = (s: string, word = false): Buffer =>
  Buffer.from(
    (word ? s.replace(/_/g, " ") : s.replace(/=\r?\n/g, "")).replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    "latin1",
  )

/** A header value with its RFC 2047 encoded words decoded (the space between two words dropped). */
const decodeWords = (value: string): string =>
  value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      (enc.toUpperCase() === "Q" ? qp(text, true) : Buffer.from(text, "base64")).toString("utf8"),
    )

/** A raw mail's headers (unfolded, decoded, names lower-cased) and its text body decoded as UTF-8. */
const parseMail = (raw: string): { headers: Map<string, string>; text: string } => {
  const split = raw.search(/\r?\n\r?\n/)
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ")
  const headers = new Map<string, string>()
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(":")
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), decodeWords(line.slice(colon + 1).trim()))
  }
  const body = raw.slice(split).trim()
  const encoding = headers.get("content-transfer-encoding")?.toLowerCase()
  const text =
    encoding === "quoted-printable"
      ? qp(body).toString("utf8")
      : encoding === "base64"
        ? Buffer.from(body, "base64").toString("utf8")
        : body
  return { headers, text }
}

/** The TAC file's first two data rows (one fund's two series): fund name, serie label, TAC Total %. */
const tacRows = (file: string): Array<{ line: string; fund: string; serie: string; tac: number }> =>
  Buffer.from(readFileSync(file))
    .toString("latin1")
    .split("\r\n")
    .filter((l) => /^\d{8}(\.0)?;/.test(l))
    .slice(0, 2)
    .map((line) => {
      const cells = line.split(";")
      return { line, fund: cells[2]!, serie: cells[5]!, tac: Number(cells[13]!.replace(",", ".")) }
    })

/** A folder holding the batch's October TAC file with some rows' TAC Total replaced. */
const writeTacVariant = (dir: string, changes: ReadonlyArray<{ readonly line: string; readonly tac: number }>): void => {
  mkdirSync(dir, { recursive: true })
  let text = readFileSync(join(batch, "fm_tac_202610.txt")).toString("latin1")
  for (const c of changes) {
    const cells = c.line.split(";")
    cells[13] = c.tac.toFixed(2).replace(".", cells[13]!.includes(",") ? "," : ".")
    text = text.replace(c.line, cells.join(";"))
  }
  writeFileSync(join(dir, "fm_tac_202610.txt"), Buffer.from(text, "latin1"))
}

const runCli = (args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, "ops", "main.ts"), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    })
    logChildOutput(child, `${args.slice(0, 2).join(" ")} (pid ${child.pid})`)
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()))
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })

let work: string
let dataDir: string
let batch: string
let second: string
let server: AccountsServer
let smtp: SmtpSink
let env: Record<string, string>
let first: Published
/** Watched series: X's TAC changes in the second batch, Y's does not. */
let X: { id: string; fund: string; serie: string; tac: number }
let Y: { id: string; fund: string; serie: string; tac: number }
const cookies = new Map<string, string>()

const publish = (source: string, date: string): Promise<Published> => publishFolder(dataDir, source, date)

const as = (email: string, method: string, path: string, json?: unknown) =>
  call(server.url + path, { method, headers: { cookie: `fds_session=${cookies.get(email)}`, origin: server.url }, ...(json === undefined ? {} : { json }) })

const mailsTo = (to: string): SentMail[] => smtp.mails.filter((m) => m.to === to)

let solveCommand = ""
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-alerts-"))
  solveCommand = writeSolver(work)
  const full = join(work, "full")
  await writeSample({ out: full, scale: "small", seed: 5, endDate: "2026-11-20" })
  // The first batch: the registry, this year's daily values and October's TAC.
  batch = join(work, "batch")
  mkdirSync(batch)
  for (const f of readdirSync(full)) {
    if (f.startsWith("fm_ident2") || f.startsWith("ffmm_todos_2026") || f === "fm_tac_202610.txt") copyFileSync(join(full, f), join(batch, f))
  }
  // The second batch: October's TAC file again, with the first series' TAC Total raised by 0.25 points.
  const [x, y] = tacRows(join(batch, "fm_tac_202610.txt"))
  second = join(work, "second")
  writeTacVariant(second, [{ line: x!.line, tac: x!.tac + 0.25 }])

  dataDir = join(work, "data")
  first = await publish(batch, "2026-11-18")
  const db = new Database(join(dataDir, "snapshots", first.file), { readonly: true })
  const idOf = (row: { fund: string; serie: string; tac: number }) => {
    const found = db
      .prepare(
        `SELECT s.asset_id, t.tac FROM series s JOIN funds f ON f.concept_id = s.concept_id
         JOIN tac t ON t.asset_id = s.asset_id AND t.month = '2026-10' WHERE f.name = ? AND s.serie = ?`,
      )
      .get(row.fund, row.serie) as { asset_id: number; tac: number }
    expect(found.tac).toBeCloseTo(row.tac / 100, 10)
    return { ...row, id: String(found.asset_id) }
  }
  X = idOf(x!)
  Y = idOf(y!)
  db.close()
  expect(X.tac).not.toBe(Y.tac)

  server = await startAccountsServer({ dataDir })
  smtp = await startSmtpSink()
  env = { FDS_DATA_DIR: dataDir, FDS_SMTP_URL: smtp.url, FDS_PUBLIC_URL: server.url, FDS_MAIL_FROM: MAIL_FROM }
  // alice: both mails, watches X and Y; bob: TAC alerts, watches Y only; carol: monthly summary only, watches X.
  const setup = { "alice@example.cl": [true, true, [X, Y]], "bob@example.cl": [true, false, [Y]], "carol@example.cl": [false, true, [X]] } as const
  for (const [email, [alerts, monthly, watched]] of Object.entries(setup)) {
    cookies.set(email, await signIn(server.url, dataDir, email))
    for (const s of watched) expect((await as(email, "POST", "/api/me/watchlist", { serie_id: s.id })).status).toBe(200)
    const prefs = await as(email, "PATCH", "/api/me/alerts", { email_opt_in_alerts: alerts, email_opt_in_monthly_summary: monthly })
    expect(prefs.body).toEqual({ email_opt_in_alerts: alerts, email_opt_in_monthly_summary: monthly })
  }
}, 120_000)

afterAll(async () => {
  await server?.close()
  await smtp?.close()
  rmSync(work, { recursive: true, force: true })
})

describe("alert mails after a publish", () => {
  it("the first batch of a month: no TAC mail (nothing published before), the monthly summary to the opted-in", async () => {
    const fields = await alertsAfterPublish(envProvider(env))(first, new AbortController().signal)
    expect(fields).toEqual({
      alert_mails: { tac_changes: { skipped: "no batch was published before this one" }, monthly_summary: { sent: 2, failed: 0 } },
    })
    expect(smtp.mails.map((m) => m.to).sort()).toEqual(["alice@example.cl", "carol@example.cl"])
    const alice = parseMail(mailsTo("alice@example.cl")[0]!.raw)
    expect(alice.headers.get("subject")).toBe("Your watchlist in October 2026")
    expect(alice.headers.get("from")).toBe(MAIL_FROM)
    expect(alice.headers.get("list-unsubscribe")).toMatch(new RegExp(`^<${server.url}/api/alerts/unsubscribe/one-click\\?token=[^>]+>$`))
    expect(alice.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click")
    for (const s of [X, Y]) {
      const line = alice.text.split("\n").find((l) => l.includes(`(serie_id ${s.id})`))
      expect(line, alice.text).toContain(`${s.fund} — serie ${s.serie}`)
      expect(line).toMatch(/value [\d.]+ CLP on 2026-10-\d\d, month return [+-]?\d+\.\d\d %/)
      expect(line).toContain(`TAC ${s.tac.toFixed(2)} % (October 2026)`)
    }
    const carol = parseMail(mailsTo("carol@example.cl")[0]!.raw)
    expect(carol.text).toContain(`(serie_id ${X.id})`)
    expect(carol.text).not.toContain(`(serie_id ${Y.id})`)
  })

  it("the second batch: one TAC mail to the opted-in watcher of the changed series, with old and new TAC; no second summary", async () => {
    const published = await publish(second, "2026-11-19")
    const before = smtp.mails.length
    const fields = await alertsAfterPublish(envProvider(env))(published, new AbortController().signal)
    expect(fields).toEqual({
      alert_mails: {
        tac_changes: { sent: 1, failed: 0 },
        monthly_summary: { skipped: "already sent for 2026-11 with the batch of 2026-11-18" },
      },
    })
    const sent = smtp.mails.slice(before)
    expect(sent.map((m) => m.to)).toEqual(["alice@example.cl"])
    const mail = parseMail(sent[0]!.raw)
    expect(mail.headers.get("subject")).toBe(`TAC changed: ${X.fund} — serie ${X.serie}`)
    expect(mail.text).toContain(
      `- ${X.fund} — serie ${X.serie} (serie_id ${X.id}): ${X.tac.toFixed(2)} % (October 2026) → ${(X.tac + 0.25).toFixed(2)} % (October 2026)`,
    )
    expect(mail.text).toContain("published with the data of 2026-11-18")
    expect(mail.text).not.toContain(`serie_id ${Y.id}`)
    expect(mail.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click")

    // Again for the same batch (a re-run, another replica): nothing.
    const again = await alertsAfterPublish(envProvider(env))(published, new AbortController().signal)
    expect(again).toEqual({
      alert_mails: {
        tac_changes: { sent: 0, failed: 0 },
        monthly_summary: { skipped: "already sent for 2026-11 with the batch of 2026-11-18" },
      },
    })
    const cli = await runCli(["alerts", "send", "--batch", "2026-11-19"], env)
    expect(cli.code, cli.stderr).toBe(0)
    expect(cli.stdout).toContain(`alert mails of the batch of 2026-11-19 (${published.file})`)
    expect(cli.stdout).toContain("TAC changes: 0 sent")
    const current = await runCli(["alerts", "send"], env)
    expect(current.code, current.stderr).toBe(0)
    expect(current.stdout).toContain("TAC changes: 0 sent")
    const firstAgain = await runCli(["alerts", "send", "--batch", "2026-11-18"], env)
    expect(firstAgain.code, firstAgain.stderr).toBe(0)
    expect(firstAgain.stdout).toContain("monthly summary: 0 sent")
    expect(smtp.mails.length).toBe(before + 1)
    expect((await runCli(["alerts", "send", "--batch", "2026-11-17"], env)).code).toBe(1)
    expect((await runCli(["alerts", "send", "--batch", "yesterday"], env)).code).toBe(2)
  })

  it("the List-Unsubscribe link unsubscribes by one-click POST to the API, from that kind of mail only", async () => {
    const tacMail = parseMail(mailsTo("alice@example.cl").at(-1)!.raw)
    const link = tacMail.headers.get("list-unsubscribe")!.slice(1, -1)
    const res = await call(link, { method: "POST", form: { "List-Unsubscribe": "One-Click" }, headers: { origin: "https://mail.provider.example" } })
    expect(res.status, res.text).toBe(204)
    expect((await as("alice@example.cl", "GET", "/api/me")).body).toMatchObject({ email_opt_in_alerts: false, email_opt_in_monthly_summary: true })
    const summary = parseMail(mailsTo("carol@example.cl")[0]!.raw)
    const off = await call(summary.headers.get("list-unsubscribe")!.slice(1, -1), { method: "POST", form: { "List-Unsubscribe": "One-Click" } })
    expect(off.status).toBe(204)
    expect((await as("carol@example.cl", "GET", "/api/me")).body).toMatchObject({ email_opt_in_alerts: false, email_opt_in_monthly_summary: false })
  })

  it("`./fds pipeline daemon` (ops/main.ts) sends them after each publish", async () => {
    // Y's TAC changes in the inbox (X's as before); the rest comes from a CMF stand-in serving the same sample.
    const [x, y] = tacRows(join(batch, "fm_tac_202610.txt"))
    const inbox = join(work, "inbox")
    writeTacVariant(inbox, [{ line: x!.line, tac: x!.tac + 0.25 }, { line: y!.line, tac: y!.tac + 0.5 }])
    const cmf: CmfServer = await startCmfServer(join(work, "full"))
    const before = smtp.mails.length
    const lines: Array<Record<string, unknown>> = []
    const child = spawn(process.execPath, [join(root, "ops", "main.ts"), "pipeline", "daemon"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        ...env,
        FDS_CMF_BASE_URL: cmf.url,
        FDS_CAPTCHA_COMMAND: solveCommand,
        FDS_INBOX_DIR: inbox,
        FDS_HISTORY_START: "2026-10-01",
        FDS_PIPELINE_CRON: "* * * * * *",
        FDS_FETCH_RETRIES: "0",
        FDS_PIPELINE_RETRIES: "0",
      },
    })
    logChildOutput(child, `pipeline daemon (pid ${child.pid})`)
    let buffer = ""
    child.stdout!.on("data", (c: Buffer) => {
      buffer += c.toString()
      const parts = buffer.split("\n")
      buffer = parts.pop()!
      for (const p of parts) if (p.trim() !== "") lines.push(JSON.parse(p) as Record<string, unknown>)
    })
    let stderr = ""
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()))
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    try {
      const done = () =>
        lines.find((l) => l.msg === "after publish finished" || l.msg === "after publish failed" || (l.msg === "run finished" && l.outcome !== "published"))
      expect(await waitFor(async () => done() !== undefined, 60_000, 50), `${JSON.stringify(lines)}\n${stderr.slice(-2000)}`).toBe(true)
      expect(done()).toMatchObject({
        level: "info",
        batch_date: "2026-11-20",
        alert_mails: { tac_changes: { sent: 1, failed: 0 }, monthly_summary: { skipped: "already sent for 2026-11 with the batch of 2026-11-18" } },
      })
    } finally {
      child.kill("SIGTERM")
      expect(await exited).toBe(0)
      await cmf.close()
    }
    // alice unsubscribed from TAC alerts; bob watches Y.
    const sent = smtp.mails.slice(before)
    expect(sent.map((m) => m.to)).toEqual(["bob@example.cl"])
    expect(parseMail(sent[0]!.raw).text).toContain(`(serie_id ${Y.id}): ${Y.tac.toFixed(2)} % (October 2026) → ${(Y.tac + 0.5).toFixed(2)} % (October 2026)`)
  }, 120_000)

  it("a mail the SMTP server refused is given back and sent by a later `alerts send`, once", async () => {
    // dave opts in after November's summary went out: a later call for that batch owes him his.
    cookies.set("dave@example.cl", await signIn(server.url, dataDir, "dave@example.cl"))
    expect((await as("dave@example.cl", "POST", "/api/me/watchlist", { serie_id: X.id })).status).toBe(200)
    expect((await as("dave@example.cl", "PATCH", "/api/me/alerts", { email_opt_in_monthly_summary: true })).status).toBe(200)
    const before = smtp.mails.length
    const down = await sendAlerts(envProvider({ ...env, FDS_SMTP_URL: "smtp://127.0.0.1:1" }), { date: "2026-11-18" })
    expect(down.report.monthlySummary).toMatchObject({ sent: 0, failed: 1, skipped: null })
    expect(down.report.monthlySummary.errors[0]).toMatch(/^dave@example\.cl: /)
    expect(smtp.mails.length).toBe(before)
    const up = await sendAlerts(envProvider(env), { date: "2026-11-18" })
    expect(up.report.monthlySummary).toEqual({ sent: 1, failed: 0, errors: [], skipped: null })
    expect((await sendAlerts(envProvider(env), { date: "2026-11-18" })).report.monthlySummary.sent).toBe(0)
    expect(smtp.mails.slice(before).map((m) => m.to)).toEqual(["dave@example.cl"])
    expect(parseMail(smtp.mails.at(-1)!.raw).headers.get("subject")).toBe("Your watchlist in October 2026")
  })
})
