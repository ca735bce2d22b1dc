/**
 * `/api/asset_providers?scope=all`: the FM administrators plus the administrators known only from
 * the FI lists, each with its `coverage`; administrators with FI or ETF instruments also get
 * `rut`, `displayName`, `slug`, `instrument_count` and `fund_count` (see schemas/FiProviders.ts).
 */
import { batchIdOfFile } from "../../schemas/Batches.ts"
import type { AssetProviderAllList } from "../../schemas/FiProviders.ts"
import { formatRun } from "../../schemas/Ids.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import { batchTimes } from "./FiMeta.ts"

const SMALL_WORDS = new Set(["de", "del", "la", "las", "los", "y", "e", "en"])
const LEGAL = [/\bS\.?\s?A\.?$/iu, /\bADMINISTRADORA GENERAL DE FONDOS\b/iu, /\bA\.?G\.?F\.?(?=\s|$)/iu]

/** "ALERCE INVERSIONES AGF S.A." → "Alerce Inversiones": legal words dropped, title case. */
export const displayNameOf = (name: string): string => {
  let s = name.trim()
  for (const legal of LEGAL) s = s.replace(legal, " ")
  s = s.replace(/\s+/g, " ").replace(/^[\s,.-]+|[\s,.-]+$/g, "")
  if (s === "") s = name.trim()
  return s
    .toLowerCase()
    .split(" ")
    .map((w, i) => (i > 0 && SMALL_WORDS.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(" ")
}

/** "Río Bueno Capital" → "rio-bueno-capital". */
export const slugOf = (displayName: string): string =>
  displayName
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")

interface Tally {
  name: string
  etf: number
  fi: number
}

/** `graceWeekdays`: FDS_SERIES_GRACE_DAYS, for `fund_count` (the administrator's current mutual funds). */
export const providersAll = (reader: SnapshotReader, graceWeekdays: number): AssetProviderAllList => {
  const tallies = new Map<number, Tally>()
  for (const i of fiCatalog(reader).instruments) {
    const t = tallies.get(i.provider_id) ?? { name: i.agf_name, etf: 0, fi: 0 }
    if (i.agf_name < t.name) t.name = i.agf_name
    if (i.is_etf === 1) t.etf++
    else t.fi++
    tallies.set(i.provider_id, t)
  }
  const fm = reader.providers()
  const fmIds = new Set(fm.map((p) => p.provider_id))
  const rows = [
    ...fm.map((p) => ({ id: p.provider_id, name: p.name, rut: formatRun(p.rut) as string | null, isFm: true })),
    ...[...tallies.entries()]
      .filter(([id]) => !fmIds.has(id))
      .map(([id, t]) => ({ id, name: t.name, rut: null as string | null, isFm: false })),
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id))
  return {
    data: rows.map((p) => {
      const t = tallies.get(p.id)
      const coverage = [
        ...(p.isFm ? (["FM"] as const) : []),
        ...(t !== undefined && t.etf > 0 ? (["ETF"] as const) : []),
        ...(t !== undefined && t.fi > 0 ? (["FI"] as const) : []),
      ]
      const displayName = displayNameOf(p.name)
      return {
        id: String(p.id),
        type: "asset_provider" as const,
        attributes:
          t === undefined
            ? { name: p.name, coverage }
            : {
                name: p.name,
                coverage,
                rut: p.rut,
                displayName,
                slug: slugOf(displayName),
                instrument_count: t.etf + t.fi,
                fund_count: p.isFm ? reader.currentFundsOf(p.id, graceWeekdays).length : 0,
              },
      }
    }),
    meta: { batch_id: batchIdOfFile(reader.path), ...batchTimes(reader.batchDate) },
  }
}
