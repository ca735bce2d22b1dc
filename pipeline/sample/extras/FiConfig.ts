/** Sizes and vocabularies of the sample's investment-fund market (see `FiUniverse.ts`). */

export interface FiScale {
  readonly admins: number
  /** How many of them are FM administrators too (same RUT and name). */
  readonly reuseFmAdmins: number
  readonly funds: number
  /** Funds with daily book values (about). */
  readonly withValues: number
  /** First day of the values history, or two calendar years back from the end date. */
  readonly valuesFrom: string | "two-years"
  /** Share of the non-edge funds that are active (the others are on the NV lists). */
  readonly activeShare: number
  /** Share of the non-edge active funds that publish quarterly portfolios. */
  readonly portfolioShare: number
  /** ETFs among the funds (the first three are edge cases). */
  readonly etfs: number
}

export const FI_SCALES: Readonly<Record<"small" | "full", FiScale>> = {
  small: { admins: 6, reuseFmAdmins: 2, funds: 20, withValues: 12, valuesFrom: "two-years", activeShare: 0.75, portfolioShare: 0.6, etfs: 3 },
  // The real market: ~1,650 FI of ~50 administrators, ~380 with daily values.
  full: { admins: 50, reuseFmAdmins: 30, funds: 1650, withValues: 380, valuesFrom: "2015-01-01", activeShare: 0.45, portfolioShare: 0.5, etfs: 12 }
}

const SHORTS = [
  "ACONCAGUA", "ALERCE", "ANTUCO", "CACHAPOAL", "CALBUCO", "CASABLANCA", "CHILOÉ", "COLCHAGUA", "ELQUI", "HUASCO",
  "ITATA", "LIMARÍ", "LLANQUIHUE", "MAGALLANES", "MANQUEHUE", "PAINE", "PETORCA", "PIRQUE", "PUCÓN", "RANCO",
  "TOLTÉN", "YELCHO", "YUNGAY", "CAUQUENES", "CURACAVÍ", "FUTALEUFÚ", "LONCOMILLA", "MEHUÍN", "PICHIDANGUI", "QUINCHAO",
  "SALAMANCA", "TIERRA AMARILLA", "TONGOY", "VICHUQUÉN", "ZAPALLAR SUR", "ALHUÉ", "CHAÑARAL", "DALCAHUE", "ISLUGA", "LOLOL",
  "MARCHIGÜE", "NANCAGUA", "PANGUIPULLI", "PUTAENDO", "QUELLÓN", "RÍO BUENO", "TALTAL", "TIRÚA"
]

/** Administrators with investment funds only. */
export const FI_ADMIN_NAMES: ReadonlyArray<{ readonly name: string; readonly short: string }> = SHORTS.map((short, i) => ({
  short,
  name: i % 3 === 0 ? `${short} CAPITAL ADMINISTRADORA GENERAL DE FONDOS S.A.` : i % 3 === 1 ? `${short} INVERSIONES AGF S.A.` : `ADMINISTRADORA GENERAL DE FONDOS ${short} S.A.`
}))

export const FI_THEMES: ReadonlyArray<string> = [
  "RENTA INMOBILIARIA", "DESARROLLO INMOBILIARIO", "DEUDA PRIVADA", "PRIVATE EQUITY", "INFRAESTRUCTURA", "ACCIONES CHILENAS",
  "RENTA FIJA LOCAL", "FACTURAS", "MEZZANINE", "VENTURE CAPITAL", "ASIA PACÍFICO", "LATAM CORPORATE", "SMALL CAP CHILE",
  "ENERGÍA RENOVABLE", "AGRÍCOLA", "CRÉDITO AUTOMOTRIZ", "RENTA RESIDENCIAL", "OFICINAS", "HIPOTECARIO", "SECUNDARIOS"
]

/** ETF tickers (Bolsa nemotécnicos) and the theme in their fund's name, in order of use. */
export const ETF_THEMES: ReadonlyMap<string, string> = new Map([
  ["CFIETFIPSA", "IPSA"], ["CFIETFCC", "CHILE CORPORATIVO"], ["CFIETFGE", "GLOBAL EQUITY"], ["CFIETFLP", "LARGO PLAZO"],
  ["CFIETFCD", "CORTA DURACIÓN"], ["CFIETFUSA", "S&P 500"], ["CFIETFEM", "MERCADOS EMERGENTES"], ["CFIETFEU", "EUROPA"],
  ["CFIETFCHN", "CHINA"], ["CFIETFTEC", "TECNOLOGÍA"], ["CFIETFORO", "ORO"], ["CFIETFIGPA", "IGPA"]
])
