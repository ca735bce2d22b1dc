/** Models of the probes: liveness (/livez) and readiness (/readyz). */
import { Schema } from "effect"

export const Liveness = Schema.Struct({
  status: Schema.Literal("alive").annotate({ description: "The process answers: its event loop turns" }),
}).annotate({ identifier: "Liveness" })

const readinessFields = {
  reasons: Schema.Array(Schema.String).annotate({ description: "Why it cannot serve now, one cause each (empty when ready)" }),
}

export const Ready = Schema.Struct({
  status: Schema.Literal("ready").annotate({ description: "It can answer keyed data requests on the fleet's current batch now" }),
  ...readinessFields,
}).annotate({ identifier: "Ready" })

export const NotReady = Schema.Struct({
  status: Schema.Literal("not_ready").annotate({
    description: "Take it out of rotation: nothing published, the accounts store or the ledger unreadable, draining, or not on the fleet's batch",
  }),
  ...readinessFields,
})
