/**
 * Parsed article 107 declarations (data set `article107`): what a fund's internal regulation says
 * about article 107 of the income tax law (Ley sobre Impuesto a la Renta), from one text file per RUN.
 */
import { Schema } from "effect"

export const Article107Status = Schema.Literals(["declares_eligible", "declares_not_eligible", "unknown"]).annotate({
  description: "What the fund's internal regulation declares about article 107 of the income tax law"
})
export type Article107Status = typeof Article107Status.Type

/** A sentence of the regulation that the classification rests on. */
export interface Article107Evidence {
  /** 1-based line of the file where the sentence starts. */
  readonly line: number
  /** The sentence, mojibake repaired, whitespace collapsed. */
  readonly text: string
}

/** The declaration of one fund's internal regulation. */
export interface Article107Record {
  /** Fund RUN without check digit (header `RUN=`). */
  readonly run: number
  /** Date of the regulation text (header `FECHA=`), YYYY-MM-DD. */
  readonly regulationDate: string
  readonly status: Article107Status
  /** The sentences that mention article 107 and decide `status`; empty when none mentions it. */
  readonly evidence: ReadonlyArray<Article107Evidence>
  /** Series the declaration does not apply to ("con excepción de la Serie APV"), possibly empty. */
  readonly seriesException: ReadonlyArray<string>
}
