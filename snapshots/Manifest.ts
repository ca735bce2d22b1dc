/** The manifest written next to each snapshot file: what went in, what came out, and its hash. */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { writeFileAtomic } from "./Files.ts"

export interface ManifestInput {
  readonly data_set: string
  readonly name: string
  readonly sha256: string
  readonly bytes: number
}

/** A provisional value (the daily BPR report) that the cartola replaced with one differing by more than the BPR's rounding. */
export interface QuotaCorrection {
  readonly asset_id: number
  readonly run: number
  readonly serie: string
  /** YYYY-MM-DD */
  readonly date: string
  readonly old: number
  readonly new: number
  /** `<data set> <file>` of each value. */
  readonly old_source: string
  readonly new_source: string
}

export interface Manifest {
  readonly format_version: number
  readonly pipeline_version: string
  readonly batch_date: string
  readonly file: string
  readonly content_hash: string
  readonly inputs: ReadonlyArray<ManifestInput>
  readonly row_counts: Readonly<Record<string, number>>
  /** Normal CMF quirks repaired or skipped (duplicate rows, footnotes, …), counted. */
  readonly repairs: Readonly<Record<string, number>>
  readonly options: Readonly<Record<string, string>>
  /**
   * Provisional values (the daily BPR report) that the cartola replaced with a value differing by
   * more than the BPR's rounding: series, date, old and new value, and the file of each (pipeline 0.4).
   */
  readonly corrections?: ReadonlyArray<QuotaCorrection>
  /** Series whose latest value comes from the BPR alone (flows, costs and factors null until the cartola arrives). */
  readonly quota_sources?: { readonly bpr_series: number; readonly bpr_rows: number }
  /**
   * What the content hash is made of (pipeline 0.5): each table's digest, and the quotas table's
   * digest per month (YYYYMM). The next daily build starts from this snapshot and re-hashes only
   * what it changed.
   */
  readonly table_digests?: Readonly<Record<string, string>>
  readonly quota_month_digests?: Readonly<Record<string, string>>
  /**
   * How the file was built: from nothing (`cold`), or as an increment of the previous batch's file
   * (`base`), its quota rows from `from` (YYYY-MM-DD) on merged again; `cold_reason` says why a
   * build that could have been an increment was not (pipeline 0.5).
   */
  readonly build?:
    | { readonly kind: "cold"; readonly cold_reason?: string }
    | { readonly kind: "increment"; readonly base: string; readonly from: string }
}

export const manifestPath = (dir: string, snapshotFile: string): string =>
  join(dir, snapshotFile.replace(/\.sqlite$/, ".manifest.json"))

export const writeManifest = (dir: string, manifest: Manifest): string => {
  const path = manifestPath(dir, manifest.file)
  writeFileAtomic(path, JSON.stringify(manifest, null, 2) + "\n")
  return path
}

export const readManifest = (dir: string, snapshotFile: string): Manifest =>
  JSON.parse(readFileSync(manifestPath(dir, snapshotFile), "utf8")) as Manifest
