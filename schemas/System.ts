/** Models of the public and key routes. */
import { Schema } from "effect"

/** One data set's freshness, as the last pipeline run saw it, judged on the day /health is asked. */
export const SourceHealth = Schema.Struct({
  data_set: Schema.String.annotate({ description: "The data set (e.g. cartola_diaria, fm_bpr_daily, fm_tac, indicators)" }),
  state: Schema.Literals(["fresh", "late", "waiting", "missing"]).annotate({
    description:
      "fresh: recent enough for its cadence (daily: at most two weekdays old; monthly: the month-end two months back or later; quarterly: six; irregular: present); late: older; waiting: not fetched unattended (no captcha command, no API credentials) and no fresh drop; missing: no input",
  }),
  cadence: Schema.Literals(["daily", "monthly", "quarterly", "irregular"]),
  latest_value_date: Schema.NullOr(Schema.String).annotate({ description: "The latest date its values are of (a monthly file: its month's last day)" }),
  last_received_at: Schema.NullOr(Schema.String).annotate({ description: "When its newest input was first recorded (ISO instant)" }),
  how: Schema.NullOr(Schema.Literals(["fetched", "dropped"])).annotate({ description: "Its newest input was fetched from the CMF (or an API), or dropped into the inbox" }),
  waiting: Schema.NullOr(Schema.String).annotate({ description: "Why it is not fetched unattended, when it is not" }),
}).annotate({ identifier: "SourceHealth" })

export const Health = Schema.Struct({
  status: Schema.Literals(["ok", "degraded", "unavailable"]),
  last_scraped_date: Schema.NullOr(Schema.String).annotate({ description: "Batch date of the published snapshot" }),
  batch_id: Schema.NullOr(Schema.String).annotate({
    description: "The batch served now (<batch date>-<16 hex digits of its content hash>), as data answers name it (Batch-Id, meta.batch_id); null when nothing is served",
  }),
  total_records: Schema.Int.annotate({ description: "Rows in the published snapshot's tables" }),
  reasons: Schema.Array(Schema.String).annotate({ description: "Why the status is not ok, one cause each (empty when ok)" }),
  sources: Schema.Array(SourceHealth).annotate({
    description: "Each data set's freshness from the last pipeline run's report (empty before a run reports it)",
  }),
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
