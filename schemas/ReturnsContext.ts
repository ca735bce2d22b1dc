/**
 * What a returns answer says about the series besides its numbers: the CMF's official risk-adjusted
 * rating (spheres) and, for a renamed series, the rename that joins its history.
 */
import { Schema } from "effect"

export const CmfSpheres = Schema.Struct({
  value: Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 5 }))).annotate({
    description: "1 to 5 spheres; null when unavailable",
  }),
  status: Schema.Literals(["available", "unavailable"]),
  reason: Schema.NullOr(
    Schema.Literals(["source_unavailable", "not_in_source", "not_rated_by_cmf", "source_after_requested_date", "no_complete_cutoff"]),
  ),
  source: Schema.Literal("CMF"),
  indicator: Schema.Literal("ind_rar_pond"),
  scale_min: Schema.Literal(1),
  scale_max: Schema.Literal(5),
  as_of_date: Schema.NullOr(Schema.String).annotate({ description: "Date of the CMF rating, YYYY-MM-DD" }),
  family: Schema.NullOr(Schema.String).annotate({ description: "The CMF's comparison family" }),
  investor_type: Schema.NullOr(Schema.String).annotate({ description: "The CMF's investor type" }),
}).annotate({ identifier: "CmfSpheres", description: "The CMF's spheres (risk-adjusted return rating) of the series" })

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
