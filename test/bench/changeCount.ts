/**
 * The change count of a webhook's values.restated and tac.changed events (ops/ChangeCounts.ts) at
 * the scale of a given batch: the batch's snapshot against a copy of it with RESTATED daily values
 * restated (their price moved by 1 %) and TACS TAC rows changed (+0.01), with no manifest beside
 * the copy, so that nothing is skipped as identical: the whole /api/changes feed between them is
 * read, the worst case. The counts must be exactly those made (checked); the time of each of
 * ROUNDS counts is printed with the median. batch.published does not wait for this count.
 *
 *   node test/bench/changeCount.ts <data dir>/snapshots/<batch>.sqlite [rounds]
 */
import { copyFileSync, linkSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import Database from "better-sqlite3"
import { countChanges } from "../../ops/ChangeCounts.ts"

const RESTATED = 100
const TACS = 10

export const benchChangeCount = (snapshot: string, rounds: number): Record<string, unknown> => {
  const dir = mkdtempSync(join(tmpdir(), "fds-bench-change-count-"))
  try {
    const from = basename(snapshot)
    const to = from.replace(/^(\d{4}-\d{2}-\d{2})-[0-9a-f]+\.sqlite$/, "$1-0000000000000000.sqlite")
    linkSync(snapshot, join(dir, from))
    copyFileSync(snapshot, join(dir, to))
    const db = new Database(join(dir, to))
    const quotas = db.prepare("SELECT count(*) FROM quotas").pluck().get() as number
    const tacs = db.prepare("SELECT count(*) FROM tac").pluck().get() as number
    // every n-th row in key order (the tables are WITHOUT ROWID)
    const every = (table: string, key: string, rows: number, n: number) =>
      db
        .prepare(`SELECT ${key} FROM (SELECT ${key}, row_number() OVER (ORDER BY ${key}) AS n FROM ${table}) WHERE n % ${Math.floor(rows / n)} = 0 LIMIT ${n}`)
        .raw(true)
        .all() as Array<[number, number | string]>
    const restate = db.prepare("UPDATE quotas SET price = price * 1.01 WHERE asset_id = ? AND date = ?")
    const retac = db.prepare("UPDATE tac SET tac = tac + 0.01 WHERE asset_id = ? AND month = ?")
    db.transaction(() => {
      for (const [asset, date] of every("quotas", "asset_id, date", quotas, RESTATED)) restate.run(asset, date)
      for (const [asset, month] of every("tac", "asset_id, month", tacs, TACS)) retac.run(asset, month)
    })()
    db.close()
    const ms: number[] = []
    let counts = countChanges(dir, from, to, 600_000)
    for (let i = 0; i < rounds; i++) {
      const began = performance.now()
      counts = countChanges(dir, from, to, 600_000)
      ms.push(performance.now() - began)
    }
    if (counts.valuesRestated !== RESTATED || counts.tacChanged !== TACS || !counts.complete) {
      throw new Error(`expected ${RESTATED} values restated and ${TACS} TACs changed, counted ${JSON.stringify(counts)}`)
    }
    const sorted = [...ms].sort((a, b) => a - b)
    const result = {
      snapshot: from,
      quota_rows: quotas,
      tac_rows: tacs,
      values_restated: counts.valuesRestated,
      tac_changed: counts.tacChanged,
      rounds,
      count_ms: sorted.map((x) => Math.round(x)),
      median_ms: Math.round(sorted[Math.floor(sorted.length / 2)]!),
    }
    console.log(JSON.stringify(result, null, 2))
    return result
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const [snapshot, rounds] = process.argv.slice(2)
  if (snapshot === undefined) throw new Error("usage: node test/bench/changeCount.ts <snapshot.sqlite> [rounds]")
  benchChangeCount(snapshot, Number(rounds ?? 3))
}
