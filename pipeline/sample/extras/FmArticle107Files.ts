/**
 * The sample's internal regulations (`art107_<RUN>.txt`, our assumed layout): a header line, a few
 * titles of a real regulation's shape, the tax paragraph that declares (or not) article 107, and
 * the closing line.
 */
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { isoOf } from "../Calendar.ts"
import type { Prng } from "../Prng.ts"
import type { SampleFund, Universe } from "../Universe.ts"
import type { ExtrasContext } from "./ExtrasContext.ts"

const LAW = "de la Ley sobre Impuesto a la Renta"
const TYPE_NAMES: Readonly<Record<number, string>> = {
  1: "Fondo Mutuo de Inversión en Instrumentos de Deuda de Corto Plazo con Duración menor o igual a 90 días",
  2: "Fondo Mutuo de Inversión en Instrumentos de Deuda de Corto Plazo con Duración menor o igual a 365 días",
  3: "Fondo Mutuo de Inversión en Instrumentos de Deuda de Mediano y Largo Plazo",
  4: "Fondo Mutuo Mixto",
  5: "Fondo Mutuo de Inversión en Instrumentos de Capitalización",
  6: "Fondo Mutuo de Libre Inversión",
  7: "Fondo Mutuo Estructurado",
  8: "Fondo Mutuo Dirigido a Inversionistas Calificados"
}
const CURRENCY_NAMES = { $$: "Pesos chilenos", PROM: "Dólares de los Estados Unidos de América", EUR: "Euros" } as const

export type Declaration =
  | { readonly kind: "eligible" }
  | { readonly kind: "eligible_except"; readonly serie: string }
  | { readonly kind: "eligible_then_excluded"; readonly serie: string }
  | { readonly kind: "not_eligible" }
  | { readonly kind: "mention_only" }
  | { readonly kind: "silent" }

const taxParagraph = (d: Declaration): Array<string> => {
  switch (d.kind) {
    case "eligible":
      return [`El Fondo se acogerá a lo dispuesto en el artículo 107 ${LAW}, por lo que sus partícipes podrán`, "acceder al beneficio tributario establecido en dicha norma."]
    case "eligible_except":
      return [`Las cuotas del Fondo podrán acogerse al beneficio tributario del artículo 107 ${LAW},`, `con excepción de la Serie ${d.serie}, la cual no podrá acogerse a dicho beneficio.`]
    case "eligible_then_excluded":
      return [`El Fondo se acogerá al artículo 107 ${LAW}.`, `La Serie ${d.serie} no se acogerá al artículo 107 ${LAW}.`]
    case "not_eligible":
      return [`El Fondo no se acogerá a lo dispuesto en el artículo 107 ${LAW}, dado que su política de inversión`, "no contempla instrumentos con presencia bursátil."]
    case "mention_only":
      return ["Los partícipes deberán consultar con sus asesores el tratamiento tributario de sus inversiones,", `incluido lo dispuesto en el artículo 107 ${LAW}.`]
    case "silent":
      return [`El tratamiento tributario de las cuotas del Fondo se regirá por las normas generales ${LAW}.`]
  }
}

/** The whole text of `fund`'s regulation dated `date`. */
export const regulationText = (universe: Universe, fund: SampleFund, date: string, d: Declaration): string => {
  const labels = universe.series.filter((s) => s.fund === fund).map((s) => s.renamed?.label ?? s.label)
  return [
    `REGLAMENTO INTERNO;RUN=${fund.run};FECHA=${date}`,
    "",
    "TÍTULO I. CARACTERÍSTICAS DEL FONDO",
    "",
    `1. Nombre del Fondo Mutuo: ${fund.name}.`,
    `2. Sociedad Administradora: ${fund.admin.name}`,
    `3. Tipo de Fondo: ${TYPE_NAMES[fund.type] ?? "Fondo Mutuo"}.`,
    `4. Moneda en que se llevará la contabilidad del Fondo: ${CURRENCY_NAMES[fund.currency]}.`,
    "",
    "TÍTULO II. POLÍTICA DE INVERSIÓN",
    "",
    "El objetivo del Fondo es ofrecer una alternativa de inversión a personas naturales y jurídicas,",
    "mediante una cartera diversificada según lo dispuesto en este Reglamento Interno.",
    "",
    "TÍTULO III. TRATAMIENTO TRIBUTARIO",
    "",
    ...taxParagraph(d),
    "",
    "TÍTULO IV. SERIES, REMUNERACIONES Y GASTOS",
    "",
    `El Fondo contempla ${labels.length === 1 ? "la serie" : "las series"} ${labels.join(", ")}.`,
    "",
    "FIN REGLAMENTO INTERNO"
  ].join("\r\n") + "\r\n"
}

/**
 * Writes regulations for a handful of funds: fund 0 is eligible except its APV series, 5 eligible,
 * 6 eligible with a later sentence excluding its last series (when it has two), 2 not eligible
 * (written as UTF-8: its accents arrive as mojibake), 3 names the article without declaring, 4 is
 * silent. At full scale about one active fund in twenty more, with a random declaration.
 */
export const writeArticle107Files = async (ctx: ExtrasContext, prng: Prng): Promise<Array<string>> => {
  const { universe, out } = ctx
  const funds = universe.funds
  const lastLabel = (f: SampleFund) => universe.series.filter((s) => s.fund === f).at(-1)!.label
  const seriesCount = (f: SampleFund) => universe.series.filter((s) => s.fund === f).length
  const chosen: Array<[SampleFund, Declaration]> = [
    [funds[0]!, { kind: "eligible_except", serie: "APV" }],
    [funds[5]!, { kind: "eligible" }],
    [funds[6]!, seriesCount(funds[6]!) > 1 ? { kind: "eligible_then_excluded", serie: lastLabel(funds[6]!) } : { kind: "eligible" }],
    [funds[2]!, { kind: "not_eligible" }],
    [funds[3]!, { kind: "mention_only" }],
    [funds[4]!, { kind: "silent" }]
  ]
  if (ctx.scale === "full") {
    const kinds: ReadonlyArray<Declaration> = [{ kind: "eligible" }, { kind: "not_eligible" }, { kind: "mention_only" }, { kind: "silent" }]
    for (const f of funds.slice(7)) if (f.end === null && prng.chance(0.05)) chosen.push([f, prng.pick(kinds)])
  }
  const files: Array<string> = []
  for (const [fund, declaration] of chosen) {
    const date = isoOf(Math.max(fund.start, ctx.endDay - prng.int(60, 900)))
    const text = regulationText(universe, fund, date, declaration)
    const name = `art107_${fund.run}.txt`
    await writeFile(join(out, name), Buffer.from(text, fund.index === 2 ? "utf8" : "latin1"))
    files.push(join(out, name))
  }
  return files
}
