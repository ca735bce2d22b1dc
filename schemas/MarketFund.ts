/** Response models of /api/funds/{run}/cartera/* and /api/funds/{run}/article107. */
import { Schema } from "effect"
import { MetaBatchId } from "./Batches.ts"

const Str = Schema.NullOr(Schema.String)

const CarteraMeta = Schema.Struct({
  batch_id: MetaBatchId,
  run: Schema.String,
  fundId: Schema.String,
  fundName: Schema.String,
  month: Schema.String,
  market: Schema.String,
  availability: Schema.Struct({ N: Schema.String, E: Schema.String }),
  valuation_unit: Schema.String,
  percentage_unit: Schema.String,
  count: Schema.Int,
})

export const HoldingsResponse = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      type: Schema.Literal("holding"),
      attributes: Schema.Struct({
        market: Schema.String.annotate({ description: "nacional or extranjera" }),
        market_code: Schema.String.annotate({ description: "N or E" }),
        nemotecnico: Schema.String,
        emisor: Str,
        emisor_rut: Schema.NullOr(Schema.Int),
        pais: Str,
        tipo_instrumento: Schema.String,
        fecha_vencimiento: Str,
        valorizacion: Schema.Finite.annotate({ description: "Thousands of the fund's functional currency, as CMF reports it" }),
        pct_activo_fondo: Schema.Finite.annotate({ description: "Percent of fund assets, as CMF reports it" }),
        weight: Schema.Finite.annotate({ description: "The same weight as a decimal fraction" }),
      }),
    }),
  ),
  meta: CarteraMeta,
}).annotate({ identifier: "HoldingsResponse", description: "Portfolio positions, largest weight first" })

export const ResumenResponse = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      type: Schema.Literal("cartera_resumen"),
      attributes: Schema.Struct({
        tipo_instrumento: Schema.String,
        num_holdings: Schema.Int,
        valorizacion_nacional: Schema.Finite,
        valorizacion_extranjera: Schema.Finite,
        pct_activo_fondo: Schema.Finite,
        weight: Schema.Finite,
      }),
    }),
  ),
  meta: CarteraMeta,
}).annotate({ identifier: "ResumenResponse", description: "Portfolio grouped by instrument type, national plus foreign" })

export const Article107EvidenceResponse = Schema.Struct({
  text: Str.annotate({ description: "The first deciding sentence" }),
  page: Schema.NullOr(Schema.Int),
  offset: Schema.NullOr(Schema.Int),
  line: Schema.NullOr(Schema.Int).annotate({ description: "Line of the regulation where that sentence starts" }),
  section: Str,
  seriesException: Schema.Boolean.annotate({ description: "Whether some series are excepted from the declaration" }),
  exceptedSeries: Schema.Array(Schema.String).annotate({ description: "The excepted series labels" }),
  sentences: Schema.Array(Schema.Struct({ line: Schema.Int, text: Schema.String })),
  ruleId: Schema.String,
  parserVersion: Schema.String,
  classifierVersion: Schema.String,
}).annotate({ identifier: "Article107EvidenceResponse" })

export const Article107DetailResponse = Schema.Struct({
  run: Schema.String,
  fundId: Schema.String,
  fundName: Schema.String,
  article107RegulationStatus: Schema.Literals(["declares_eligible", "declares_not_eligible", "unknown"]),
  sourceFreshness: Schema.Literals(["fresh", "stale", "unknown"]),
  statusReason: Str,
  regulationDate: Str,
  lastSuccessfulAssessmentAt: Str,
  updatedAt: Str,
  source: Schema.Struct({
    cmfDocumentId: Str,
    observedCmfDocumentId: Str,
    url: Str,
    sha256: Str,
    cmfDepositDate: Str,
    cmfLastModifiedDate: Str,
    fetchedAt: Str,
  }),
  review: Schema.Struct({ status: Str, reviewedAt: Str, reviewedBy: Str, note: Str }),
  evidence: Schema.NullOr(Article107EvidenceResponse),
  disclaimer: Schema.String,
}).annotate({ identifier: "Article107DetailResponse" })
