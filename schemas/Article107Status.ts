/**
 * What a fund's internal regulation declares about article 107 of the income tax law (Ley sobre
 * Impuesto a la Renta), as the API publishes it. The declarations themselves are the article107
 * data set's (pipeline/datasets/fm/Article107.ts).
 */
import { Schema } from "effect"

export const Article107Status = Schema.Literals(["declares_eligible", "declares_not_eligible", "unknown"]).annotate({
  description: "What the fund's internal regulation declares about article 107 of the income tax law"
})
export type Article107Status = typeof Article107Status.Type
