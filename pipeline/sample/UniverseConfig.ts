/** Sizes and vocabularies of the synthetic market (see `Universe.ts`). */

export interface ScaleConfig {
  /** First date with cartola rows (YYYY-MM-DD). */
  readonly historyStart: string
  readonly admins: number
  readonly funds: number
  /** Funds without Fecha Término; the others are terminated. */
  readonly active: number
  /** Terminated funds whose Fecha Término falls before `historyStart` (registry only, no rows). */
  readonly terminatedBeforeHistory: number
  /** Weights of 1, 2, 3, ... series per fund. */
  readonly seriesWeightsActive: ReadonlyArray<number>
  readonly seriesWeightsTerminated: ReadonlyArray<number>
  /** Probability that an active fund started before the history (otherwise during it). */
  readonly oldFundChance: number
  /** Probability that a fund's second, third, ... series starts after the fund. */
  readonly youngerSeriesChance: number
  /** Probability that a month file repeats a few rows of one of its days verbatim. */
  readonly duplicateMonthChance: number
}

export const SCALES: Readonly<Record<"small" | "full", ScaleConfig>> = {
  // ~30 funds, ~100 series, ~1,000 business days.
  small: {
    historyStart: "2019-01-02",
    admins: 5,
    funds: 30,
    active: 24,
    terminatedBeforeHistory: 2,
    seriesWeightsActive: [10, 20, 25, 20, 15, 10],
    seriesWeightsTerminated: [10, 20, 25, 20, 15, 10],
    oldFundChance: 0.7,
    youngerSeriesChance: 0.5,
    duplicateMonthChance: 0.3
  },
  // The real market's size: 36 administrators, ~1,350 funds (~450 active), ~2,900 series.
  full: {
    historyStart: "2007-12-31",
    admins: 36,
    funds: 1350,
    active: 450,
    terminatedBeforeHistory: 100,
    seriesWeightsActive: [10, 20, 25, 20, 15, 10],
    seriesWeightsTerminated: [60, 28, 8, 2, 1, 1],
    oldFundChance: 0.9,
    youngerSeriesChance: 0.15,
    duplicateMonthChance: 0.3
  }
}

/** CMF fund types 1–8 with their share of funds, annual drift, volatility and a typical fee. */
export const FUND_TYPES: ReadonlyArray<{
  readonly type: number
  readonly weight: number
  readonly drift: readonly [number, number]
  readonly vol: readonly [number, number]
  readonly fee: number
}> = [
  { type: 1, weight: 14, drift: [0.03, 0.05], vol: [0.002, 0.005], fee: 0.008 },
  { type: 2, weight: 8, drift: [0.035, 0.055], vol: [0.005, 0.012], fee: 0.01 },
  { type: 3, weight: 20, drift: [0.04, 0.07], vol: [0.02, 0.05], fee: 0.012 },
  { type: 4, weight: 10, drift: [0.05, 0.08], vol: [0.06, 0.1], fee: 0.018 },
  { type: 5, weight: 18, drift: [0.06, 0.12], vol: [0.15, 0.25], fee: 0.025 },
  { type: 6, weight: 16, drift: [0.05, 0.09], vol: [0.08, 0.15], fee: 0.02 },
  { type: 7, weight: 4, drift: [0.03, 0.05], vol: [0.02, 0.04], fee: 0.01 },
  { type: 8, weight: 10, drift: [0.06, 0.1], vol: [0.12, 0.2], fee: 0.015 }
]

export const SERIES_LABELS: ReadonlyArray<string> = [
  "A", "B", "C", "D", "E", "F", "H", "I", "M", "P", "X", "APV", "ALTO", "BPRIV", "INST", "LV", "DIGITAL", "CLASICA"
]

const THEMES: Readonly<Record<number, ReadonlyArray<string>>> = {
  1: ["MONEY MARKET", "LIQUIDEZ", "CAJA", "DISPONIBLE", "TESORERÍA"],
  2: ["AHORRO CORTO PLAZO", "RENTA CORTO PLAZO", "DEPÓSITO PLUS", "AHORRO"],
  3: ["RENTA LOCAL", "DEUDA CORPORATIVA", "BONOS UF", "RENTA ESTRATÉGICA", "DEUDA LATAM"],
  4: ["BALANCEADO", "MIXTO MODERADO", "CONSERVADOR", "PORTAFOLIO ACTIVO"],
  5: ["ACCIONES CHILE", "ACCIONES EEUU", "GLOBAL EQUITY", "EUROPA", "LATAM", "ASIA", "EMERGENTES", "SMALL CAP"],
  6: ["LIBRE INVERSIÓN", "ESTRATÉGICO", "OPORTUNIDADES", "DINÁMICO", "RETORNO TOTAL"],
  7: ["ESTRUCTURADO GARANTIZADO", "PROTEGIDO", "CAPITAL ASEGURADO"],
  8: ["INVERSIONISTAS CALIFICADOS", "PRIVATE EQUITY", "DEUDA PRIVADA", "INMOBILIARIO"]
}

export const themesOf = (type: number): ReadonlyArray<string> => THEMES[type] ?? ["DIVERSIFICADO"]

// The first five are the small sample's administrators: 0 has Ñ in its registry name, 1 reaches the
// cartola as mojibake, 3 has Í.
const FIRST_ADMINS: ReadonlyArray<{ readonly name: string; readonly short: string }> = [
  { name: "ADMINISTRADORA GENERAL DE FONDOS ÑUÑOA S.A.", short: "ÑUÑOA" },
  { name: "MAÑANA ASSET MANAGEMENT AGF S.A.", short: "MAÑANA" },
  { name: "CORDILLERA ADMINISTRADORA GENERAL DE FONDOS S.A.", short: "CORDILLERA" },
  { name: "PACÍFICO ADMINISTRADORA GENERAL DE FONDOS S.A.", short: "PACÍFICO" },
  { name: "LOS ANDES ASSET MANAGEMENT AGF S.A.", short: "LOS ANDES" }
]

const MORE_ADMINS: ReadonlyArray<string> = [
  "ARAUCANÍA", "ATACAMA", "BIOBÍO", "CALAFATE", "CANELO", "CHACAO", "COIHUE", "CÓNDOR", "COPIHUE", "HUEMUL",
  "LAUCA", "LENGA", "LITORAL", "MAIPO", "MAULE", "NAHUEL", "OSORNO", "PEHUÉN", "PUYEHUE", "QUILLAY", "RAPEL",
  "RAULÍ", "RELONCAVÍ", "TALCA", "TOLHUACA", "TRAPANANDA", "ULMO", "VALDIVIA", "VILLARRICA", "VOLCÁN", "ZAPALLAR"
]

export const adminNames = (count: number): ReadonlyArray<{ readonly name: string; readonly short: string }> => {
  const more = MORE_ADMINS.map((short, i) => ({
    short,
    name: i % 3 === 0 ? `${short} ASSET MANAGEMENT AGF S.A.` : `${short} ADMINISTRADORA GENERAL DE FONDOS S.A.`
  }))
  const all = [...FIRST_ADMINS, ...more]
  if (count > all.length) throw new Error(`at most ${all.length} administrators`)
  return all.slice(0, count)
}
