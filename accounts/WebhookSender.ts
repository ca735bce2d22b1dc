/**
 * One signed attempt of one delivery: a POST of the event's JSON body with the Standard Webhooks
 * headers (`webhook-id`: the event id, the same on every attempt; `webhook-timestamp`: the
 * attempt's Unix seconds; `webhook-signature`: `v1,<base64 HMAC-SHA256>` made by the
 * `standardwebhooks` library). Bounded: the whole attempt (connection, answer, reading) ends after
 * the timeout; at most 1 KiB of the answer is read; redirects are not followed (a 3xx is a failure);
 * the body sent is refused above 64 KiB. Only a 2xx counts as delivered. The connection goes only
 * to a public address (WebhookAddress.ts) unless private ones are allowed.
 */
import { isIP } from "node:net"
import { Webhook } from "standardwebhooks"
import { Agent, request } from "undici"
import { guardedLookup, hostOf, isPublicAddress } from "./WebhookAddress.ts"
import type { AttemptResult } from "./WebhookStore.ts"

/** The largest body a webhook carries (events are metadata: a few hundred bytes). */
export const MAX_BODY_BYTES = 64 * 1024

/** How much of an endpoint's answer is read (for the delivery's last_error). */
export const MAX_ANSWER_BYTES = 1024

export interface SendSettings {
  readonly timeoutMs: number
  readonly allowPrivate: boolean
}

/** The connection pools of the senders, one per setting of allowPrivate. */
const agents = new Map<boolean, Agent>()
const agentFor = (allowPrivate: boolean): Agent => {
  let agent = agents.get(allowPrivate)
  if (agent === undefined) {
    agent = new Agent({ connect: { lookup: guardedLookup(allowPrivate) }, keepAliveTimeout: 4_000, connections: 16 })
    agents.set(allowPrivate, agent)
  }
  return agent
}

/** The three headers of a signed webhook (and the content type). */
export const signedHeaders = (secret: string, eventId: string, body: string, atMs: number): Record<string, string> => {
  const timestamp = new Date(atMs)
  return {
    "content-type": "application/json",
    "user-agent": "fund-data-service-webhooks/1",
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(atMs / 1000)),
    "webhook-signature": new Webhook(secret).sign(eventId, timestamp, body),
  }
}

const describe = (e: unknown): string => {
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } }
  if (err.name === "TimeoutError" || err.name === "AbortError") return "timed out"
  const cause = err.cause?.code ?? err.cause?.message
  return [err.code, err.message, cause].filter((p) => p !== undefined && p !== "").join(": ").slice(0, 300)
}

/** Sends one attempt; never throws. */
export const sendSigned = async (
  url: string,
  secret: string,
  eventId: string,
  body: string,
  settings: SendSettings,
  atMs: number,
): Promise<AttemptResult> => {
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) return { delivered: false, status: null, error: `body over ${MAX_BODY_BYTES} bytes` }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { delivered: false, status: null, error: "not a URL" }
  }
  // a literal address is connected to without a look-up: checked here
  const host = hostOf(parsed)
  if (!settings.allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
    return { delivered: false, status: null, error: `${host} is not a public address` }
  }
  const signal = AbortSignal.timeout(settings.timeoutMs)
  try {
    const answer = await request(parsed, {
      method: "POST",
      headers: signedHeaders(secret, eventId, body, atMs),
      body,
      dispatcher: agentFor(settings.allowPrivate),
      signal,
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
    })
    let read = ""
    let bytes = 0
    for await (const chunk of answer.body) {
      const b = chunk as Buffer
      read += b.subarray(0, Math.max(0, MAX_ANSWER_BYTES - bytes)).toString("utf8")
      bytes += b.length
      if (bytes >= MAX_ANSWER_BYTES) {
        answer.body.destroy()
        break
      }
    }
    const delivered = answer.statusCode >= 200 && answer.statusCode < 300
    return {
      delivered,
      status: answer.statusCode,
      error: delivered ? null : `HTTP ${answer.statusCode}${read.trim() === "" ? "" : `: ${read.trim().slice(0, 200)}`}`,
    }
  } catch (e) {
    return { delivered: false, status: null, error: describe(e) }
  }
}
