/** Words the API uses for CMF codes. */

/** CMF fund type (Tipo de Fondo Mutuo 1–8) → `category`. */
export const FUND_TYPE_CATEGORY: Readonly<Record<number, string>> = {
  1: "money_market_90d",
  2: "debt_365d",
  3: "debt_medium_long",
  4: "balanced",
  5: "equity",
  6: "free_investment",
  7: "structured",
  8: "qualified_investors",
}

/** CMF MONEDA codes → ISO 4217. `MONEDA NO DEF.` and unknown codes → null. */
export const currencyOf = (code: string | null): string | null => {
  switch (code?.trim().toUpperCase()) {
    case "$$":
    case "PESOS":
    case "CLP":
      return "CLP"
    case "PROM":
    case "DOLAR":
    case "USD":
      return "USD"
    case "EUR":
    case "EURO":
      return "EUR"
    default:
      return null
  }
}

/**
 * Investor class from the series label, since CMF publishes none: a label containing "APV" is
 * APV; I, INST, INSTITUCIONAL, ALTO or a label starting with "I-" is Institutional; others Retail.
 */
export const INVESTOR_CLASSES = ["APV", "Institutional", "Retail"] as const
export const investorClassOf = (serie: string): (typeof INVESTOR_CLASSES)[number] => {
  const s = serie.trim().toUpperCase()
  if (s.includes("APV")) return "APV"
  if (s === "I" || s === "INST" || s === "INSTITUCIONAL" || s === "ALTO" || s.startsWith("I-")) return "Institutional"
  return "Retail"
}
