/**
 * The published batches (/api/batches) and the batch id that names one, on those routes and in
 * `?batch=` on every data route: `<batch date>-<first 16 hex digits of its content hash>`, the
 * snapshot file's name without `.sqlite` and the `meta.batch_id` of the answers it gives.
 */
import { Schema } from "effect"
import { isIsoDate } from "./Dates.ts"
import { PageLinks } from "./Paging.ts"

const BATCH_ID = /^(\d{4}-\d{2}-\d{2})-[0-9a-f]{16}$/

/** True when `text` is a batch id: a real calendar date, a dash and 16 lower-case hex digits. */
export const isBatchId = (text: string): boolean => {
  const m = BATCH_ID.exec(text)
  return m !== null && isIsoDate(m[1]!)
}

/** The batch id a snapshot file names: its file name (or path) without the folder and `.sqlite`. */
export const batchIdOfFile = (file: string): string => file.slice(file.lastIndexOf("/") + 1).replace(/\.sqlite$/, "")

/** The HTTP response header naming the batch a data answer was read from (api/http/Caching.ts). */
export const BATCH_ID_HEADER = "batch-id"

/** `meta.batch_id`: the batch an answer was read from, as its Batch-Id header names it. */
export const MetaBatchId = Schema.String.annotate({
  description: "The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header",
  examples: ["2026-11-20-0123456789abcdef"],
})

export const BATCH_ID_RULE = "a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them)"

/** A batch id (path parameter of /api/batches/{batch_id}); the calendar check stays with the code. */
export const BatchId = Schema.String.check(
  Schema.isPattern(BATCH_ID),
  Schema.makeFilter((s: string) => isBatchId(s) || BATCH_ID_RULE, { toJsonSchema: () => [{}, true] }),
).annotate({ description: "Batch id: <batch date>-<first 16 hex digits of its content hash>", examples: ["2026-11-20-0123456789abcdef"] })

const Instant = Schema.String.annotate({ description: "An instant, ISO 8601 in UTC (as the ledger recorded it)" })

export const CurrentInterval = Schema.Struct({
  from: Instant.annotate({ description: "When it became the published batch (a publish, or a rollback to it)" }),
  to: Schema.NullOr(Instant).annotate({ description: "When another batch replaced it (a later publish or a rollback); null while it is current" }),
}).annotate({
  identifier: "CurrentInterval",
  description: "A span during which the batch was the published one: from ≤ t < to. Over all batches the spans never overlap",
})

export const BatchAttributes = Schema.Struct({
  batch_date: Schema.String.annotate({ description: "The date the batch is of (YYYY-MM-DD): its data runs through that day" }),
  content_hash: Schema.String.annotate({
    description: "SHA-256 (hex) of the snapshot's content, as its manifest and the ledger record it (docs/snapshot-format.md)",
  }),
  built_at: Schema.NullOr(Instant).annotate({ description: "When its build was recorded; null when the ledger has no build of it" }),
  published_at: Instant.annotate({ description: "When it was first published (CURRENT named it): the start of its first interval" }),
  superseded_at: Schema.NullOr(Instant).annotate({
    description: "The end of its last interval: when another batch last replaced it (a later publish or a rollback); null while it is current",
  }),
  current_intervals: Schema.Array(CurrentInterval).annotate({
    description:
      "Every span during which it was the published batch, oldest first (a rollback to it opens another): at any instant exactly one batch's interval holds it. The batch as known at instant t is the one with from ≤ t < to",
  }),
  pipeline_version: Schema.NullOr(Schema.String).annotate({ description: "The pipeline version that built it" }),
  input_count: Schema.NullOr(Schema.Int).annotate({ description: "How many raw CMF files it was built from" }),
  retained: Schema.Boolean.annotate({
    description: "Its snapshot file is still on this server: `?batch=` answers from it (else 410 batch_not_retained)",
  }),
  current: Schema.Boolean.annotate({ description: "It is the batch this server answers from when a request names none" }),
}).annotate({ identifier: "BatchAttributes" })

export const Batch = Schema.Struct({
  id: Schema.String.annotate({ description: "Batch id: <batch date>-<first 16 hex digits of its content hash>; `meta.batch_id` in answers" }),
  type: Schema.Literal("batch"),
  attributes: BatchAttributes,
}).annotate({ identifier: "Batch", description: "A published batch" })

export const BatchList = Schema.Struct({
  data: Schema.Array(Batch),
  total: Schema.Int.annotate({ description: "Published batches (up to the list's batch), before paging" }),
  limit: Schema.Int,
  offset: Schema.Int,
  links: PageLinks,
}).annotate({
  identifier: "BatchList",
  description:
    "Every published batch, newest first (by first publication); with `batch`, the list as it stood when that batch was first " +
    "published (it and the batches before it): its links name the first page's newest batch, so paging never shifts by a publish",
})

const ManifestInput = Schema.Struct({
  data_set: Schema.String.annotate({ description: "The CMF data set of the file (cartola_diaria, fm_ident2, …)" }),
  name: Schema.String.annotate({ description: "The raw file's name" }),
  sha256: Schema.String.annotate({ description: "SHA-256 (hex) of the raw file's bytes" }),
  bytes: Schema.Int,
}).annotate({ identifier: "ManifestInput" })

const QuotaCorrection = Schema.Struct({
  asset_id: Schema.Int,
  run: Schema.Int,
  serie: Schema.String,
  date: Schema.String,
  old: Schema.Finite.annotate({ description: "The provisional value (the daily BPR report)" }),
  new: Schema.Finite.annotate({ description: "The cartola's value that replaced it" }),
  old_source: Schema.String.annotate({ description: "`<data set> <file>` of the old value" }),
  new_source: Schema.String.annotate({ description: "`<data set> <file>` of the new value" }),
}).annotate({ identifier: "QuotaCorrection" })

/** The manifest written next to the snapshot file (snapshots/Manifest.ts), kept forever. */
export const BatchManifest = Schema.Struct({
  format_version: Schema.Int.annotate({ description: "The snapshot format version (docs/snapshot-format.md)" }),
  pipeline_version: Schema.String,
  batch_date: Schema.String,
  file: Schema.String.annotate({ description: "The snapshot file's name: <batch id>.sqlite" }),
  content_hash: Schema.String,
  inputs: Schema.Array(ManifestInput).annotate({ description: "The raw files it was built from, with their SHA-256" }),
  row_counts: Schema.Record(Schema.String, Schema.Int).annotate({ description: "Rows per table of the snapshot" }),
  repairs: Schema.Record(Schema.String, Schema.Int).annotate({
    description: "Normal CMF quirks repaired or skipped while building it (duplicate rows, footnotes, …), counted by kind",
  }),
  options: Schema.Record(Schema.String, Schema.String),
  corrections: Schema.optionalKey(
    Schema.Array(QuotaCorrection).annotate({
      description: "Provisional values (the daily BPR report) that a cartola replaced with a value differing by more than the BPR's rounding",
    }),
  ),
  quota_sources: Schema.optionalKey(
    Schema.Struct({ bpr_series: Schema.Int, bpr_rows: Schema.Int }).annotate({
      description: "Series whose latest value comes from the BPR report alone",
    }),
  ),
  table_digests: Schema.optionalKey(
    Schema.Record(Schema.String, Schema.String).annotate({
      description: "Each table's SHA-256 digest; the content hash is SHA-256 over `<table> <digest>` lines (pipeline 0.5)",
    }),
  ),
  quota_month_digests: Schema.optionalKey(
    Schema.Record(Schema.String, Schema.String).annotate({
      description: "The quotas table's digest per month (YYYYMM → SHA-256); its table digest is over `<YYYYMM> <digest>` lines (pipeline 0.5)",
    }),
  ),
  table_month_digests: Schema.optionalKey(
    Schema.Record(Schema.String, Schema.Record(Schema.String, Schema.String)).annotate({
      description:
        "The other tables cut by month (fi_prices), by table: each month's digest (YYYYMM → SHA-256); the table's digest is over `<YYYYMM> <digest>` lines (pipeline 0.6)",
    }),
  ),
  staging: Schema.optionalKey(
    Schema.Record(
      Schema.String,
      Schema.Struct({
        fingerprint: Schema.String.annotate({ description: "SHA-256 of what the step read (its files, the data sets and core it used)" }),
        tables: Schema.Array(Schema.String).annotate({ description: "The tables it wrote" }),
        repairs: Schema.Record(Schema.String, Schema.Int),
        meta: Schema.Record(Schema.String, Schema.String),
        state: Schema.optionalKey(Schema.Unknown.annotate({ description: "What the step keeps for the next build (the FI step: its book-value pages and their first dates)" })),
      }),
    ).annotate({
      description:
        "The staging steps, by data set, that the next daily build may keep with their tables when its fingerprint is the same (pipeline 0.6)",
    }),
  ),
  compute_state: Schema.optionalKey(
    Schema.Record(Schema.String, Schema.Unknown).annotate({
      description: "What computations that continue from a month keep for the next daily build, by computation (the family index's unrounded values) (pipeline 0.6)",
    }),
  ),
  build: Schema.optionalKey(
    Schema.Union([
      Schema.Struct({ kind: Schema.Literal("cold"), cold_reason: Schema.optionalKey(Schema.String) }),
      Schema.Struct({
        kind: Schema.Literal("increment"),
        base: Schema.String,
        from: Schema.String,
        kept: Schema.optionalKey(Schema.Array(Schema.String).annotate({ description: "The staging steps (data sets) whose tables were kept from base" })),
        computed_from: Schema.optionalKey(
          Schema.Struct({ month: Schema.String, computations: Schema.Array(Schema.String) }).annotate({
            description: "The computations that kept their rows before month (YYYY-MM) and computed from it on",
          }),
        ),
        updated_from: Schema.optionalKey(
          Schema.Record(Schema.String, Schema.String).annotate({ description: "Staged tables that kept their rows before a date (YYYY-MM-DD) and were staged from it on, by table" }),
        ),
      }),
    ]).annotate({
      description:
        "How the file was built: from nothing (cold, with why when it could have been an increment) or as an increment of the previous batch's file (base), its daily values merged again from `from` (pipeline 0.5)",
    }),
  ),
}).annotate({ identifier: "BatchManifest" })

export const BatchDetail = Schema.Struct({
  data: Schema.Struct({
    id: Schema.String,
    type: Schema.Literal("batch"),
    attributes: Schema.Struct({
      ...BatchAttributes.fields,
      manifest: BatchManifest,
      parquet_files: Schema.Array(Schema.String).annotate({
        description:
          "The batch's Parquet files on this server, by name (GET /api/batches/{batch_id}/parquet/{file}; sizes and SHA-256 in its release); empty once retention removed them, or for a batch published before they were written",
      }),
    }),
  }),
}).annotate({ identifier: "BatchDetail", description: "A published batch with its manifest and its Parquet files" })
