/** Models of the public and key routes. */
import { Schema } from "effect"

export const Health = Schema.Struct({
  status: Schema.Literals(["ok", "degraded", "unavailable"]),
  last_scraped_date: Schema.NullOr(Schema.String).annotate({ description: "Batch date of the published snapshot" }),
  total_records: Schema.Int.annotate({ description: "Rows in the published snapshot's tables" }),
}).annotate({ identifier: "Health" })

export const Tier = Schema.Literals(["free", "institutional", "internal"]).annotate({ identifier: "Tier" })

export const KeyInfo = Schema.Struct({
  name: Schema.String,
  tier: Tier,
  daily_quota: Schema.NullOr(Schema.Int).annotate({ description: "null = no daily limit" }),
  quota_enforced: Schema.Boolean,
  created_at: Schema.String,
  requests_today: Schema.Int,
}).annotate({ identifier: "KeyInfo" })
