/** Models of the webhook routes (/api/webhooks): an endpoint, its creation (with the secret, once) and its deliveries. */
import { Schema } from "effect"

export const WebhookEventType = Schema.Literals(["batch.published", "batch.rolled_back", "values.restated", "tac.changed", "source.late"]).annotate({
  identifier: "WebhookEventType",
  description:
    "batch.published: a batch was published; batch.rolled_back: CURRENT was set back to an earlier batch; values.restated: daily values " +
    "differ from the previous batch (count and the /api/changes link); tac.changed: TACs differ from the previous batch (count and link); " +
    "source.late: a data set is older than its cadence allows",
})

export const WebhookId = Schema.String.check(Schema.isMaxLength(64)).annotate({
  description: "The endpoint's id (`whk_` and 16 hex digits)",
})

export const WebhookCreateRequest = Schema.Struct({
  url: Schema.String.check(Schema.isMaxLength(2000)).annotate({
    description: "Where events are POSTed: an https:// URL whose host resolves to public addresses only",
    format: "uri",
  }),
  events: Schema.Array(WebhookEventType)
    .check(Schema.isMinLength(1), Schema.isMaxLength(5))
    .annotate({ description: "The event types to receive (at least one)" }),
}).annotate({ identifier: "WebhookCreateRequest" })

const endpointFields = {
  id: WebhookId,
  url: Schema.String.annotate({ format: "uri" }),
  events: Schema.Array(WebhookEventType),
  created_at: Schema.String.annotate({ description: "ISO instant" }),
  disabled_at: Schema.NullOr(Schema.String).annotate({
    description:
      "ISO instant the endpoint was disabled: it answered 410 Gone (or its key was revoked), so nothing more is sent to it (its pending deliveries were given up); null: enabled",
  }),
}

export const WebhookEndpoint = Schema.Struct(endpointFields).annotate({
  identifier: "WebhookEndpoint",
  description: "A webhook endpoint of the key (its secret is never shown again)",
})

export const WebhookCreated = Schema.Struct({
  ...endpointFields,
  secret: Schema.String.annotate({
    description:
      "The signing secret (`whsec_…`), shown this once: give it to a Standard Webhooks library to verify each delivery's `webhook-signature`",
  }),
}).annotate({ identifier: "WebhookCreated" })

export const WebhookList = Schema.Struct({ data: Schema.Array(WebhookEndpoint) }).annotate({ identifier: "WebhookList" })

export const WebhookDelivery = Schema.Struct({
  event_id: Schema.String.annotate({ description: "The event id, sent as `webhook-id` (the same on every attempt)" }),
  type: Schema.String.annotate({ description: "The event type (`webhook.test` for a test event)" }),
  state: Schema.Literals(["pending", "delivered", "failed"]).annotate({
    description: "pending: to be tried (again) at next_attempt_at; delivered: an attempt got a 2xx; failed: given up (a day of retries, or the endpoint answered 410 Gone)",
  }),
  attempts: Schema.Int,
  next_attempt_at: Schema.NullOr(Schema.String).annotate({ description: "ISO instant of the next attempt (pending only)" }),
  last_status: Schema.NullOr(Schema.Int).annotate({ description: "The HTTP status of the last attempt; null: none came (refused, timed out)" }),
  last_error: Schema.NullOr(Schema.String).annotate({ description: "Why the last attempt failed" }),
  last_attempt_at: Schema.NullOr(Schema.String).annotate({ description: "ISO instant the last attempt ended" }),
}).annotate({ identifier: "WebhookDelivery" })

export const WebhookDeliveryList = Schema.Struct({ data: Schema.Array(WebhookDelivery) }).annotate({
  identifier: "WebhookDeliveryList",
  description: "The endpoint's latest 100 deliveries, newest first",
})
