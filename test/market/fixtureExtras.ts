/** The market fixture's other facts: TAC, portfolios, renames, article 107, USD, AFM families, benchmarks, one FI RUN. */
import { testCrc32 } from "../support/snapshotFixture.ts"
import { D1, D2, D3, M, sid } from "./fixtureFunds.ts"

const int = (iso: string) => Number(iso.replaceAll("-", ""))

const tac = (key: string, month: string, value: number) => ({
  asset_id: sid(key),
  month,
  tac: value,
  tac_fixed: null,
  tac_variable: null,
  tac_expenses: null,
})

export const TAC = [
  tac("8043:A", "2026-01", 0.015),
  tac("8043:A", "2026-02", 0.017),
  tac("9105:A", "2026-01", 0.01),
  tac("9105:A", "2026-02", 0.011),
  tac("9105:I", "2026-01", 0.005),
  tac("9105:I", "2026-02", 0.008),
  tac("8106:B", "2026-01", 0.02),
  tac("8106:B", "2026-02", 0.018),
  tac("9106:A", "2026-01", 0.012),
  tac("9106:A", "2026-02", 0.012),
  tac("8200:BPRIV", "2026-01", 0.004),
  tac("8200:BPRIV", "2026-02", 0.0045),
  tac("9107:A", "2026-01", 0.01),
  tac("9107:A", "2026-02", 0.009),
  tac("9300:A", "2026-02", 0.02),
].sort((a, b) => a.asset_id - b.asset_id || (a.month < b.month ? -1 : 1))

const holding = (
  month: string,
  market: string,
  position: number,
  code: string,
  issuer: string,
  country: string,
  type: string,
  valuation: number,
  pct: number,
) => ({
  run: 8043,
  month,
  market,
  position,
  instrument_code: code,
  issuer_rut: null,
  issuer_name: issuer,
  issuer_country: country,
  instrument_type: type,
  maturity_date: null,
  valuation_thousands: valuation,
  pct_fund_assets: pct,
})

export const HOLDINGS = [
  holding("2026-01", "N", 1, "BCU-0301", "Banco Central de Chile", "CL", "BCU", 1000, 100),
  holding("2026-02", "E", 1, "SPY US", "SPDR", "US", "ETFA", 8000, 40.8),
  holding("2026-02", "E", 2, "QQQ US", "Invesco", "US", "ETFA", 3000, 15.3),
  holding("2026-02", "N", 1, "CFIXYZ", "Emisor Uno S.A.", "CL", "ACC", 5000, 25.5),
  holding("2026-02", "N", 2, "BTU-1", "Tesorería General", "CL", "BTU", 2000, 10.2),
]

export const ALIASES = [
  {
    alias_id: testCrc32("fm:8200:B"),
    asset_id: testCrc32("fm:8200:BPRIV"),
    run: 8200,
    previous_serie: "B",
    current_serie: "BPRIV",
    first_current_date: int(D2),
  },
]

export const ELIGIBLE_SENTENCE = "El Fondo se acogerá al beneficio tributario del artículo 107 de la Ley sobre Impuesto a la Renta."
export const APV_SENTENCE = "La Serie APV no se acogerá a lo dispuesto en el artículo 107."
export const NOT_ELIGIBLE_SENTENCE = "El Fondo no se acogerá al artículo 107 de la Ley sobre Impuesto a la Renta."
export const EXCEPT_A_SENTENCE =
  "Las series del Fondo se acogerán al artículo 107 de la Ley sobre Impuesto a la Renta, con excepción de la Serie A."

export const ARTICLE107 = [
  {
    run: 8043,
    status: "declares_eligible",
    regulation_date: "2025-11-30",
    evidence: JSON.stringify([
      { line: 12, text: ELIGIBLE_SENTENCE },
      { line: 15, text: APV_SENTENCE },
    ]),
    series_exception: JSON.stringify(["APV"]),
  },
  {
    run: 9105,
    status: "declares_not_eligible",
    regulation_date: "2025-10-01",
    evidence: JSON.stringify([{ line: 8, text: NOT_ELIGIBLE_SENTENCE }]),
    series_exception: "[]",
  },
  {
    // eligible, but its one current series is excepted: that series' rows say not eligible
    run: 9107,
    status: "declares_eligible",
    regulation_date: "2025-09-15",
    evidence: JSON.stringify([{ line: 10, text: EXCEPT_A_SENTENCE }]),
    series_exception: JSON.stringify(["a "]),
  },
]

/** Observed dollar (CLP per USD). */
export const USD = { [M]: 950, [D1]: 900, [D2]: 900, [D3]: 910 } as Record<string, number>
export const INDICATORS = Object.entries(USD).map(([date, value]) => ({ indicator: "USD", date: int(date), value }))

const afm = (key: string, category: string, familyRar: string, slug: string, currency: string) => ({
  asset_id: sid(key),
  category,
  family_rar: familyRar,
  family_slug: slug,
  currency,
})

export const AFM = [
  afm("8043:A", "FDOACCNACLC", "Accionario nacional", "accionario-nacional", "PESOS"),
  afm("9105:A", "FDOACCNACLC", "Accionario nacional", "accionario-nacional", "PESOS"),
  afm("8106:B", "FDOACCNACLC", "Accionario nacional", "accionario-nacional", "PESOS"),
  afm("9106:A", "FDOACCEEUU", "Accionario eeuu", "accionario-eeuu", "DOLAR"),
  afm("9107:A", "FDOACCEEUU", "Accionario eeuu", "accionario-eeuu", "PESOS"),
  afm("8200:BPRIV", "RF<90NAC", "Deuda < 90 días nacional", "deuda-menor-90-dias-nacional", "PESOS"),
].sort((a, b) => a.asset_id - b.asset_id)

export const BENCHMARKS = [
  {
    family_slug: "accionario-eeuu",
    family_rar: "Accionario eeuu",
    symbol: "VOO",
    index_name: "S&P 500",
    instrument_name: "Vanguard S&P 500 ETF",
    native_currency: "USD",
    asset_class: "equity",
  },
  {
    family_slug: "accionario-nacional",
    family_rar: "Accionario nacional",
    symbol: "ECH",
    index_name: "MSCI Chile",
    instrument_name: "iShares MSCI Chile ETF",
    native_currency: "USD",
    asset_class: "equity",
  },
]

export const BENCHMARK_PRICES = [
  { symbol: "ECH", date: int(D2), close: 30.1 },
  { symbol: "ECH", date: int(D3), close: 30.4 },
  { symbol: "VOO", date: int(M), close: 500.5 },
  { symbol: "VOO", date: int(D1), close: 510.25 },
  { symbol: "VOO", date: int(D2), close: 512 },
  { symbol: "VOO", date: int(D3), close: 509.75 },
]

/** An investment fund's RUN: the FM portfolio routes send it to the FI routes. */
export const FI_RUN = 9500
export const FI_INSTRUMENT_ID = "0f2b3c4d-5e6f-5a7b-8c9d-0e1f2a3b4c5d"
export const FI_INSTRUMENTS = [
  {
    instrument_id: FI_INSTRUMENT_ID,
    run: FI_RUN,
    name: "Fondo de Inversión Delta Rentas",
    agf_name: "Delta AGF S.A.",
    provider_id: testCrc32("agf-name:DELTA AGF S.A."),
    regulatory_type: "FIRES",
    status: "active",
    is_etf: 0,
    ticker: null,
    last_price_date: D3,
  },
]
