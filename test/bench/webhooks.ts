/**
 * The webhooks part of `make bench`: delivery latency from publish to receipt. The small sample's
 * registry and 2026 daily values with October's TAC file are published BENCH_WEBHOOK_PUBLISHES
 * times (default 20), each with one series' TAC changed again (so each run publishes a new batch),
 * by the real pipeline; after each, the daemon's webhook push (ops/WebhookPush.ts, as ops/main.ts
 * wires it) writes and sends its events to a receiver on loopback that verifies each signature
 * with the `standardwebhooks` library. Measured: from the moment the run returned "published"
 * (CURRENT names the batch) to the receipt of batch.published, and of tac.changed (which waits for
 * the change count against the batch before). The SQLite accounts store.
 * Run alone: `node test/bench/webhooks.ts`, or `BENCH_ONLY=webhooks node test/bench/main.ts`. With
 * BENCH_WEBHOOK_DATA_DIR, at the scale of the batch published there instead (benchWebhooksAt).
 */
import { execFileSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { openAccountsDb } from "../../accounts/AccountsDb.ts"
import { sealSecret, newWebhookSecret } from "../../accounts/WebhookSecret.ts"
import { insertEndpoint } from "../../accounts/WebhookStore.ts"
import { startWebhookPush } from "../../ops/WebhookPush.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { envProvider } from "../../pipeline/Settings.ts"
import { serviceSecret } from "../../accounts/ServiceSecret.ts"
import { Option, Redacted } from "effect"
import { publishFolder } from "../support/publishFolder.ts"
import { startReceiver } from "../webhooks/support/receiver.ts"

const SECRET = "a bench service secret of at least thirty-two bytes"

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  const round = (x: number) => Number(x.toFixed(1))
  return { n: sorted.length, median_ms: round(at(0.5)), p90_ms: round(at(0.9)), max_ms: round(sorted[sorted.length - 1]!), min_ms: round(sorted[0]!) }
}

/**
 * At the scale of a batch already published in BENCH_WEBHOOK_DATA_DIR (e.g. the full-size
 * sample's): its data folder linked file by file into a scratch one (`cp -al`; the accounts store
 * is the scratch folder's own), an endpoint made, and the daemon's push run for that batch as just
 * published, BENCH_WEBHOOK_ROUNDS times (each round a new event id: the batch id is the event's,
 * so the events of earlier rounds are deleted first). Measured: from the push's start to the
 * receipt of batch.published. The batch being the folder's first, no change count runs; its cost
 * at that scale is test/bench/changeCount.ts's.
 */
const benchWebhooksAt = async (source: string): Promise<Record<string, unknown>> => {
  const rounds = Number(process.env.BENCH_WEBHOOK_ROUNDS ?? 5)
  const work = mkdtempSync(join(tmpdir(), "fds-bench-webhooks-at-"))
  const receiver = await startReceiver()
  try {
    const dataDir = join(work, "data")
    execFileSync("cp", ["-al", source, dataDir])
    for (const f of readdirSync(dataDir)) if (f.startsWith("accounts.sqlite")) rmSync(join(dataDir, f))
    const snapshots = join(dataDir, "snapshots")
    const file = readFileSync(join(snapshots, "CURRENT"), "utf8").trim()
    const manifest = JSON.parse(readFileSync(join(snapshots, file.replace(/\.sqlite$/, ".manifest.json")), "utf8")) as { batch_date: string; content_hash: string }
    const published = {
      outcome: "published",
      batchDate: manifest.batch_date,
      file,
      contentHash: manifest.content_hash,
      rowCounts: {},
      fiUnavailable: null,
      sources: [],
      waiting: [],
    } as const
    const db = await openAccountsDb(join(dataDir, "accounts.sqlite"))
    const secret = newWebhookSecret()
    receiver.secret = secret
    const key = await Effect.runPromise(serviceSecret(Option.some(Redacted.make(SECRET)), dataDir))
    await insertEndpoint(db, { id: "whk_00000000000000bf", keyId: 1, url: receiver.url, events: ["batch.published"], sealed: sealSecret(key, "whk_00000000000000bf", secret) }, Date.now())
    const push = await startWebhookPush(envProvider({ FDS_DATA_DIR: dataDir, FDS_SECRET: SECRET, FDS_WEBHOOKS_ALLOW_PRIVATE: "1" }))
    const ms: number[] = []
    try {
      for (let i = 0; i < rounds; i++) {
        await db.deleteFrom("webhook_deliveries").execute()
        await db.deleteFrom("webhook_events").execute()
        const before = receiver.requests.length
        const at = performance.timeOrigin + performance.now()
        await push.afterPublish(published, new AbortController().signal)
        const got = receiver.requests.slice(before).find((r) => r.body.type === "batch.published" && r.verified && r.status === 200)
        if (got === undefined) throw new Error(`round ${i}: batch.published not received`)
        ms.push(got.atMs - at)
      }
    } finally {
      await push.close()
      await db.destroy()
    }
    const result = { data_dir: source, batch: file, rounds, batch_published: stats(ms) }
    console.log(JSON.stringify(result, null, 2))
    return result
  } finally {
    await receiver.close()
    rmSync(work, { recursive: true, force: true })
  }
}

export const benchWebhooks = async (): Promise<Record<string, unknown>> => {
  const at = process.env.BENCH_WEBHOOK_DATA_DIR
  if (at !== undefined && at !== "") return benchWebhooksAt(at)
  const publishes = Number(process.env.BENCH_WEBHOOK_PUBLISHES ?? 20)
  const work = mkdtempSync(join(tmpdir(), "fds-bench-webhooks-"))
  const receiver = await startReceiver()
  try {
    const full = join(work, "full")
    await writeSample({ out: full, scale: "small", seed: 5, endDate: "2026-11-20" })
    const source = join(work, "source")
    mkdirSync(source)
    for (const f of readdirSync(full)) {
      if (f.startsWith("fm_ident2") || f.startsWith("ffmm_todos_2026") || f === "fm_tac_202610.txt") copyFileSync(join(full, f), join(source, f))
    }
    const tacFile = join(source, "fm_tac_202610.txt")
    const original = readFileSync(tacFile).toString("latin1")
    const line = original.split("\r\n").find((l) => /^\d{8}(\.0)?;/.test(l))!
    const dataDir = join(work, "data")
    const publish = async (i: number) => {
      if (i > 0) {
        const cells = line.split(";")
        const tac = Number(cells[13]!.replace(",", ".")) + 0.01 * i
        cells[13] = tac.toFixed(2).replace(".", cells[13]!.includes(",") ? "," : ".")
        writeFileSync(tacFile, Buffer.from(original.replace(line, cells.join(";")), "latin1"))
      }
      return publishFolder(dataDir, source, "2026-11-20")
    }
    // the first batch, then an endpoint for every type (as POST /api/webhooks makes it)
    const firstBatch = await publish(0)
    const db = await openAccountsDb(join(dataDir, "accounts.sqlite"))
    const secret = newWebhookSecret()
    receiver.secret = secret
    const key = await Effect.runPromise(serviceSecret(Option.some(Redacted.make(SECRET)), dataDir))
    await insertEndpoint(
      db,
      { id: "whk_00000000000000be", keyId: 1, url: receiver.url, events: ["batch.published", "tac.changed", "values.restated"], sealed: sealSecret(key, "whk_00000000000000be", secret) },
      Date.now(),
    )
    await db.destroy()
    const push = await startWebhookPush(envProvider({ FDS_DATA_DIR: dataDir, FDS_SECRET: SECRET, FDS_WEBHOOKS_ALLOW_PRIVATE: "1" }))
    await push.afterPublish(firstBatch, new AbortController().signal)
    const published: number[] = []
    const tac: number[] = []
    const runMs: number[] = []
    try {
      for (let i = 1; i <= publishes; i++) {
        const began = performance.now()
        const outcome = await publish(i)
        const at = performance.timeOrigin + performance.now()
        runMs.push(performance.now() - began)
        const before = receiver.requests.length
        await push.afterPublish(outcome, new AbortController().signal)
        const got = receiver.requests.slice(before)
        const of = (type: string) => got.find((r) => r.body.type === type && r.verified && r.status === 200)
        const p = of("batch.published")
        const t = of("tac.changed")
        if (p === undefined || t === undefined) throw new Error(`publish ${i}: got ${got.map((r) => r.body.type).join(", ")}`)
        published.push(p.atMs - at)
        tac.push(t.atMs - at)
      }
    } finally {
      await push.close()
    }
    const result = {
      publishes,
      batch_published: stats(published),
      tac_changed: stats(tac),
      pipeline_run: stats(runMs),
    }
    console.log(JSON.stringify(result, null, 2))
    return result
  } finally {
    await receiver.close()
    rmSync(work, { recursive: true, force: true })
  }
}

if (import.meta.main) await benchWebhooks()
