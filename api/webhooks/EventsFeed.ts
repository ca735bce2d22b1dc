/**
 * GET /feeds/events.atom: the webhooks' events (not test ones) as a public Atom feed (RFC 4287),
 * for people who cannot host an endpoint: the latest 50, newest first, metadata only (each entry's
 * summary is its event body's `data`, its link the batch or the changes between two batches). No
 * key, behind the per-IP limit like every route; each entry's id is `urn:fds:event:<event id>`,
 * stable as the event id is.
 */
import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { AccountsConfig, publicLink } from "../../accounts/AccountsConfig.ts"
import { Webhooks } from "../../accounts/Webhooks.ts"

export const FEED_PATH = "/feeds/events.atom"

/** Method and path of the feed for api/NotFound.ts. */
export const FEED_ROUTES = [["GET", FEED_PATH]] as const

const FEED_ENTRIES = 50

const escapeXml = (s: string): string =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!)

interface Entry {
  readonly id: string
  readonly type: string
  readonly createdMs: number
  readonly body: string
}

const TITLES: Readonly<Record<string, (d: Record<string, unknown>) => string>> = {
  "batch.published": (d) => `Batch ${d.batch_id} published`,
  "batch.rolled_back": (d) => `Rolled back to batch ${d.batch_id}`,
  "values.restated": (d) => `${d.values_restated} daily values restated in batch ${d.to_batch_id}`,
  "tac.changed": (d) => `${d.tac_changed} TACs changed in batch ${d.to_batch_id}`,
  "source.late": (d) => `Data set ${d.data_set} is late (latest values of ${d.latest_value_date ?? "none"})`,
}

/** The feed's XML over `entries` (newest first); `self` is the feed's own absolute URL. */
export const atomFeed = (entries: ReadonlyArray<Entry>, self: string, nowMs: number): string => {
  const items = entries.map((e) => {
    const data = (JSON.parse(e.body) as { data?: Record<string, unknown> }).data ?? {}
    const links = (data.links ?? {}) as Record<string, string>
    const href = links.changes ?? links.batch ?? links.health
    const title = TITLES[e.type]?.(data) ?? e.type
    return [
      "  <entry>",
      `    <id>urn:fds:event:${escapeXml(e.id)}</id>`,
      `    <title>${escapeXml(title)}</title>`,
      `    <updated>${new Date(e.createdMs).toISOString()}</updated>`,
      `    <category term="${escapeXml(e.type)}"/>`,
      ...(href === undefined ? [] : [`    <link rel="alternate" type="application/json" href="${escapeXml(href)}"/>`]),
      `    <summary type="text">${escapeXml(JSON.stringify(data))}</summary>`,
      "  </entry>",
    ].join("\n")
  })
  const updated = new Date(entries[0]?.createdMs ?? nowMs).toISOString()
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    "  <id>urn:fds:events</id>",
    "  <title>Fund Data Service events</title>",
    `  <updated>${updated}</updated>`,
    "  <author><name>Fund Data Service</name></author>",
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(self)}"/>`,
    ...items,
    "</feed>",
    "",
  ].join("\n")
}

export const FeedRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const webhooks = yield* Webhooks
    const config = yield* AccountsConfig
    const self = publicLink(config, FEED_PATH)
    return yield* router.add(
      "GET",
      FEED_PATH,
      Effect.gen(function* () {
        const entries = yield* webhooks.feed(FEED_ENTRIES)
        return HttpServerResponse.text(atomFeed(entries, self, Date.now()), {
          contentType: "application/atom+xml; charset=utf-8",
          headers: { "cache-control": "public, max-age=60" },
        })
      }).pipe(
        Effect.catchTag("AccountsUnavailable", () =>
          Effect.succeed(
            HttpServerResponse.jsonUnsafe(
              { error: "accounts_unavailable", status: 503, message: "the events cannot be read now; retry later" },
              { status: 503, headers: { "retry-after": "5" } },
            ),
          ),
        ),
      ),
    )
  }),
)
