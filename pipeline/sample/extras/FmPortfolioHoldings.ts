/**
 * What the sample's funds hold: fictitious national issuers (with RUT and check digit) and foreign
 * issuers, and a fund's starting positions by its CMF type, theme and currency.
 */
import { isoOf } from "../Calendar.ts"
import type { Prng } from "../Prng.ts"
import type { SampleFund } from "../Universe.ts"

export interface Position {
  readonly market: "N" | "E"
  /** Nemotécnico; deposits get a new one each month (their maturity is in it). */
  code: string
  /** National: RUT and check digit; foreign: the issuer's name. */
  readonly issuer: string
  readonly checkDigit: string
  /** National debt: the bank's code in nemotécnicos. */
  readonly bank: string
  readonly country: string
  readonly type: string
  /** Maturity (day number) of debt; null for shares and fund units. */
  maturity: number | null
  readonly rating: string
  readonly unit: string
  /** Unit price in the unit's currency (shares, fund units), or the yield of debt. */
  readonly price: number
  weight: number
}

/** RUT check digit (modulo 11). */
export const checkDigitOf = (rut: number): string => {
  let sum = 0
  let factor = 2
  for (let n = rut; n > 0; n = Math.floor(n / 10)) {
    sum += (n % 10) * factor
    factor = factor === 7 ? 2 : factor + 1
  }
  const d = 11 - (sum % 11)
  return d === 11 ? "0" : d === 10 ? "K" : String(d)
}

const BANKS = [[97011000, "BAUS"], [97022000, "BPSU"], [97033000, "BCOR"], [97044000, "BLIT"], [97055000, "BAND"]] as const
const COMPANIES = [
  [91234000, "COBRESUR"], [92345000, "VINAMAR"], [93456000, "ENERSUR"], [94567000, "RETAILCO"],
  [95678000, "FORSUR"], [96123000, "PUERTOSUR"], [76234567, "SOLARIS"], [77345678, "AGUANOR"]
] as const
const CENTRAL_BANK = 97029000
const TREASURY = 60805000
const LOCAL_FUNDS = [[76500100, "CFIRENTAS"], [76500200, "CFIDEUDA"], [76500300, "CFIINFRA"]] as const

const ETFS: ReadonlyArray<readonly [string, string, string, string]> = [
  ["ATLUS500", "ATLAS US LARGE CAP ETF", "US", "eeuu"], ["ATLEU600", "ATLAS EUROPE EQUITY ETF", "IE", "europa"],
  ["MERIEM", "MERIDIAN EMERGING MARKETS ETF", "US", "emergentes"], ["MERIAP", "MERIDIAN ASIA PACIFIC ETF", "US", "asia"],
  ["ATLT710", "ATLAS US TREASURY 7-10Y ETF", "US", "deuda"], ["MERILAT", "MERIDIAN LATIN AMERICA ETF", "US", "latam"]
]
const STOCKS: ReadonlyArray<readonly [string, string, string, string, string]> = [
  ["KAIROS", "KAIROS TECHNOLOGIES INC", "US", "ACE", "eeuu"], ["ANDMIN", "ANDES MINING CORP ADR", "US", "ADR", "eeuu"],
  ["NORDVIK", "NORDVIK INDUSTRIES AG", "DE", "ACE", "europa"], ["SAKURA", "SAKURA PRECISION CO", "JP", "ACE", "asia"],
  ["BRFOODS", "BRASILIA FOODS SA", "BR", "ACE", "latam"], ["AZCEM", "AZTECA CEMENTOS SAB", "MX", "ACE", "latam"],
  ["EUROMÉD", "EUROMÉDICA SOCIÉTÉ ANONYME", "FR", "ACE", "europa"]
]
const FOREIGN_FUNDS: ReadonlyArray<readonly [string, string, string, string]> = [
  ["NSGLBEQ", "NORTHSTAR GLOBAL EQUITY FUND", "LU", "equity"], ["NSGLBBD", "NORTHSTAR GLOBAL BOND FUND", "LU", "deuda"],
  ["LATCORP", "LATAM CORPORATE DEBT FUND", "LU", "deuda"], ["EUCRED", "EURO CREDIT OPPORTUNITIES FUND", "IE", "deuda"]
]

/** Share of the fund invested abroad and whether it holds debt, shares or both. */
const profileOf = (f: SampleFund): { foreign: number; debt: number } => {
  const theme = f.name
  const abroad = /EEUU|GLOBAL|EUROPA|ASIA|EMERGENTES|LATAM|EURO|DÓLAR/.test(theme)
  switch (f.type) {
    case 1: case 2: case 7: return { foreign: 0, debt: 1 }
    case 3: return { foreign: abroad ? 0.75 : 0, debt: 1 }
    case 4: return { foreign: 0.4, debt: 0.6 }
    case 5: return { foreign: abroad ? 0.95 : 0.05, debt: 0 }
    case 6: return { foreign: 0.5, debt: 0.4 }
    default: return { foreign: 0.3, debt: 0.3 }
  }
}

const region = (f: SampleFund): string => {
  for (const r of ["eeuu", "europa", "asia", "emergentes", "latam"]) if (f.name.toLowerCase().includes(r)) return r
  return f.currency === "EUR" ? "europa" : "global"
}

const ddmmyy = (day: number): string => {
  const iso = isoOf(day)
  return `${iso.slice(8, 10)}${iso.slice(5, 7)}${iso.slice(2, 4)}`
}

/**
 * Gives a debt position a maturity `days` after `last` and the nemotécnico that goes with it
 * (deposits: "FNBAUS-020625" as CMF's "FNBCI-020625"; bonds: issuer, series letter, MMYY).
 */
export const rollDebt = (prng: Prng, p: Position, last: number, days: readonly [number, number]): void => {
  const maturity = last + prng.int(days[0], days[1])
  const mmyy = ddmmyy(maturity).slice(2)
  p.maturity = maturity
  p.code =
    p.type === "DPC" || p.type === "DPL" ? `FN${p.bank}-${ddmmyy(maturity)}`
    : p.type === "PDBC" ? `PDBC${ddmmyy(maturity)}`
    : p.type === "BB" || p.type === "BE" ? `B${p.bank}${prng.pick(["A", "B", "C", "D"])}${mmyy}`
    : p.type === "LH" ? `LH${p.bank}${mmyy}`
    : `${p.type}0${prng.int(2, 6)}00${mmyy}`
}

/** The starting positions of `f` at the close of month day `last` (weights not yet normalised). */
export const initialPositions = (prng: Prng, f: SampleFund, last: number, count: number): Array<Position> => {
  const { foreign, debt } = profileOf(f)
  const unit = f.currency === "$$" ? "$$" : f.currency
  const positions: Array<Position> = []
  const national = Math.round(count * (1 - foreign))
  const shortTerm = f.type === 1 || f.type === 2 || f.type === 7
  for (let i = 0; i < count; i++) {
    const weight = 0.3 + prng.next()
    if (i < national) {
      if (prng.next() < debt) {
        const bank = prng.pick(BANKS)
        const sovereign = !shortTerm && prng.chance(0.35)
        const type = shortTerm ? prng.pick(["DPC", "DPL", "PDBC"]) : sovereign ? prng.pick(["BCP", "BTU", "BTP"]) : prng.pick(["BB", "BE", "LH"])
        // Central Bank: PDBC, BCP; Treasury: BTP, BTU; banks: the rest.
        const rut = type === "PDBC" || type === "BCP" ? CENTRAL_BANK : type === "BTP" || type === "BTU" ? TREASURY : bank[0]
        const position: Position = {
          market: "N", code: "", issuer: String(rut), checkDigit: checkDigitOf(rut), bank: bank[1], country: "CL", type, maturity: null,
          rating: shortTerm ? "N-1+" : rut !== bank[0] ? "AAA" : prng.pick(["AAA", "AA+", "AA", "AA-"]),
          unit: type === "BTU" || type === "BE" || type === "LH" ? "UF" : unit, price: 2 + 4 * prng.next(), weight
        }
        rollDebt(prng, position, last, shortTerm ? [20, 360] : [400, 365 * 15])
        positions.push(position)
      } else {
        const [rut, code] = f.type === 8 && prng.chance(0.5) ? prng.pick(LOCAL_FUNDS) : prng.pick(COMPANIES)
        positions.push({
          market: "N", code, issuer: String(rut), checkDigit: checkDigitOf(rut), bank: "", country: "CL",
          type: code.startsWith("CFI") ? "CFI" : "ACC", maturity: null, rating: "", unit: "$$", price: 300 + 30000 * prng.next(), weight
        })
      }
    } else {
      const r = region(f)
      const useDebt = prng.next() < debt
      const pool = useDebt
        ? [...ETFS.filter((e) => e[3] === "deuda").map((e) => [...e, "ETFA"] as const), ...FOREIGN_FUNDS.filter((x) => x[3] === "deuda").map((x) => [...x, "CFME"] as const)]
        : [
            ...ETFS.filter((e) => e[3] === r || r === "global").map((e) => [...e, "ETFA"] as const),
            ...STOCKS.filter((s) => s[4] === r || r === "global").map((s) => [s[0], s[1], s[2], s[4], s[3]] as const),
            ...FOREIGN_FUNDS.filter((x) => x[3] === "equity").map((x) => [...x, "CFME"] as const)
          ]
      const [code, name, country, , type] = prng.pick(pool)
      positions.push({
        market: "E", code, issuer: name, checkDigit: "", bank: "", country, type, maturity: null, rating: "",
        unit: f.currency === "EUR" ? "EUR" : "PROM", price: 20 + 500 * prng.next(), weight
      })
    }
  }
  // The same instrument drawn twice is one position.
  const byCode = new Map<string, Position>()
  for (const p of positions) {
    const earlier = byCode.get(`${p.market}|${p.code}`)
    if (earlier === undefined) byCode.set(`${p.market}|${p.code}`, p)
    else earlier.weight += p.weight
  }
  return [...byCode.values()]
}
