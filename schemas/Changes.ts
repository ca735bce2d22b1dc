/**
 * Response model of `GET /api/changes`: what changed from one published batch to another, as a
 * list of items in one fixed order (registry, series, TAC, daily values), paged by a cursor.
 * Each item says what it is by `type`; its `id` is unique in the feed between two batches.
 */
import { Schema } from "effect"
import { MetaBatchId } from "./Batches.ts"
import { PageLinks } from "./Paging.ts"

/** A date in an item, YYYY-MM-DD. */
const Day = Schema.String.annotate({ description: "YYYY-MM-DD" })

export const ChangeVehicle = Schema.Literals(["mutual_fund", "etf", "investment_fund"]).annotate({
  identifier: "ChangeVehicle",
  description: "mutual_fund (ids are decimal CRC32), etf or investment_fund (ids are UUIDs)",
})
export type ChangeVehicle = typeof ChangeVehicle.Type

export const ValueSource = Schema.Literals(["cartola", "bpr", "cmf"]).annotate({
  identifier: "ValueSource",
  description:
    "cartola: the CMF's daily cartola (final); bpr: its daily BPR report (provisional, valor cuota to 4 decimals); " +
    "cmf: the CMF's FI/ETF book values (valor libro)",
})
export type ValueSource = typeof ValueSource.Type

const item = <T extends string, A extends Schema.Top>(type: T, description: string, attributes: A) =>
  Schema.Struct({
    id: Schema.String.annotate({ description: "Unique in the feed between two batches: `<type>:<key>`" }),
    type: Schema.Literal(type),
    attributes,
  }).annotate({ description })

const seriesRef = {
  vehicle: ChangeVehicle,
  asset_id: Schema.String.annotate({ description: "Series id, as on /api/real_assets/{asset_id}/*" }),
}

export const ValueRestated = item(
  "value_restated",
  "A daily value (FM valor cuota, FI/ETF book value) that differs between the batches on a date inside both batches' date " +
    "range for the series: old null when only the newer batch has it (a gap filled), new null when only the older one does (withdrawn)",
  Schema.Struct({
    ...seriesRef,
    date: Day,
    old: Schema.NullOr(Schema.Finite).annotate({ description: "The value in from_batch" }),
    new: Schema.NullOr(Schema.Finite).annotate({ description: "The value in to_batch" }),
    old_source: Schema.NullOr(ValueSource).annotate({
      description:
        "Where from_batch's value came from; null when it has none, or (FM, rare) when the batch does not record whether the value " +
        "was the cartola's or the BPR's (a series with BPR values between cartola ones)",
    }),
    new_source: Schema.NullOr(ValueSource).annotate({ description: "Where to_batch's value came from; null as for old_source" }),
  }),
).annotate({ identifier: "ValueRestated" })

const lifecycle = {
  ...seriesRef,
  fund_id: Schema.String.annotate({ description: "The fund: concept_id (FM) or instrument_id (FI/ETF)" }),
  run: Schema.String.annotate({ description: "Fund RUN with check digit" }),
  serie: Schema.String.annotate({ description: "Series label" }),
  first_date: Schema.NullOr(Day).annotate({ description: "Date of the series' first value (in to_batch; from_batch for series_removed)" }),
  last_date: Schema.NullOr(Day).annotate({ description: "Date of the series' last value (same batch as first_date)" }),
}

export const SeriesAppeared = item(
  "series_appeared",
  "A series to_batch has and from_batch had not (a renamed series is a series_renamed instead)",
  Schema.Struct(lifecycle),
).annotate({ identifier: "SeriesAppeared" })

export const SeriesRemoved = item(
  "series_removed",
  "A series from_batch had and to_batch has not (a renamed series is a series_renamed instead)",
  Schema.Struct(lifecycle),
).annotate({ identifier: "SeriesRemoved" })

export const SeriesEnded = item(
  "series_ended",
  "A mutual fund series active in from_batch and ended in to_batch (its /real_assets end_date went from null to a date: its fund " +
    "ended in the registry, or it went more than FDS_SERIES_GRACE_DAYS weekdays without a value)",
  Schema.Struct(lifecycle),
).annotate({ identifier: "SeriesEnded" })

export const SeriesResumed = item(
  "series_resumed",
  "A mutual fund series ended in from_batch and active again in to_batch (its end_date went back to null)",
  Schema.Struct(lifecycle),
).annotate({ identifier: "SeriesResumed" })

export const SeriesRenamed = item(
  "series_renamed",
  "A mutual fund series published under a new label: its history now lives under asset_id, and previous_asset_id resolves to it",
  Schema.Struct({
    vehicle: Schema.Literal("mutual_fund"),
    asset_id: Schema.String.annotate({ description: "The current series id (to_batch)" }),
    previous_asset_id: Schema.String.annotate({ description: "The id from_batch had for the series" }),
    run: Schema.String,
    previous_serie: Schema.String,
    current_serie: Schema.String,
    first_current_date: Day.annotate({ description: "First observed date with the new label" }),
  }),
).annotate({ identifier: "SeriesRenamed" })

export const TacChanged = item(
  "tac_changed",
  "A TAC (decimal fraction) that differs: FM monthly TAC on a month inside both batches' month range for the series " +
    "(old or new null: the month is in one batch only); FI/ETF fact-sheet TAC (month null)",
  Schema.Struct({
    ...seriesRef,
    month: Schema.NullOr(Schema.String).annotate({ description: "YYYY-MM (FM); null for an FI/ETF fact sheet" }),
    old: Schema.NullOr(Schema.Finite),
    new: Schema.NullOr(Schema.Finite),
  }),
).annotate({ identifier: "TacChanged" })

export const RegistryEntity = Schema.Literals(["administrator", "fund", "series", "fi_instrument", "fi_series"]).annotate({
  identifier: "RegistryEntity",
})

const RegistryValue = Schema.NullOr(Schema.Union([Schema.String, Schema.Finite, Schema.Boolean]))

export const RegistryChanged = item(
  "registry_changed",
  "A registry fact that differs: one field of an administrator, fund, series or FI/ETF instrument (change `changed`), or an " +
    "administrator, fund or FI/ETF instrument added or removed (field null, old/new its name)",
  Schema.Struct({
    entity: RegistryEntity,
    entity_id: Schema.String.annotate({ description: "provider_id, concept_id, asset_id, instrument_id or serie_id" }),
    change: Schema.Literals(["added", "removed", "changed"]),
    field: Schema.NullOr(Schema.String).annotate({
      description:
        "administrator: name; fund: name, short_name, provider_id, cmf_fund_type, currency, start_date, end_date, is_current; " +
        "series: currency, first_date; fi_instrument: name, administrator, provider_id, regulatory_type, status, is_etf, ticker; " +
        "fi_series: currency",
    }),
    old: RegistryValue,
    new: RegistryValue,
  }),
).annotate({ identifier: "RegistryChanged" })

export const ChangeItem = Schema.Union([
  RegistryChanged,
  SeriesAppeared,
  SeriesRemoved,
  SeriesRenamed,
  SeriesEnded,
  SeriesResumed,
  TacChanged,
  ValueRestated,
]).annotate({ identifier: "ChangeItem" })
export type ChangeItem = typeof ChangeItem.Type

export const ChangeList = Schema.Struct({
  data: Schema.Array(ChangeItem),
  links: PageLinks.annotate({
    description:
      "This page and the next (path and query as asked, to_batch spelled out, the next's cursor); next is null on the last page: " +
      "follow it until it is null. prev is always null: the feed is paged forward by a cursor. The same as the Link header",
  }),
  meta: Schema.Struct({
    batch_id: MetaBatchId.annotate({ description: "to_batch: the batch this page brings a copy to; the same as the Batch-Id response header" }),
    from_batch: Schema.String.annotate({ description: "The older batch (<batch date>-<content hash prefix>)" }),
    to_batch: Schema.String.annotate({ description: "The newer batch: as asked, or the current batch when to_batch was left out" }),
    from_batch_date: Day,
    to_batch_date: Day,
    limit: Schema.Int,
    count: Schema.Int.annotate({ description: "Items in this page: at most limit, fewer (even none) when the page's scan budget ran out" }),
    next_cursor: Schema.NullOr(Schema.String).annotate({ description: "The cursor of the next page; null on the last page" }),
  }),
}).annotate({
  identifier: "ChangeList",
  description:
    "Changes from from_batch to to_batch, in a fixed order (registry, series, TAC, daily values; by id within each). " +
    "New dates and months after from_batch's are not changes: read them from /days and /expense_ratio/history",
})
