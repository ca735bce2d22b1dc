/**
 * The ceiling of the quota table's load on this machine, for `make bench`'s pipeline part: what a
 * plain loader does with the same sample's cartolas and nothing else — no validation of the other
 * cells, no repeated-row check, no other data set, no raw store, ledger, hash or checks. Each file
 * read and decoded as latin-1; each line scanned with `indexOf` for the 6 fields a quota row needs
 * (RUN_FM, FECHA_INF, SERIE, VALOR_CUOTA, PATRIMONIO_NETO, NUM_PARTICIPES); rows put in (series,
 * date) order by a sort of row indices; inserted 100 rows per statement into a WITHOUT ROWID table
 * with no journal, in one transaction. As `../shared/research/pipeline-limits.md` measured it
 * ("indexOf + counting sort + 100-row INSERT"), here on the bench's own sample, in its own run.
 *
 *   node test/bench/pipelineCeiling.ts SAMPLE_DIR OUT.sqlite   # prints one JSON line
 */
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"

const [sample, out] = process.argv.slice(2) as [string, string]
const started = performance.now()
const latin1 = new TextDecoder("latin1")

// the cartola's columns (0-based) a quota row needs
const RUN = 2
const DATE = 3
const SERIE = 8
const PRICE = 12
const PATRIMONY = 13
const HOLDERS = 14
const LAST = HOLDERS

let capacity = 1 << 20
let n = 0
let series = new Int32Array(capacity)
let dates = new Int32Array(capacity)
let prices = new Float64Array(capacity)
let patrimony = new Float64Array(capacity)
let holders = new Float64Array(capacity)
const grow = () => {
  capacity *= 2
  const more = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
    const b = make(capacity)
    b.set(a)
    return b
  }
  series = more(series, (c) => new Int32Array(c))
  dates = more(dates, (c) => new Int32Array(c))
  prices = more(prices, (c) => new Float64Array(c))
  patrimony = more(patrimony, (c) => new Float64Array(c))
  holders = more(holders, (c) => new Float64Array(c))
}
const ids = new Map<string, number>()
const num = (s: string): number => (s === "" ? Number.NaN : Number(s.includes(",") ? s.replace(",", ".") : s))

const files = readdirSync(sample)
  .filter((f) => /^ffmm_todos_\d{8}_\d{8}\.txt$/.test(f))
  .sort()
let bytes = 0
for (const file of files) {
  const raw = readFileSync(join(sample, file))
  bytes += raw.length
  const text = latin1.decode(raw)
  let start = text.indexOf("\n") + 1 // the header
  while (start < text.length) {
    let end = text.indexOf("\n", start)
    if (end === -1) end = text.length
    const fields: string[] = []
    let at = start
    for (let f = 0; f <= LAST; f++) {
      const next = text.indexOf(";", at)
      const stop = next === -1 || next > end ? end : next
      fields.push(text.slice(at, stop))
      at = stop + 1
    }
    start = end + 1
    if (fields.length <= LAST || fields[PRICE] === "") continue
    const key = `${fields[RUN]}|${fields[SERIE]}`
    let id = ids.get(key)
    if (id === undefined) {
      id = ids.size
      ids.set(key, id)
    }
    if (n === capacity) grow()
    series[n] = id
    dates[n] = Number(fields[DATE])
    prices[n] = num(fields[PRICE]!)
    patrimony[n] = num(fields[PATRIMONY]!)
    holders[n] = num(fields[HOLDERS]!)
    n++
  }
}
const parsedAt = performance.now()

// (series, date) order: a counting sort by series keeps each series' rows in file order, which is
// date order (the files by their date range, each file's rows by date); a row repeated across
// files is ignored by the insert
const counts = new Int32Array(ids.size + 1)
for (let i = 0; i < n; i++) counts[series[i]! + 1]!++
for (let s = 0; s < ids.size; s++) counts[s + 1]! += counts[s]!
const order = new Int32Array(n)
for (let i = 0; i < n; i++) order[counts[series[i]!]!++] = i
const sortedAt = performance.now()

rmSync(out, { force: true })
const db = new Database(out)
db.unsafeMode(true)
db.pragma("journal_mode = OFF")
db.pragma("synchronous = OFF")
db.exec(
  "CREATE TABLE quotas (asset_id INTEGER NOT NULL, date INTEGER NOT NULL, price REAL NOT NULL, patrimony REAL, holders INTEGER, PRIMARY KEY (asset_id, date)) WITHOUT ROWID",
)
const ROWS = 100
const many = db.prepare(`INSERT OR IGNORE INTO quotas VALUES ${Array.from({ length: ROWS }, () => "(?,?,?,?,?)").join(",")}`)
const one = db.prepare("INSERT OR IGNORE INTO quotas VALUES (?,?,?,?,?)")
const value = (x: number) => (Number.isNaN(x) ? null : x)
db.exec("BEGIN")
const args: Array<number | null> = []
for (let k = 0; k < n; k++) {
  const i = order[k]!
  args.push(series[i]!, dates[i]!, prices[i]!, value(patrimony[i]!), value(holders[i]!))
  if (args.length === ROWS * 5) {
    many.run(args)
    args.length = 0
  }
}
for (let j = 0; j < args.length; j += 5) one.run(args.slice(j, j + 5))
db.exec("COMMIT")
db.close()
const insertedAt = performance.now()
console.log(
  JSON.stringify({
    files: files.length,
    bytes,
    rows: n,
    series: ids.size,
    parse_ms: Math.round(parsedAt - started),
    sort_ms: Math.round(sortedAt - parsedAt),
    insert_ms: Math.round(insertedAt - sortedAt),
    total_ms: Math.round(insertedAt - started),
  }),
)
rmSync(out, { force: true })
