/**
 * The events of a published batch and of a rollback, by worked examples (accounts/WebhookEvents.ts):
 * their stable ids, their bodies and links under a public URL with a path prefix, restatements and
 * TAC changes only when there are some, a late source once per latest date; and the Atom feed's
 * XML (api/webhooks/EventsFeed.ts) escapes what it quotes.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { describe, expect, it } from "vitest"
import { eventBody, publishedEvents, rolledBackEvent } from "../../accounts/WebhookEvents.ts"
import { atomFeed } from "../../api/webhooks/EventsFeed.ts"

const PUBLIC = new URL("https://fds.example.cl/prefix/")
const AT = Date.parse("2026-11-20T10:30:00Z")
const facts = {
  batchId: "2026-11-20-00000000000000bb",
  batchDate: "2026-11-20",
  contentHash: `00000000000000bb${"0".repeat(48)}`,
  rowCounts: { quotas: 10 },
  previousBatchId: "2026-11-19-00000000000000aa",
  changes: { valuesRestated: 3, tacChanged: 0, complete: true },
  late: [{ dataSet: "fm_tac", cadence: "monthly", latestValueDate: "2026-08-31" }],
}

describe("webhook events", () => {
  it("a published batch: batch.published, values.restated with its count and link, no tac.changed at 0, source.late", () => {
    const events = publishedEvents(facts, PUBLIC, AT)
    expect(events.map((e) => e.id)).toEqual([
      "evt_2026-11-20-00000000000000bb_batch.published",
      "evt_2026-11-20-00000000000000bb_values.restated",
      "evt_source.late_fm_tac_2026-08-31",
    ])
    const changes = "https://fds.example.cl/prefix/api/changes?from_batch=2026-11-19-00000000000000aa&to_batch=2026-11-20-00000000000000bb"
    expect(events[0]!.data).toEqual({
      batch_id: facts.batchId,
      batch_date: "2026-11-20",
      content_hash: facts.contentHash,
      previous_batch_id: facts.previousBatchId,
      row_counts: { quotas: 10 },
      links: { batch: "https://fds.example.cl/prefix/api/batches/2026-11-20-00000000000000bb", changes },
    })
    expect(events[1]!.data).toEqual({
      batch_id: facts.batchId,
      batch_date: "2026-11-20",
      from_batch_id: facts.previousBatchId,
      to_batch_id: facts.batchId,
      counts_complete: true,
      values_restated: 3,
      links: { changes },
    })
    expect(JSON.parse(eventBody(events[2]!))).toEqual({
      type: "source.late",
      timestamp: "2026-11-20T10:30:00.000Z",
      data: {
        data_set: "fm_tac",
        cadence: "monthly",
        latest_value_date: "2026-08-31",
        noticed_with_batch_id: facts.batchId,
        links: { health: "https://fds.example.cl/prefix/health" },
      },
    })
    // the first batch: nothing to compare with, no changes link
    const first = publishedEvents({ ...facts, previousBatchId: null, changes: null, late: [] }, PUBLIC, AT)
    expect(first.map((e) => e.type)).toEqual(["batch.published"])
    expect(first[0]!.data.links).toEqual({ batch: "https://fds.example.cl/prefix/api/batches/2026-11-20-00000000000000bb" })
  })

  it("a rollback: its id names the ledger event, so two rollbacks to one batch are two events", () => {
    const r = { seq: 41, batchId: "2026-11-19-00000000000000aa", batchDate: "2026-11-19", fromBatchId: "2026-11-20-00000000000000bb" }
    expect(rolledBackEvent(r, PUBLIC, AT)).toEqual({
      id: "evt_2026-11-19-00000000000000aa_batch.rolled_back_41",
      type: "batch.rolled_back",
      createdMs: AT,
      data: {
        batch_id: "2026-11-19-00000000000000aa",
        batch_date: "2026-11-19",
        rolled_back_batch_id: "2026-11-20-00000000000000bb",
        links: { batch: "https://fds.example.cl/prefix/api/batches/2026-11-19-00000000000000aa" },
      },
    })
    expect(rolledBackEvent({ ...r, seq: 42 }, PUBLIC, AT).id).not.toBe(rolledBackEvent(r, PUBLIC, AT).id)
  })

  it("the Atom feed escapes what it quotes and parses", () => {
    const event = publishedEvents({ ...facts, late: [{ dataSet: 'a<b>&"c', cadence: "daily", latestValueDate: null }] }, PUBLIC, AT)[2]!
    const xml = atomFeed([{ id: event.id, type: event.type, createdMs: AT, body: eventBody(event) }], "https://fds.example.cl/prefix/feeds/events.atom", AT)
    expect(XMLValidator.validate(xml)).toBe(true)
    const doc = new XMLParser({ ignoreAttributes: false, isArray: (n) => n === "entry" }).parse(xml) as {
      feed: { entry: Array<{ id: string; title: string; link: { "@_href": string } }>; updated: string }
    }
    expect(doc.feed.entry[0]).toMatchObject({
      id: 'urn:fds:event:evt_source.late_a<b>&"c_none',
      title: 'Data set a<b>&"c is late (latest values of none)',
      link: { "@_href": "https://fds.example.cl/prefix/health" },
    })
    expect(doc.feed.updated).toBe("2026-11-20T10:30:00.000Z")
    // no events: still a valid feed
    expect(XMLValidator.validate(atomFeed([], "https://fds.example.cl/feeds/events.atom", AT))).toBe(true)
  })
})
