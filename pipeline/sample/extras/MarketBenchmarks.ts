/**
 * Sample benchmarks: the catalog (`benchmarks_catalogo.txt`, five families; the other families have
 * none) and one market-data CSV per symbol over the history (`benchmark_<SYMBOL>.csv`, or
 * `<SYMBOL>.csv` for the CLP one), random walks with drift by asset class.
 */
import { isBusinessDay, isoOf } from "../Calendar.ts"
import type { Prng } from "../Prng.ts"

interface SampleBenchmark {
  readonly family: string
  readonly symbol: string
  readonly indexName: string
  readonly instrumentName: string
  readonly currency: "USD" | "CLP"
  readonly assetClass: "equity" | "fixed_income"
  /** Price on the first day, annual drift and volatility, typical daily volume. */
  readonly start: number
  readonly drift: number
  readonly vol: number
  readonly volume: number
  readonly fileName: string
}

const benchmark = (
  family: string, symbol: string, indexName: string, instrumentName: string, currency: "USD" | "CLP",
  assetClass: "equity" | "fixed_income", start: number, drift: number, vol: number, volume: number
): SampleBenchmark => ({
  family, symbol, indexName, instrumentName, currency, assetClass, start, drift, vol, volume,
  fileName: currency === "CLP" ? `${symbol}.csv` : `benchmark_${symbol}.csv`
})

export const SAMPLE_BENCHMARKS: ReadonlyArray<SampleBenchmark> = [
  benchmark("Accionario eeuu", "VOO", "S&P 500", "Vanguard S&P 500 ETF", "USD", "equity", 230, 0.1, 0.18, 4_000_000),
  benchmark("Accionario nacional", "CFMITNIPSA", "S&P/CLX IPSA", "It Now S&P/CLX IPSA ETF", "CLP", "equity", 1450, 0.06, 0.2, 150_000),
  benchmark("Accionario emergente", "EEM", "MSCI Emerging Markets", "iShares MSCI Emerging Markets ETF", "USD", "equity", 39, 0.04, 0.2, 30_000_000),
  benchmark("Accionario desarrollado", "URTH", "MSCI World", "iShares MSCI World ETF", "USD", "equity", 85, 0.08, 0.16, 300_000),
  benchmark("Deuda > 365 días internacional desarrollado", "AGG", "Bloomberg US Aggregate Bond", "iShares Core US Aggregate Bond ETF", "USD", "fixed_income", 106, 0.01, 0.05, 6_000_000)
]

/** `benchmarks_catalogo.txt`, latin-1 (family names have accents). */
export const benchmarkCatalogText = (): string =>
  [
    "FAMILY_RAR;SYMBOL;INDEX_NAME;INSTRUMENT_NAME;NATIVE_CURRENCY;ASSET_CLASS",
    ...SAMPLE_BENCHMARKS.map((b) => [b.family, b.symbol, b.indexName, b.instrumentName, b.currency, b.assetClass].join(";"))
  ].join("\n") + "\n"

const US_HOLIDAYS = new Set(["01-01", "07-04", "12-25"])
const tradingDay = (b: SampleBenchmark, day: number): boolean => {
  if (b.currency === "CLP") return isBusinessDay(day)
  const weekday = new Date(day * 86_400_000).getUTCDay()
  return weekday !== 0 && weekday !== 6 && !US_HOLIDAYS.has(isoOf(day).slice(5))
}

const SQRT_252 = Math.sqrt(252)
const fixed2 = (v: number): string => (Math.round(v * 100) / 100).toFixed(2)

/** The symbol's CSV from `from` to `to`; VOO also has one Yahoo-style "null" day (a quirk the parser skips). */
export const benchmarkPricesCsv = (prng: Prng, b: SampleBenchmark, from: number, to: number): string => {
  const lines = ["Date,Open,High,Low,Close,Volume"]
  let close = b.start
  let nullDay = b.symbol === "VOO" ? from + prng.int(30, Math.max(30, to - from - 30)) : -1
  for (let day = from; day <= to; day++) {
    if (!tradingDay(b, day)) continue
    if (day >= nullDay && nullDay >= 0) {
      lines.push(`${isoOf(day)},null,null,null,null,null`)
      nullDay = -1
      continue
    }
    const open = close * (1 + 0.002 * prng.normal())
    close *= 1 + b.drift / 252 + (b.vol / SQRT_252) * prng.normal()
    const high = Math.max(open, close) * (1 + 0.004 * Math.abs(prng.normal()))
    const low = Math.min(open, close) * (1 - 0.004 * Math.abs(prng.normal()))
    const volume = Math.round(b.volume * (0.5 + prng.next()))
    lines.push(`${isoOf(day)},${fixed2(open)},${fixed2(high)},${fixed2(low)},${fixed2(close)},${volume}`)
  }
  return lines.join("\n") + "\n"
}
