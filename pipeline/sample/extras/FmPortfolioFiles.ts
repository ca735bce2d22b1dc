/**
 * The sample's monthly FM portfolios: `ffm_NACI_YYYYMM.txt` and `ffm_EXTR_YYYYMM.txt` as CMF's
 * `ffm_download.php` writes them (`;`, latin-1, `.004` decimals, `DD/MM/YYYY`, `99999999` for no date).
 */
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { dmyOf } from "../Calendar.ts"
import type { Prng } from "../Prng.ts"
import type { SampleFund } from "../Universe.ts"
import type { ExtrasContext } from "./ExtrasContext.ts"
import { type Position, initialPositions, rollDebt } from "./FmPortfolioHoldings.ts"
import { closedMonths, cmfDecimal } from "./FmMonths.ts"

const NACI_HEADER =
  "Run Fondo;Nombre Fondo;FFM_6010100;FFM_6010211;FFM_6010212;FFM_6010300;FFM_6010400;FFM_6010500;FFM_6010600;" +
  "FFM_6010700;FFM_6010800;FFM_6010900;FFM_6011000;FFM_TIR_6011111;FFM_PAR_6011111;FFM_REL_6011111;FFM_6011112;" +
  "FFM_6011113;FFM_6011114;FFM_6011200;FFM_6011300;FFM_6011400;FFM_6011511;FFM_6011512;FFM_6011513"
const EXTR_HEADER =
  "Run Fondo;Nombre Fondo;FFM_6020100;FFM_6020200;FFM_6020300;FFM_6020400;FFM_6020500;FFM_6020600;FFM_6020700;" +
  "FFM_6020800;FFM_6020900;FFM_6021000;FFM_tir_6021111;FFM_par_6021111;FFM_rel_6021111;FFM_6021112;FFM_6021113;" +
  "FFM_6021114;FFM_6021200;FFM_6021300;FFM_6021400;FFM_6021511;FFM_6021512;FFM_6021513"

const isDeposit = (p: Position) => p.type === "DPC" || p.type === "DPL" || p.type === "PDBC"

/** Rough pesos per unit, to turn a valuation in the fund's currency into units of the instrument's. */
const PESOS: Readonly<Record<string, number>> = { $$: 1, UF: 39000, PROM: 950, EUR: 1030 }

const rowOf = (f: SampleFund, p: Position, pct: number, valuation: number): string => {
  const perUnit = ((p.maturity === null ? p.price : 1) * (PESOS[p.unit] ?? 1)) / (PESOS[f.currency] ?? 1)
  const shares = Math.max(1, Math.round((valuation * 1000) / perUnit))
  const issuerShare = cmfDecimal(pct / 300, 3)
  if (p.market === "E") {
    const noDate = p.code.length % 2 === 0 ? "99999999" : "31/12/9999"
    return [
      f.run, f.shortName, p.code, p.issuer, p.country, p.type, noDate, "1", "", "", shares, p.unit, "", "",
      cmfDecimal(p.price, 2), "3", "", "", valuation, p.unit, p.country, "0", issuerShare, cmfDecimal(pct, 3)
    ].join(";")
  }
  const debt = p.maturity !== null
  return [
    f.run, f.shortName, p.code, p.issuer, p.checkDigit, p.country, p.type, debt ? dmyOf(p.maturity!) : "99999999", "1",
    p.rating, debt ? `00${p.issuer.slice(3, 5)}` : "", shares, p.unit, debt ? cmfDecimal(p.price, 2) : "", "",
    debt ? "" : cmfDecimal(p.price, 2), debt ? "1" : "3", debt ? (isDeposit(p) ? "30" : "365") : "", debt ? (isDeposit(p) ? "NL" : "RC") : "",
    valuation, f.currency, "CL", debt ? "0" : cmfDecimal(pct / 200, 3), issuerShare, cmfDecimal(pct, 3)
  ].join(";")
}

/**
 * Writes the last 12 closed months (small) or 24 (full), published 12 days after the month ends.
 * Every fund operating at a month's close reports 5–18 positions whose weights sum to 96–99.8 % of
 * its assets (the rest is cash); weights drift month to month and deposits roll over. Edge cases:
 * fund 5 reports nothing for the third-newest month; the fifth-newest EXTR file is "Sin información".
 */
export const writePortfolioFiles = async (ctx: ExtrasContext, prng: Prng): Promise<Array<string>> => {
  const { universe, out } = ctx
  const months = closedMonths("2019-01", ctx.endDay, 12, ctx.scale === "small" ? 12 : 24)
  const funds = [...universe.funds].sort((a, b) => a.run - b.run)
  const assets = new Map<SampleFund, number>()
  for (const s of universe.series) assets.set(s.fund, (assets.get(s.fund) ?? 0) + s.initialUnits * s.initialPrice)
  const positions = new Map<SampleFund, Array<Position>>()
  const gap = { fund: universe.funds[5]!, month: months.at(-3)!.month }
  const sinInformacion = months.at(-5)!.month
  const files: Array<string> = []

  for (const [i, { month, last }] of months.entries()) {
    const naci = [NACI_HEADER]
    const extr = [EXTR_HEADER]
    for (const f of funds) {
      if (f.start > last || (f.end !== null && f.end < last)) continue
      let held = positions.get(f)
      if (held === undefined) {
        held = initialPositions(prng, f, last, prng.int(5, 18))
        positions.set(f, held)
      } else {
        for (const p of held) {
          p.weight *= Math.exp(0.08 * prng.normal())
          if (p.maturity !== null && p.maturity <= last) rollDebt(prng, p, last, isDeposit(p) ? [20, 360] : [400, 365 * 10])
        }
      }
      if (f === gap.fund && month === gap.month) continue
      const invested = 96 + 3.8 * prng.next()
      const total = held.reduce((sum, p) => sum + p.weight, 0)
      const thousands = ((assets.get(f) ?? 1e6) * (1 + 0.004 * i)) / 1000
      for (const p of [...held].sort((a, b) => b.weight - a.weight)) {
        const pct = (p.weight / total) * invested
        const line = rowOf(f, p, pct, Math.max(1, Math.round((thousands * pct) / 100)))
        ;(p.market === "N" ? naci : extr).push(line)
      }
    }
    const yyyymm = month.replace("-", "")
    const naciName = `ffm_NACI_${yyyymm}.txt`
    const extrName = `ffm_EXTR_${yyyymm}.txt`
    await writeFile(join(out, naciName), Buffer.from(naci.join("\n") + "\n", "latin1"))
    const extrText = month === sinInformacion ? "Sin información\r\n" : extr.join("\n") + "\n"
    await writeFile(join(out, extrName), Buffer.from(extrText, "latin1"))
    files.push(join(out, naciName), join(out, extrName))
  }
  return files
}
