/**
 * The AFM categories and the RAR families they belong to: the comparable groups behind family
 * indices (`/api/families/{family_rar}/index`), the market summary and benchmarks. Codes are those
 * of AFM Circular N°7 (2025). The AFM export itself is the afm_categories data set's
 * (pipeline/datasets/market/AfmCategories.ts).
 */
import { Schema } from "effect"

/** The 24 category codes of AFM Circular N°7 (2025). */
export const AFM_CATEGORY_CODES = [
  "RF<90NAC", "RF<90INTUSD", "RF<365NCLP", "RF<365NUF", "RF<365INT", "RF>365NCLP", "RF>365NUF<3",
  "RF>365NUF>3<5", "RF>365NUF>5", "RF>365INTMEMER", "RF>365INTMINT", "RF>365OF", "FDOBALCON", "FDOBALMOD",
  "FDOBALAGR", "FDOACCNACLC", "FDOACCEEUU", "FDOACCEUR", "FDOACCDES", "FDOACCALAT", "FDOACCAEME",
  "FDOACCEME", "FDOESTNOACC", "FDOICALDEU"
] as const

export const AfmCategoryCode = Schema.Literals(AFM_CATEGORY_CODES).annotate({
  description: "AFM Circular N°7 (2025) category code, e.g. FDOACCNACLC",
})
export type AfmCategoryCode = typeof AfmCategoryCode.Type

/** A comparable ("RAR") family: what a family index and a benchmark are computed for. */
export interface AfmFamily {
  /** The `family_rar` display name, e.g. "Accionario eeuu". */
  readonly familyRar: string
  /** Stable URL-safe key, e.g. "accionario-eeuu"; never changes once published. */
  readonly slug: string
  /** Wider group for display, e.g. "Accionario internacional". */
  readonly displayGroup: string
  /** AFM's official name of the category. */
  readonly categoryName: string
}

const family = (familyRar: string, slug: string, displayGroup: string, categoryName: string): AfmFamily => ({
  familyRar,
  slug,
  displayGroup,
  categoryName
})

const DEBT_NAT = "Deuda nacional"
const DEBT_INT = "Deuda internacional"
const EQ_INT = "Accionario internacional"

/** Every AFM category code and its RAR family (one family per code). */
export const AFM_FAMILIES: Readonly<Record<AfmCategoryCode, AfmFamily>> = {
  "RF<90NAC": family("Deuda < 90 días nacional", "deuda-menor-90-dias-nacional", DEBT_NAT, "Deuda Nacional con Duración ≤ 90 días"),
  "RF<90INTUSD": family("Deuda < 90 días internacional usd", "deuda-menor-90-dias-internacional-usd", DEBT_INT, "Deuda Internacional en USD con Duración ≤ 90 días"),
  "RF<365NCLP": family("Deuda < 365 días nacional pesos", "deuda-menor-365-dias-nacional-pesos", DEBT_NAT, "Deuda Nacional en Pesos con Duración ≤ 365 días"),
  "RF<365NUF": family("Deuda < 365 días nacional uf", "deuda-menor-365-dias-nacional-uf", DEBT_NAT, "Deuda Nacional en UF con Duración ≤ 365 días"),
  "RF<365INT": family("Deuda < 365 días internacional", "deuda-menor-365-dias-internacional", DEBT_INT, "Deuda Internacional con Duración ≤ 365 días"),
  "RF>365NCLP": family("Deuda > 365 días nacional pesos", "deuda-mayor-365-dias-nacional-pesos", DEBT_NAT, "Deuda Nacional en Pesos con Duración > 365 días"),
  "RF>365NUF<3": family("Deuda > 365 días nacional uf hasta 3 años", "deuda-mayor-365-dias-nacional-uf-hasta-3-anos", DEBT_NAT, "Deuda Nacional en UF con Duración > 365 días y ≤ 3 años"),
  "RF>365NUF>3<5": family("Deuda > 365 días nacional uf 3 a 5 años", "deuda-mayor-365-dias-nacional-uf-3-a-5-anos", DEBT_NAT, "Deuda Nacional en UF con Duración > 3 años y ≤ 5 años"),
  "RF>365NUF>5": family("Deuda > 365 días nacional uf más de 5 años", "deuda-mayor-365-dias-nacional-uf-mas-de-5-anos", DEBT_NAT, "Deuda Nacional en UF con Duración > 5 años"),
  "RF>365INTMEMER": family("Deuda > 365 días internacional emergente", "deuda-mayor-365-dias-internacional-emergente", DEBT_INT, "Deuda Internacional Mercados Emergentes con Duración > 365 días"),
  "RF>365INTMINT": family("Deuda > 365 días internacional desarrollado", "deuda-mayor-365-dias-internacional-desarrollado", DEBT_INT, "Deuda Internacional Mercados Internacionales con Duración > 365 días"),
  "RF>365OF": family("Deuda > 365 días origen flexible", "deuda-mayor-365-dias-origen-flexible", "Deuda flexible", "Deuda Origen Flexible con Duración > 365 días"),
  FDOBALCON: family("Balanceado conservador", "balanceado-conservador", "Balanceado", "Balanceado Conservador"),
  FDOBALMOD: family("Balanceado moderado", "balanceado-moderado", "Balanceado", "Balanceado Moderado"),
  FDOBALAGR: family("Balanceado agresivo", "balanceado-agresivo", "Balanceado", "Balanceado Agresivo"),
  FDOACCNACLC: family("Accionario nacional", "accionario-nacional", "Accionario nacional", "Accionario Nacional Large Cap"),
  FDOACCEEUU: family("Accionario eeuu", "accionario-eeuu", EQ_INT, "Accionario EE.UU."),
  FDOACCEUR: family("Accionario europa", "accionario-europa", EQ_INT, "Accionario Europa Desarrollada"),
  FDOACCDES: family("Accionario desarrollado", "accionario-desarrollado", EQ_INT, "Accionario Desarrollado"),
  FDOACCALAT: family("Accionario latam", "accionario-latam", EQ_INT, "Accionario América Latina"),
  FDOACCAEME: family("Accionario asia emergente", "accionario-asia-emergente", EQ_INT, "Accionario Asia Emergente"),
  FDOACCEME: family("Accionario emergente", "accionario-emergente", EQ_INT, "Accionario Emergente"),
  FDOESTNOACC: family("Estructurado", "estructurado", "Otros", "Estructurado No Accionario"),
  FDOICALDEU: family("Inversionistas calificados deuda", "inversionistas-calificados-deuda", "Otros", "Inversionistas Calificados Títulos de Deuda")
}

/** The family of a category code (null for an unclassified series). */
export const afmFamilyOf = (code: AfmCategoryCode | null): AfmFamily | null => (code === null ? null : AFM_FAMILIES[code])

/** Every family, by its display name (the `FAMILY_RAR` of the benchmark catalog). */
export const AFM_FAMILY_BY_NAME: ReadonlyMap<string, AfmFamily> = new Map(
  Object.values(AFM_FAMILIES).map((f) => [f.familyRar, f])
)
