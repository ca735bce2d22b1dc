/**
 * /api/real_assets/{asset_id}/days as CSV (`?format=csv`, or `Accept: text/csv`): a header line,
 * then one line per date, ascending, with the values the JSON answer gives (ISO dates, decimals as
 * JSON writes them, with `.`). FM series: `date,price`; FI/ETF series add the JSON's
 * `currency,price_source,price_basis`. The same 404 and 422 as JSON, as JSON error bodies.
 * The answer has its own ETag (its representation: the request with `format=csv`), so a CSV is
 * never validated by the JSON's tag, and `Vary: Accept`.
 */
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { intToDate } from "../../schemas/Dates.ts"
import { bookValues } from "../../snapshots/readers/FiBookValues.ts"
import { resolveAssetId } from "../../snapshots/readers/ReturnsSeries.ts"
import { requireFiSubject } from "../fi/FiReturns.ts"
import { entityTag } from "../http/Caching.ts"
import { requestUrl } from "../http/Recent.ts"
import type { AssetRef } from "../returns/ReturnsSubject.ts"
import { seriesNotFound } from "../returns/ReturnsSubject.ts"
import { PinnedSnapshot } from "../snapshot/Pinned.ts"

export const CSV_MEDIA_TYPE = "text/csv"

/** Accept's q-value for each media range it names, lower-cased. */
const accepted = (header: string): Map<string, number> => {
  const q = new Map<string, number>()
  for (const part of header.split(",")) {
    const [range, ...params] = part.trim().toLowerCase().split(";")
    if (range === undefined || range === "") continue
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
    const value = qp === undefined ? 1 : Number(qp.slice(2))
    q.set(range.trim(), Number.isFinite(value) ? value : 0)
  }
  return q
}

/**
 * CSV when `format=csv`; without `format`, when Accept names text/csv and ranks it above
 * application/json (JSON stays the answer to `*\/*`, to no Accept and to a tie).
 */
export const wantsCsv = (format: "json" | "csv" | undefined, accept: string | undefined): boolean => {
  if (format !== undefined) return format === "csv"
  if (accept === undefined) return false
  const q = accepted(accept)
  const csv = q.get(CSV_MEDIA_TYPE) ?? 0
  return csv > 0 && csv > (q.get("application/json") ?? 0)
}

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
export const csvField = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text)

const csvResponse = (body: string, assetText: string, contentHash: string, target: string) => {
  const url = new URL(requestUrl(target))
  url.searchParams.set("format", "csv")
  return HttpServerResponse.text(body, {
    contentType: `${CSV_MEDIA_TYPE}; charset=utf-8; header=present`,
    headers: {
      etag: entityTag(contentHash, `${url.pathname}${url.search}`, "identity"),
      vary: "Accept",
      "content-disposition": `inline; filename="${assetText}-days.csv"`,
    },
  })
}

/** The series' days from `from` to `to` (YYYYMMDD, inclusive) as CSV; 404 when the id names no series of the batch (503 without FI data for a UUID). */
export const daysCsvResponse = Effect.fn(function* (ref: AssetRef, assetText: string, from: number, to: number, target: string) {
  const lease = yield* PinnedSnapshot
  if (ref.kind === "fi") {
    const s = yield* requireFiSubject(assetText.toLowerCase(), assetText)
    const body = yield* lease.read((r) => {
      const tail = `,${csvField(s.serie.currency ?? "")},cmf,valor_libro\n`
      let text = "date,price,currency,price_source,price_basis\n"
      for (const row of bookValues(r, s.serie.serie_id, from, to)) text += `${intToDate(row.date)},${row.book_value}${tail}`
      return text
    })
    return csvResponse(body, assetText, lease.contentHash, target)
  }
  const body = yield* lease.read((r) => {
    const current = resolveAssetId(r.db, ref.id)
    if (current === null) return null
    let text = "date,price\n"
    for (const [date, price] of r.daysFrom(current, from) as Array<[number, number]>) {
      if (date > to) break // ascending
      text += `${intToDate(date)},${price}\n`
    }
    return text
  })
  return body === null ? yield* seriesNotFound(assetText) : csvResponse(body, assetText, lease.contentHash, target)
})
