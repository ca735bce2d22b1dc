/**
 * The webhook push's timer (ops/WebhookPush.ts) on a data folder of its own, the SQLite accounts
 * store and the real API server: what a poll does when nothing is there to do, and that it still
 * writes and sends what it must. With no ledger and no endpoint its polls create no ledger, read
 * no rollback and run no round of sends; a rollback recorded while no endpoint exists is written
 * as an event (the public feed lists it) and read once, not at every poll; an endpoint made
 * afterwards does not get it (its event was written before the endpoint existed); a rollback
 * recorded after the endpoint exists reaches it at the timer's next poll; a restarted push reads
 * the last day's rollbacks again and sends nothing twice. What the ticks did is counted by the
 * push (`work()`), the rest is observed in the ledger file, the store, the feed and the receiver.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openAccountsDb } from "../../accounts/AccountsDb.ts"
import { insertKey } from "../../accounts/KeyStore.ts"
import { startWebhookPush, type WebhookPush } from "../../ops/WebhookPush.ts"
import { SqliteLedger } from "../../pipeline/ledger/Ledger.ts"
import { envProvider } from "../../pipeline/Settings.ts"
import { type AccountsServer, call, startAccountsServer } from "../accounts/support/accountsServer.ts"
import { type Receiver, startReceiver } from "./support/receiver.ts"

const SECRET = "a service secret of at least thirty-two bytes"
const FIRST = "2026-11-18-00000000000000aa"
const SECOND = "2026-11-19-00000000000000bb"
const THIRD = "2026-11-20-00000000000000cc"

let work: string
let dataDir: string
let ledgerPath: string
let server: AccountsServer
let receiver: Receiver
let key: string
const pushes = new Set<WebhookPush>()
const warnings: string[] = []

const newPush = async (pollMs = 100): Promise<WebhookPush> => {
  const push = await startWebhookPush(
    envProvider({
      FDS_DATA_DIR: dataDir,
      FDS_SECRET: SECRET,
      FDS_WEBHOOKS_ALLOW_PRIVATE: "1",
      FDS_PUBLIC_URL: "https://fds.example.cl/",
      FDS_WEBHOOKS_POLL_MS: String(pollMs),
    }),
  )
  pushes.add(push)
  return push
}

const startTimer = (push: WebhookPush) =>
  push.start((level, msg, fields) => {
    if (level !== "info") warnings.push(`${msg} ${JSON.stringify(fields)}`)
  })

const until = async (what: string, done: () => boolean, timeoutMs = 10_000): Promise<void> => {
  const end = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** `pipeline rollback`'s ledger event: CURRENT back on `to`, leaving `from`. */
const recordRollback = (to: string, from: string): void => {
  const ledger = new SqliteLedger(ledgerPath)
  try {
    ledger.append({
      type: "BatchRolledBack",
      payload: { batch_date: to.slice(0, 10), file: `${to}.sqlite`, content_hash: "0".repeat(64), from_file: `${from}.sqlite`, reason: "test" },
    })
  } finally {
    ledger.close()
  }
}

const feedTitles = async (): Promise<string[]> => {
  const feed = await call(`${server.url}/feeds/events.atom`)
  expect(feed.status).toBe(200)
  return [...feed.text.matchAll(/<title[^>]*>([^<]*)<\/title>/g)].map((m) => m[1]!)
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-webhooks-timer-"))
  dataDir = join(work, "data")
  ledgerPath = join(dataDir, "ledger.sqlite")
  mkdirSync(dataDir)
  const db = await openAccountsDb(join(dataDir, "accounts.sqlite"))
  key = (await insertKey(db, { email: "timer@example.cl", tier: "free" }, Date.now())).key
  await db.destroy()
  server = await startAccountsServer({ dataDir, env: { FDS_SECRET: SECRET, FDS_WEBHOOKS_ALLOW_PRIVATE: "1" } })
  receiver = await startReceiver()
}, 60_000)

afterAll(async () => {
  for (const push of pushes) await push.close()
  await server?.close()
  await receiver?.close()
  rmSync(work, { recursive: true, force: true })
})

describe("the webhook push's timer", () => {
  let push: WebhookPush

  it("no ledger and no endpoint: its polls create no ledger, read no rollback and run no round of sends", async () => {
    push = await newPush()
    startTimer(push)
    await until("three polls", () => push.work().ticks >= 3)
    expect(existsSync(ledgerPath)).toBe(false)
    expect(push.work()).toMatchObject({ rollbacksRead: 0, sendRounds: 0 })
    expect(warnings).toEqual([])
  })

  it("a rollback while no endpoint exists: written as an event (the feed lists it), read once, nothing sent", async () => {
    recordRollback(FIRST, SECOND)
    // the poll after the next one starts when one that began after the rollback has ended
    const ticks = push.work().ticks
    await until("a whole poll after the rollback", () => push.work().ticks >= ticks + 2)
    expect(push.work().rollbacksRead).toBe(1)
    expect(await feedTitles()).toContain(`Rolled back to batch ${FIRST}`)
    // more polls: the rollback is not read again, and nothing is due to send
    await until("three more polls", () => push.work().ticks >= ticks + 4)
    expect(push.work()).toMatchObject({ rollbacksRead: 1, sendRounds: 0 })
    expect(warnings).toEqual([])
  })

  it("an endpoint made afterwards does not get it; a rollback after it exists reaches it at the next poll", async () => {
    const created = await call(`${server.url}/api/webhooks`, {
      method: "POST",
      headers: { "x-api-key": key },
      json: { url: receiver.url, events: ["batch.rolled_back"] },
    })
    expect(created.status).toBe(201)
    receiver.secret = (created.body as { secret: string }).secret
    const ticks = push.work().ticks
    await until("three polls with the endpoint", () => push.work().ticks >= ticks + 4)
    expect(receiver.requests).toEqual([])
    expect(push.work()).toMatchObject({ rollbacksRead: 1, sendRounds: 0 })

    recordRollback(SECOND, THIRD)
    await until("the second rollback delivered", () => receiver.delivered().length === 1)
    const sent = receiver.delivered()[0]!
    expect(sent.body.type).toBe("batch.rolled_back")
    expect(sent.body.data).toMatchObject({ batch_id: SECOND, rolled_back_batch_id: THIRD })
    expect(push.work().rollbacksRead).toBe(2)
    expect(push.work().sendRounds).toBeGreaterThanOrEqual(1)
    // delivered: the polls after it run no round of sends again
    const after = push.work()
    await until("three more polls", () => push.work().ticks >= after.ticks + 4)
    expect(push.work()).toMatchObject({ rollbacksRead: 2, sendRounds: after.sendRounds })
    expect(receiver.requests).toHaveLength(1)
    expect(warnings).toEqual([])
  })

  it("a restarted push reads the last day's rollbacks again and sends nothing twice", async () => {
    pushes.delete(push)
    await push.close()
    const restarted = await newPush()
    expect(await restarted.tick()).toEqual({ rollbacks: 0, delivered: 0, retrying: 0, failed: 0 })
    expect(restarted.work()).toMatchObject({ rollbacksRead: 2, sendRounds: 0 })
    expect(receiver.requests).toHaveLength(1)
  })
})
