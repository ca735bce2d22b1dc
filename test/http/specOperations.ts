/**
 * Every operation of the interface specification's endpoint tables
 * (/work/shared/spec/interface-spec.md "Endpoints"): 41 operations on 39 paths, written out by
 * hand so the contract test does not read its expectations from the document under test.
 */
export interface SpecOperation {
  readonly method: "get" | "post" | "delete" | "patch"
  readonly path: string
  /** "path:name", "query:name" as the spec's table gives them. */
  readonly params: ReadonlyArray<string>
  readonly security: "apiKey" | "none"
  /** Error statuses the spec names for the route (beyond the common ones checked per security). */
  readonly errors?: ReadonlyArray<string>
  readonly body?: true
  /** The answer has no JSON body: a redirect or 204. */
  readonly noContent?: "302" | "303" | "204"
  /** The success answer's media type when it is not JSON (a file download). */
  readonly media?: string
}

const K = "apiKey" as const
const N = "none" as const
const FI_PORTFOLIO = ["path:instrument_id", "query:month", "query:market"]

/** Every operation of the spec's endpoint tables. */
export const SPEC_OPERATIONS: ReadonlyArray<SpecOperation> = [
  // Public and key
  { method: "get", path: "/health", params: [], security: N },
  { method: "get", path: "/api/key/info", params: [], security: K },
  // Providers, funds, series
  { method: "get", path: "/api/asset_providers", params: ["query:scope"], security: K },
  { method: "get", path: "/api/asset_providers/{provider_id}/conceptual_assets", params: ["path:provider_id"], security: K },
  { method: "get", path: "/api/conceptual_assets/{concept_id}/real_assets", params: ["path:concept_id"], security: K },
  {
    method: "get",
    path: "/api/real_assets/{asset_id}/returns",
    params: ["path:asset_id", "query:as_of_date", "query:valuation", "query:return_basis"],
    security: K,
    errors: ["404"],
  },
  { method: "get", path: "/api/real_assets/{asset_id}/days", params: ["path:asset_id", "query:from_date"], security: K, errors: ["404"] },
  { method: "get", path: "/api/real_assets/{asset_id}/expense_ratio", params: ["path:asset_id"], security: K, errors: ["404"] },
  { method: "get", path: "/api/real_assets/{asset_id}/risk_metrics", params: ["path:asset_id"], security: K, errors: ["404"] },
  {
    method: "get",
    path: "/api/real_assets/{asset_id}/expense_ratio/history",
    params: ["path:asset_id", "query:from_date"],
    security: K,
    errors: ["404"],
  },
  // Comparison and screening
  { method: "get", path: "/api/compare", params: ["query:series"], security: K, errors: ["404"] },
  {
    method: "get",
    path: "/api/screener",
    params: [
      "query:q",
      "query:fund_family",
      "query:investor_class",
      "query:currency",
      "query:category",
      "query:administrator",
      "query:cmf_spheres_min",
      "query:cmf_spheres_max",
      "query:cmf_family",
      "query:cmf_investor_type",
      "query:sort",
      "query:order",
      "query:limit",
      "query:offset",
    ],
    security: K,
  },
  // Administrator statistics
  { method: "get", path: "/api/agf_stats/ranking", params: ["query:metric", "query:date"], security: K },
  {
    method: "get",
    path: "/api/agf_stats/evolution",
    params: ["query:administrator", "query:metric", "query:from_month", "query:to_month"],
    security: K,
  },
  // Market views
  {
    method: "get",
    path: "/api/all-funds",
    params: ["query:category", "query:fund_family", "query:date", "query:article107_regulation_status", "query:vehicle"],
    security: K,
  },
  { method: "get", path: "/api/market-summary", params: ["query:date"], security: K },
  {
    method: "get",
    path: "/api/families/{family_rar}/index",
    params: ["path:family_rar", "query:currency", "query:from_date"],
    security: K,
  },
  { method: "get", path: "/api/benchmarks", params: [], security: K },
  { method: "get", path: "/api/benchmarks/{family_rar}/prices", params: ["path:family_rar", "query:from_date"], security: K },
  // Portfolio and article 107
  { method: "get", path: "/api/funds/{run}/cartera/resumen", params: ["path:run", "query:month"], security: K },
  { method: "get", path: "/api/funds/{run}/cartera/holdings", params: ["path:run", "query:month", "query:market"], security: K },
  { method: "get", path: "/api/funds/{run}/article107", params: ["path:run"], security: K },
  // Investment funds and ETFs
  {
    method: "get",
    path: "/api/fi/instruments",
    params: [
      "query:provider_id",
      "query:is_etf",
      "query:regulatory_type",
      "query:status",
      "query:q",
      "query:limit",
      "query:offset",
    ],
    security: K,
  },
  { method: "get", path: "/api/fi/instruments/{instrument_id}", params: ["path:instrument_id"], security: K, errors: ["404"] },
  {
    method: "get",
    path: "/api/fi/instruments/{instrument_id}/prices",
    params: ["path:instrument_id", "query:from_date", "query:to_date", "query:limit", "query:offset"],
    security: K,
    errors: ["404"],
  },
  { method: "get", path: "/api/fi/instruments/{instrument_id}/cartera/holdings", params: FI_PORTFOLIO, security: K, errors: ["400", "404"] },
  { method: "get", path: "/api/fi/instruments/{instrument_id}/cartera/resumen", params: FI_PORTFOLIO, security: K, errors: ["400", "404"] },
  // Reports
  {
    method: "get",
    path: "/api/reports/tac-changes",
    params: ["query:date", "query:direction", "query:limit", "query:category"],
    security: K,
  },
  // Account routes (no key header); a 403 means an untrusted origin
  { method: "post", path: "/api/auth/magic-link", params: [], security: N, body: true, errors: ["403"] },
  { method: "get", path: "/api/auth/google", params: ["query:return_url"], security: N, errors: ["403"], noContent: "302" },
  {
    method: "get",
    path: "/api/auth/google/callback",
    params: ["query:code", "query:state"],
    security: N,
    errors: ["403"],
    noContent: "303",
  },
  { method: "post", path: "/api/auth/callback", params: [], security: N, body: true, errors: ["403"] },
  { method: "post", path: "/api/auth/logout", params: [], security: N, errors: ["403"], noContent: "204" },
  { method: "get", path: "/api/me", params: [], security: N, errors: ["401", "403"] },
  { method: "delete", path: "/api/me", params: [], security: N, errors: ["401", "403"], noContent: "204" },
  { method: "get", path: "/api/me/watchlist", params: [], security: N, errors: ["401", "403"] },
  { method: "post", path: "/api/me/watchlist", params: [], security: N, body: true, errors: ["401", "403"] },
  {
    method: "delete",
    path: "/api/me/watchlist/{serie_id}",
    params: ["path:serie_id"],
    security: N,
    errors: ["401", "403"],
    noContent: "204",
  },
  { method: "patch", path: "/api/me/alerts", params: [], security: N, body: true, errors: ["401", "403"] },
  { method: "post", path: "/api/alerts/unsubscribe", params: [], security: N, body: true, errors: ["403"] },
  {
    method: "post",
    path: "/api/alerts/unsubscribe/one-click",
    params: ["query:token"],
    security: N,
    errors: ["403"],
    noContent: "204",
  },
]

/**
 * Operations added after the spec's tables, by the issue that added them (#18: the published
 * batches, the corrections feed and the bulk downloads), with the same fields. Every data route also takes `query:batch` (#18), checked in
 * test/batches/.
 */
export const LATER_OPERATIONS: ReadonlyArray<SpecOperation> = [
  // the probes (public)
  { method: "get", path: "/livez", params: [], security: N },
  { method: "get", path: "/readyz", params: [], security: N },
  { method: "get", path: "/api/batches", params: ["query:limit", "query:offset"], security: K },
  { method: "get", path: "/api/batches/{batch_id}", params: ["path:batch_id"], security: K, errors: ["404"] },
  // the corrections feed
  {
    method: "get",
    path: "/api/changes",
    params: ["query:from_batch", "query:to_batch", "query:limit", "query:cursor"],
    security: K,
    errors: ["404", "410"],
  },
  // bulk downloads of a batch
  {
    method: "get",
    path: "/api/batches/{batch_id}/snapshot",
    params: ["path:batch_id"],
    security: K,
    errors: ["404", "410", "416"],
    media: "application/vnd.sqlite3",
  },
  {
    method: "get",
    path: "/api/batches/{batch_id}/days.csv.gz",
    params: ["path:batch_id", "query:from_date"],
    security: K,
    errors: ["404", "410"],
    media: "application/gzip",
  },
  // #29: the series' catalog beside days.csv.gz
  {
    method: "get",
    path: "/api/batches/{batch_id}/series.csv",
    params: ["path:batch_id"],
    security: K,
    errors: ["404", "410", "416"],
    media: "text/csv",
  },
  // #31: signed, chained releases (the key is public)
  { method: "get", path: "/api/batches/{batch_id}/release", params: ["path:batch_id"], security: K, errors: ["404"] },
  {
    method: "get",
    path: "/api/batches/{batch_id}/release.sig",
    params: ["path:batch_id"],
    security: K,
    errors: ["404"],
    media: "application/octet-stream",
  },
  { method: "get", path: "/api/batches/{batch_id}/manifest.json", params: ["path:batch_id"], security: K, errors: ["404"] },
  { method: "get", path: "/.well-known/fds-release-key.pem", params: [], security: N, errors: ["404"], media: "application/x-pem-file" },
  // #31: a batch's Parquet files, served as the snapshot is
  {
    method: "get",
    path: "/api/batches/{batch_id}/parquet/{file}",
    params: ["path:batch_id", "path:file"],
    security: K,
    errors: ["404", "410", "416"],
    media: "application/vnd.apache.parquet",
  },
  // #31: who holds this
  { method: "get", path: "/api/holders", params: ["query:instrument", "query:isin", "query:issuer_rut", "query:month"], security: K },
  // #31 item 4: fund flows
  {
    method: "get",
    path: "/api/market/flows",
    params: ["query:level", "query:id", "query:period", "query:from", "query:to", "query:currency", "query:limit", "query:offset"],
    security: K,
    errors: ["400", "404"],
  },
  // #31 item 3: webhooks, managed with the key
  { method: "post", path: "/api/webhooks", params: [], security: K, body: true },
  { method: "get", path: "/api/webhooks", params: [], security: K },
  { method: "delete", path: "/api/webhooks/{webhook_id}", params: ["path:webhook_id"], security: K, errors: ["404"], noContent: "204" },
  { method: "get", path: "/api/webhooks/{webhook_id}/deliveries", params: ["path:webhook_id"], security: K, errors: ["404"] },
  { method: "post", path: "/api/webhooks/{webhook_id}/test", params: ["path:webhook_id"], security: K, errors: ["404"] },
]

/** The spec's operations and the later ones: every operation /openapi.json holds. */
export const ALL_OPERATIONS: ReadonlyArray<SpecOperation> = [...SPEC_OPERATIONS, ...LATER_OPERATIONS]
