/**
 * What a returns answer says about the series besides its numbers: the CMF's official risk-adjusted
 * rating (spheres). (For a renamed series, the rename that joins its history: SeriesContinuity.ts.)
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
