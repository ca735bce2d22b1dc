/**
 * A renamed series: its previous and current ids are one identity with one continuous history.
 * The one model of the contract: the all-funds rows, the compare and screener attributes and the
 * returns answers all carry it.
 */
import { Schema } from "effect"

export const SeriesContinuity = Schema.Struct({
  type: Schema.Literal("rename"),
  previousSerie: Schema.String.annotate({ description: "Label before the (latest) rename" }),
  currentSerie: Schema.String.annotate({ description: "Label after it" }),
  firstCurrentDate: Schema.String.annotate({ description: "First observed date with the new label, YYYY-MM-DD" }),
  aliasIds: Schema.Array(Schema.String).annotate({ description: "The current id first, then the previous ids" }),
}).annotate({
  identifier: "SeriesContinuity",
  description: "A renamed series: one identity, one continuous history, reachable by every id",
})
