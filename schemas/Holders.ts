/** "Who holds this" (GET /api/holders): the FM and FI portfolios holding one instrument or issuer in a month. */
import { Schema } from "effect"
import { MetaBatchId } from "./Batches.ts"

export const Holder = Schema.Struct({
  id: Schema.String.annotate({ description: "<vehicle>_<run>_<month or quarter>_<market>_<position>" }),
  type: Schema.Literal("holder"),
  attributes: Schema.Struct({
    vehicle: Schema.Literals(["mutual_fund", "investment_fund"]).annotate({
      description: "mutual_fund: a monthly FM portfolio (CMF Circular 1333); investment_fund: a quarterly FI or ETF portfolio",
    }),
    run: Schema.Int.annotate({ description: "The holding fund's RUN, without check digit" }),
    fund_name: Schema.NullOr(Schema.String),
    instrument_id: Schema.NullOr(Schema.String).annotate({ description: "The FI/ETF instrument UUID (investment funds); null for mutual funds" }),
    month: Schema.String.annotate({ description: "The portfolio's month, YYYY-MM (an FI portfolio's quarter-end month)" }),
    market_code: Schema.Literals(["N", "E"]).annotate({ description: "N national, E foreign portfolio" }),
    position: Schema.Int,
    nemotecnico: Schema.NullOr(Schema.String),
    isin: Schema.NullOr(Schema.String).annotate({ description: "ISIN or CUSIP where the portfolio reports one (FI foreign positions)" }),
    emisor: Schema.NullOr(Schema.String),
    emisor_rut: Schema.NullOr(Schema.Int),
    tipo_instrumento: Schema.String,
    valorizacion: Schema.Finite.annotate({ description: "As CMF reports it: thousands of the holding fund's functional currency" }),
    pct_activo_fondo: Schema.NullOr(Schema.Finite).annotate({ description: "CMF's percentage of the fund's assets (12.5 = 12.5 %)" }),
    weight: Schema.NullOr(Schema.Finite).annotate({ description: "pct_activo_fondo as a decimal fraction (0.125)" }),
  }),
}).annotate({ identifier: "Holder" })

export const HoldersResponse = Schema.Struct({
  data: Schema.Array(Holder),
  meta: Schema.Struct({
    batch_id: MetaBatchId,
    by: Schema.Literals(["instrument", "isin", "issuer_rut"]).annotate({ description: "Which parameter named what is held" }),
    value: Schema.String.annotate({ description: "What was looked for, as matched (trimmed, upper case; a RUT without check digit)" }),
    month: Schema.NullOr(Schema.String).annotate({ description: "The mutual funds' month (the latest FM portfolio month when not given); null when none" }),
    fi_period: Schema.NullOr(Schema.String).annotate({
      description: "The investment funds' quarter: the latest FI portfolio period on or before the month; null when none",
    }),
    total: Schema.Int,
    order: Schema.String.annotate({ description: "How the rows are ordered" }),
  }),
}).annotate({ identifier: "HoldersResponse" })
