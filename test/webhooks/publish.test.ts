/**
 * Webhooks from real publishes: two batches built by the pipeline from the small sample (the
 * second with one series' TAC changed), an endpoint made through the running API, and the
 * daemon's webhook push (ops/WebhookPush.ts) after each publish, as ops/main.ts wires it. The
 * receiver verifies every delivery with the `standardwebhooks` library. The same publish handed
 * over twice delivers nothing new; a rollback the ledger records is sent by the push's timer
 * step; `./fds webhooks send` (a child process) sends nothing twice; the public Atom feed lists
 * the events (parsed with fast-xml-parser) and no test event.
 */
import { execFile } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openAccountsDb } from "../../accounts/AccountsDb.ts"
import { insertKey } from "../../accounts/KeyStore.ts"
import { startWebhookPush, type WebhookPush } from "../../ops/WebhookPush.ts"
import type { Published } from "../../pipeline/daemon/Daemon.ts"
import { SqliteLedger } from "../../pipeline/ledger/Ledger.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { envProvider } from "../../pipeline/Settings.ts"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { type AccountsServer, call, startAccountsServer } from "../accounts/support/accountsServer.ts"
import { freePort } from "../support/ports.ts"
import { publishFolder } from "../support/publishFolder.ts"
import { type Receiver, startReceiver } from "./support/receiver.ts"

const root = join(import.meta.dirname, "..", "..")
let work: string
let dataDir: string
let server: AccountsServer
let receiver: Receiver
let push: WebhookPush
let key: string
let first: Published
let second: Published
const SECRET = "a service secret of at least thirty-two bytes"

const publish = (source: string, date: string): Promise<Published> => publishFolder(dataDir, source, date)

/** The October TAC file of `batch` with its first data row's TAC Total raised by 0.25 points, alone in `dir`. */
const writeTacVariant = (batch: string, dir: string): void => {
  mkdirSync(dir, { recursive: true })
  const text = readFileSync(join(batch, "fm_tac_202610.txt")).toString("latin1")
  const line = text.split("\r\n").find((l) => /^\d{8}(\.0)?;/.test(l))!
  const cells = line.split(";")
  const tac = Number(cells[13]!.replace(",", ".")) + 0.25
  cells[13] = tac.toFixed(2).replace(".", cells[13]!.includes(",") ? "," : ".")
  writeFileSync(join(dir, "fm_tac_202610.txt"), Buffer.from(text.replace(line, cells.join(";")), "latin1"))
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-webhooks-publish-"))
  const full = join(work, "full")
  await writeSample({ out: full, scale: "small", seed: 5, endDate: "2026-11-20" })
  const batch = join(work, "batch")
  mkdirSync(batch)
  for (const f of readdirSync(full)) {
    if (f.startsWith("fm_ident2") || f.startsWith("ffmm_todos_2026") || f === "fm_tac_202610.txt") copyFileSync(join(full, f), join(batch, f))
  }
  writeTacVariant(batch, join(work, "second"))
  dataDir = join(work, "data")
  first = await publish(batch, "2026-11-18")

  const db = await openAccountsDb(join(dataDir, "accounts.sqlite"))
  key = (await insertKey(db, { email: "hooks@example.cl", tier: "free" }, Date.now())).key
  await db.destroy()
  const env = { FDS_SECRET: SECRET, FDS_WEBHOOKS_ALLOW_PRIVATE: "1" }
  server = await startAccountsServer({ dataDir, env })
  receiver = await startReceiver()
  push = await startWebhookPush(envProvider({ ...env, FDS_DATA_DIR: dataDir, FDS_PUBLIC_URL: "https://fds.example.cl/" }))
}, 120_000)

afterAll(async () => {
  await push?.close()
  await server?.close()
  await receiver?.close()
  rmSync(work, { recursive: true, force: true })
})

const types = (from = 0) => receiver.requests.slice(from).map((r) => r.body.type)

describe("webhooks after real publishes", () => {
  it("an endpoint made through the API gets batch.published with the real batch id, signed", async () => {
    const created = await call(`${server.url}/api/webhooks`, {
      method: "POST",
      headers: { "x-api-key": key },
      json: { url: receiver.url, events: ["batch.published", "batch.rolled_back", "values.restated", "tac.changed", "source.late"] },
    })
    expect(created.status).toBe(201)
    receiver.secret = (created.body as { secret: string }).secret
    // a test event first: it is not in the feed
    const id = (created.body as { id: string }).id
    expect((await call(`${server.url}/api/webhooks/${id}/test`, { method: "POST", headers: { "x-api-key": key } })).status).toBe(200)

    const fields = await push.afterPublish(first, new AbortController().signal)
    expect(fields).toMatchObject({ webhooks: { delivered: expect.any(Number), retrying: 0, failed: 0 } })
    const published = receiver.delivered().find((r) => r.body.type === "batch.published")!
    const batchId = batchIdOfFile(first.file)
    expect(published.id).toBe(`evt_${batchId}_batch.published`)
    expect(published.body.data).toMatchObject({
      batch_id: batchId,
      batch_date: "2026-11-18",
      content_hash: first.contentHash,
      previous_batch_id: null,
      links: { batch: `https://fds.example.cl/api/batches/${batchId}` },
    })
    // the first batch: nothing to compare with
    expect(types()).not.toContain("tac.changed")
    expect(receiver.requests.every((r) => r.verified)).toBe(true)
  })

  it("the next batch: batch.published and tac.changed with its count and the /api/changes link; handed over again, nothing new", async () => {
    second = await publish(join(work, "second"), "2026-11-19")
    const before = receiver.requests.length
    await push.afterPublish(second, new AbortController().signal)
    expect(types(before)).toContain("batch.published")
    expect(types(before)).toContain("tac.changed")
    const from = batchIdOfFile(first.file)
    const to = batchIdOfFile(second.file)
    const tac = receiver.requests.slice(before).find((r) => r.body.type === "tac.changed")!
    expect(tac.id).toBe(`evt_${to}_tac.changed`)
    expect(tac.body.data).toMatchObject({
      from_batch_id: from,
      to_batch_id: to,
      tac_changed: 1,
      counts_complete: true,
      links: { changes: `https://fds.example.cl/api/changes?from_batch=${from}&to_batch=${to}` },
    })
    // the link answers with the same count on the running API
    const changes = await call(`${server.url}/api/changes?from_batch=${from}&to_batch=${to}`, { headers: { "x-api-key": key } })
    expect(changes.status).toBe(200)
    expect((changes.body as { data: Array<{ type: string }> }).data.filter((i) => i.type === "tac_changed")).toHaveLength(1)

    // a re-run hands the same batch over again: the same event ids, nothing sent twice
    const after = receiver.requests.length
    const again = await push.afterPublish(second, new AbortController().signal)
    expect(again).toMatchObject({ webhooks: { new_events: 0, delivered: 0 } })
    expect(receiver.requests.length).toBe(after)
    const ids = receiver.delivered().map((r) => r.id)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("a rollback the ledger records is sent by the timer's step, once", async () => {
    const ledger = new SqliteLedger(join(dataDir, "ledger.sqlite"))
    try {
      ledger.append({
        type: "BatchRolledBack",
        payload: { batch_date: first.batchDate, file: first.file, content_hash: first.contentHash, from_file: second.file, reason: "test" },
      })
    } finally {
      ledger.close()
    }
    const before = receiver.requests.length
    expect(await push.tick()).toMatchObject({ rollbacks: 1, delivered: 1 })
    expect(await push.tick()).toMatchObject({ rollbacks: 0, delivered: 0 })
    const rolled = receiver.requests.slice(before)
    expect(rolled.map((r) => r.body.type)).toEqual(["batch.rolled_back"])
    expect(rolled[0]!.body.data).toMatchObject({ batch_id: batchIdOfFile(first.file), rolled_back_batch_id: batchIdOfFile(second.file) })
  })

  it("`./fds webhooks send` (the cron setup) finds the current batch's events sent and sends nothing twice", async () => {
    const before = receiver.requests.length
    const run = await promisify(execFile)(process.execPath, [join(root, "ops", "main.ts"), "webhooks", "send"], {
      cwd: root,
      env: { ...process.env, FDS_DATA_DIR: dataDir, FDS_SECRET: SECRET, FDS_WEBHOOKS_ALLOW_PRIVATE: "1" },
      timeout: 60_000,
    })
    const report = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { batch: { events: string[]; new_events: number }; rollbacks: number }
    // CURRENT still names the second batch (the rollback above is the ledger's only): its events, all sent already
    expect(report.batch.events).toEqual(expect.arrayContaining(["batch.published", "tac.changed"]))
    expect(report.batch.new_events).toBe(0)
    expect(report.rollbacks).toBe(0)
    expect(receiver.requests.length).toBe(before)
  })

  it("an accounts store away when the push starts: it starts, each use fails saying so (no password), the runs are not held", async () => {
    const port = await freePort() // nothing listens there
    const away = await startWebhookPush(
      envProvider({ FDS_DATA_DIR: dataDir, FDS_SECRET: SECRET, FDS_ACCOUNTS_URL: `postgres://fds:hunter2@127.0.0.1:${port}/fds` }),
    )
    try {
      const failed = await away.tick().then(
        () => "",
        (e: unknown) => (e as Error).message,
      )
      expect(failed).toContain("the accounts store or its settings cannot be used")
      expect(failed).not.toContain("hunter2")
      await expect(away.afterPublish(second, new AbortController().signal)).rejects.toThrow(/accounts store/)
    } finally {
      await away.close()
    }
  })

  it("the public Atom feed lists the events, newest first, without the test event", async () => {
    const feed = await call(`${server.url}/feeds/events.atom`)
    expect(feed.status).toBe(200)
    expect(feed.headers["content-type"]).toBe("application/atom+xml; charset=utf-8")
    expect(XMLValidator.validate(feed.text)).toBe(true)
    const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "entry" }).parse(feed.text) as {
      feed: { "@_xmlns": string; entry: Array<{ id: string; title: string; updated: string; category: { "@_term": string }; summary: { "#text": string } }> }
    }
    expect(doc.feed["@_xmlns"]).toBe("http://www.w3.org/2005/Atom")
    const entries = doc.feed.entry
    const sent = receiver.delivered().filter((r) => r.body.type !== "webhook.test")
    expect(entries.map((e) => e.id).sort()).toEqual(sent.map((r) => `urn:fds:event:${r.id}`).sort())
    expect(entries.map((e) => e.category["@_term"])).not.toContain("webhook.test")
    expect(entries[0]!.category["@_term"]).toBe("batch.rolled_back")
    const tac = entries.find((e) => e.category["@_term"] === "tac.changed")!
    expect(tac.title).toBe(`1 TACs changed in batch ${batchIdOfFile(second.file)}`)
    expect(JSON.parse(tac.summary["#text"])).toMatchObject({ tac_changed: 1 })
    const updated = entries.map((e) => Date.parse(e.updated))
    expect([...updated].sort((a, b) => b - a)).toEqual(updated)
  })
})
