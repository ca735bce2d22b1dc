/**
 * Benchmark prices: one market-data CSV per symbol, `Date,Open,High,Low,Close,Volume`, ISO dates,
 * `.` decimals, one row per trading day. The CSV does not name its symbol: it comes from the file
 * name, `<SYMBOL>.csv` or `benchmark_<SYMBOL>.csv` (a name without one rejects the file).
 */
import { Effect, Result, SchemaParser } from "effect"
import { cmfRow, expectedOf, issueColumn } from "../../cmf/CmfCells.ts"
import { CmfFileInvalid, cmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import { isHeader } from "../../cmf/CmfTable.ts"
import { decodeCmfText } from "../../cmf/CmfText.ts"
import type { DataSetSource } from "../DataSet.ts"
import { DateIso, dotNumber, PositiveDotDecimal, SYMBOL, WholeVolume } from "./MarketCells.ts"
import type { Parsed } from "../Parsed.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"

/* Parsed benchmark prices (data set `benchmark_prices`): raw daily prices of one symbol in its native currency. */

/** One trading day of one symbol. */
export interface BenchmarkPriceRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** From the file's name (`VOO.csv`, `benchmark_VOO.csv`), upper case. */
  readonly symbol: string
  /** YYYY-MM-DD */
  readonly date: string
  readonly open: number
  readonly high: number
  readonly low: number
  /** Always > 0. */
  readonly close: number
  readonly volume: number
}

export const BENCHMARK_PRICES_COLUMNS = ["Date", "Open", "High", "Low", "Close", "Volume"] as const

const cells = [DateIso, PositiveDotDecimal, PositiveDotDecimal, PositiveDotDecimal, PositiveDotDecimal, WholeVolume] as const

type Draft = { -readonly [K in keyof BenchmarkPriceRecord]: BenchmarkPriceRecord[K] }

const decodeRow = SchemaParser.decodeUnknownResult(
  cmfRow(cells, (c): Draft => ({
    line: 0,
    symbol: "",
    date: c[0],
    open: dotNumber(c[1])!,
    high: dotNumber(c[2])!,
    low: dotNumber(c[3])!,
    close: dotNumber(c[4])!,
    volume: Number(c[5])
  }))
)

/** The symbol a file name announces (`VOO.csv`, `benchmark_VOO.csv`, any folder), upper case; null if none. */
export const symbolOfFileName = (name: string): string | null => {
  const base = name.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1)
  const m = /^(.+)\.csv$/i.exec(base.startsWith("benchmark_") ? base.slice("benchmark_".length) : base)
  const symbol = m?.[1]?.toUpperCase()
  return symbol !== undefined && SYMBOL.test(symbol) ? symbol : null
}

// Yahoo-style downloads write a day without trades as "null" in every value column.
const isNullRow = (cells: ReadonlyArray<string>): boolean => cells.slice(1).every((c) => c === "null")

/** The whole file, read synchronously (shared by `parse` and `key`). */
export const readBenchmarkPrices = (bytes: Uint8Array, file: string): Parsed<BenchmarkPriceRecord> | CmfFileInvalid => {
  const problem = (line: number, field: string, detail: string) =>
    cmfFileInvalid({ dataSet: "benchmark_prices", file, line, field, detail })
  const symbol = symbolOfFileName(file)
  if (symbol === null) {
    return problem(0, "SYMBOL", `a price CSV names no symbol: the file must be named <SYMBOL>.csv or benchmark_<SYMBOL>.csv`)
  }
  const rows = uniqueRows<BenchmarkPriceRecord>({
    dataSet: "benchmark_prices",
    file,
    keyOf: (r) => `Date ${r.date}`,
    compared: [["open", "Open"], ["high", "High"], ["low", "Low"], ["close", "Close"], ["volume", "Volume"]]
  })
  const lines = decodeCmfText(bytes).split(/\r?\n/)
  let headerSeen = false
  let nullRowsSkipped = 0
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1
    const raw = lines[i]!
    if (raw.trim() === "") continue
    const values = raw.split(",").map((c) => c.trim())
    if (!headerSeen) {
      if (!isHeader(values, BENCHMARK_PRICES_COLUMNS)) {
        return problem(line, "Date", `missing or wrong header: expected "${BENCHMARK_PRICES_COLUMNS.join(",")}", got "${raw}"`)
      }
      headerSeen = true
      continue
    }
    if (values.length !== BENCHMARK_PRICES_COLUMNS.length) {
      const field = BENCHMARK_PRICES_COLUMNS[values.length] ?? `column ${values.length}`
      return problem(line, field, `expected ${BENCHMARK_PRICES_COLUMNS.length} columns, got ${values.length}`)
    }
    if (isNullRow(values)) {
      nullRowsSkipped++
      continue
    }
    const decoded = decodeRow(values)
    if (Result.isFailure(decoded)) {
      const at = issueColumn(decoded.failure) ?? 0
      return problem(line, BENCHMARK_PRICES_COLUMNS[at]!, `expected ${expectedOf(cells[at]!)}, got "${values[at] ?? ""}"`)
    }
    decoded.success.symbol = symbol
    const conflict = rows.onRow(decoded.success, line)
    if (conflict !== undefined) return conflict
  }
  if (!headerSeen) return problem(1, "Date", "missing header: the file is empty")
  const records = [...rows.records].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
  return { records, repairs: { duplicatesSkipped: rows.duplicatesSkipped(), nullRowsSkipped } }
}

/** Prices of one symbol; key `<SYMBOL>:from_<first date>`, so a later, longer download of the same symbol replaces a shorter one. */
export const BenchmarkPricesSource: DataSetSource<BenchmarkPriceRecord> = {
  name: "benchmark_prices",
  detect: (bytes) => {
    const first = decodeCmfText(bytes.subarray(0, 4096)).split(/\r?\n/).find((l) => l.trim() !== "")
    return first !== undefined && isHeader(first.split(","), BENCHMARK_PRICES_COLUMNS)
  },
  parse: (bytes, file) =>
    Effect.suspend(() => {
      const read = readBenchmarkPrices(bytes, file)
      return read instanceof CmfFileInvalid ? Effect.fail(read) : Effect.succeed(read)
    }).pipe(Effect.withSpan("BenchmarkPrices.parse")),
  key: (name, bytes, sha256) => {
    const read = readBenchmarkPrices(bytes, name)
    if (read instanceof CmfFileInvalid) return sha256
    const first = read.records[0]
    return `${symbolOfFileName(name)}:${first === undefined ? sha256 : `from_${first.date}`}`
  }
}
