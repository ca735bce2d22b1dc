/**
 * Webhook endpoints, managed with the API key (X-Api-Key or `Authorization: Bearer`): create one
 * (its signing secret is in that answer only), list them, delete one, list its deliveries, send it
 * a test event. A key sees its own endpoints only. Not data routes: no batch, no answer cache.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { dataErrors, InvalidParameterResponse, NotFoundResponse } from "../../schemas/ApiErrors.ts"
import { WebhookCreated, WebhookCreateRequest, WebhookDelivery, WebhookDeliveryList, WebhookId, WebhookList } from "../../schemas/Webhooks.ts"
import { ApiKeyAuth } from "../security/Security.ts"

const params = { webhook_id: WebhookId }

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("createWebhook", "/api/webhooks", {
      payload: WebhookCreateRequest,
      success: WebhookCreated.pipe(HttpApiSchema.status(201)),
      error: dataErrors(InvalidParameterResponse),
    }).annotate(OpenApi.Summary, "Create a webhook endpoint; the answer holds its signing secret, shown this once"),
    HttpApiEndpoint.get("webhooks", "/api/webhooks", {
      success: WebhookList,
      error: dataErrors(),
    }).annotate(OpenApi.Summary, "The key's webhook endpoints (without their secrets)"),
    HttpApiEndpoint.delete("deleteWebhook", "/api/webhooks/:webhook_id", {
      params,
      success: HttpApiSchema.NoContent,
      error: dataErrors(NotFoundResponse),
    }).annotate(OpenApi.Summary, "Delete a webhook endpoint and its pending deliveries"),
    HttpApiEndpoint.get("webhookDeliveries", "/api/webhooks/:webhook_id/deliveries", {
      params,
      success: WebhookDeliveryList,
      error: dataErrors(NotFoundResponse),
    }).annotate(OpenApi.Summary, "A webhook endpoint's latest deliveries and their state"),
    HttpApiEndpoint.post("testWebhook", "/api/webhooks/:webhook_id/test", {
      params,
      success: WebhookDelivery,
      error: dataErrors(NotFoundResponse),
    }).annotate(OpenApi.Summary, "Send a signed `webhook.test` event to the endpoint now; the delivery after that attempt"),
  )
  .middleware(ApiKeyAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "Webhooks",
      description: "Signed push (Standard Webhooks) of batch.published, batch.rolled_back, values.restated, tac.changed and source.late",
    }),
  ) {}
