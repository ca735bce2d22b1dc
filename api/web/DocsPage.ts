/**
 * The /docs page: the client guidance of README.md and docs/clients.md as plain HTML (readable
 * without JavaScript), with the catalogue of error codes (schemas/Problem.ts) each under the
 * anchor its problem documents' `type` names, then Swagger UI on /openapi.json. The page has no inline script or style:
 * its stylesheet and the Swagger UI initializer are files served next to it, so the page's CSP can
 * say `script-src 'self'`.
 */
import { PROBLEM_KINDS, problemAnchor } from "../../schemas/Problem.ts"
import { escapeHtml } from "./Html.ts"

/** Where the page finds its files (relative to /docs, with their version query). */
export interface DocsAssetUrls {
  readonly swaggerCss: string
  readonly swaggerJs: string
  readonly pageCss: string
  readonly initializer: string
}

/** Starts Swagger UI; no "Try it out" for the account routes (POST), no online validator. */
export const DOCS_INITIALIZER = `"use strict"
window.ui = SwaggerUIBundle({
  url: new URL("openapi.json", document.baseURI).href,
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  supportedSubmitMethods: ["get"],
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
})
`

/** The guidance's own style (Swagger UI brings its own stylesheet). */
export const DOCS_CSS = `
body { margin: 0; color: #1a1a1a; background: #fafafa; }
.guidance { font: 1rem/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto 1rem; padding: 0 1.25rem; }
.guidance h1 { font-size: 1.7rem; margin: 0 0 .5rem; }
.guidance h2 { font-size: 1.15rem; margin: 1.25rem 0 .25rem; }
.guidance ul { margin: .25rem 0; padding-left: 1.25rem; }
.guidance code { font-size: .92em; background: #eef0f3; padding: 0 .2em; border-radius: 3px; }
.guidance a { color: #1d4ed8; }
.guidance dt { margin-top: .5rem; font-weight: 600; }
.guidance dd { margin: 0 0 0 1.25rem; }
#swagger-ui { max-width: 1460px; margin: 0 auto; }
`

const code = (text: string): string => escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>")

/** The error codes, each under its anchor: the `type` of its problem documents points here. */
const ERROR_TYPES = `<h2 id="error-types">Error types</h2>
<dl class="error-types">
${Object.entries(PROBLEM_KINDS)
  .map(
    ([error, kind]) =>
      `<dt id="${problemAnchor(error)}"><code>${error}</code> · ${kind.status} · ${escapeHtml(kind.title)}</dt>\n<dd>${code(kind.about)}</dd>`,
  )
  .join("\n")}
</dl>
`

const GUIDANCE = `<section class="guidance" aria-labelledby="guidance-title">
<h1 id="guidance-title">Fund Data Service API</h1>
<p>Read-only JSON over Chilean mutual funds, investment funds and ETFs, rebuilt once a day from CMF
files. The reference below is generated from <a href="openapi.json"><code>/openapi.json</code></a>
(OpenAPI 3.1), which you can also feed to a client generator (for TypeScript:
<code>openapi-typescript</code> with <code>openapi-fetch</code>).</p>

<h2>Your key</h2>
<ul>
<li>Get one at <a href="register"><code>/register</code></a> (e-mail verification; the key is shown once).</li>
<li>Send it in the <code>X-Api-Key</code> header, or as <code>Authorization: Bearer &lt;key&gt;</code>.
<strong>Never in the query string</strong>: such requests are refused (401), and the key should be treated as leaked.</li>
<li>Keep it on your backend, not in browser or app code. Check it with <code>GET /api/key/info</code> (not counted).</li>
<li>Send a <code>User-Agent</code> naming your application and a contact.</li>
</ul>

<h2>Quota headers</h2>
<ul>
<li><code>X-RateLimit-Limit</code> (daily quota), <code>X-RateLimit-Remaining</code> (left after this request),
<code>X-RateLimit-Reset</code> (Unix time of the next midnight in America/Santiago) are on every keyed answer, errors included.</li>
<li>Every authenticated request counts, whatever its status, except <code>/api/key/info</code> and a quota-exhausted 429.
Each client address may also send 10 requests per second, bursts up to 20.</li>
</ul>

<h2>Errors and retries</h2>
<ul>
<li>429 <code>rate_limited</code> (per address, <code>Retry-After: 1</code>, no quota used): retry after <code>Retry-After</code>.</li>
<li>429 <code>quota_exceeded</code> (<code>X-RateLimit-Remaining: 0</code>): do not retry before <code>X-RateLimit-Reset</code>.</li>
<li>503 (<code>snapshot_unavailable</code>, <code>snapshot_changed</code>, <code>key_check_unavailable</code>, …) carries
<code>Retry-After</code>: wait that long, then retry. Retry 500, 502 and 504 too, with exponential backoff and jitter.</li>
<li>Do not retry 401, 403, 404 or 422: the same request fails the same way.</li>
<li>Every error is an RFC 9457 problem document, sent as
<code>application/problem+json</code>: <code>type</code> (this page's entry for the code, below), <code>title</code> (fixed per code),
<code>status</code>, <code>detail</code> and <code>instance</code> (the answer's <code>X-Request-Id</code> as <code>urn:fds:request:&lt;id&gt;</code>),
plus <code>error</code> (the code), <code>message</code> (= <code>detail</code>), <code>parameter</code> and <code>issues</code> (422),
<code>request_id</code> (5xx). <code>/health</code> and <code>/readyz</code> answer 503 with their status document instead.</li>
</ul>

<h2>Caching</h2>
<ul>
<li>Data changes once a day. Data answers carry an <code>ETag</code> and <code>Cache-Control: private, max-age=</code>(seconds until the next batch).</li>
<li>Send the <code>ETag</code> back as <code>If-None-Match</code>: an unchanged answer is a 304 without body (it still counts against the quota).</li>
<li><code>/api/all-funds</code> returns the whole current universe in one call.</li>
<li>Paged lists (the screener, <code>/api/fi/instruments</code> and its prices, <code>/api/batches</code>, <code>/api/changes</code>) answer
<code>total</code>, <code>limit</code>, <code>offset</code> and <code>links</code> (<code>self</code>, <code>next</code>, <code>prev</code>; also the <code>Link</code> header):
follow <code>links.next</code> until it is null. It names the batch of the first page, so a batch published meanwhile does not shift the rows.</li>
</ul>

<h2>Any batch as it was</h2>
<ul>
<li>Every data answer names the batch it was read from: the <code>Batch-Id</code> header (readable from a browser) and, in JSON with a
<code>meta</code>, <code>meta.batch_id</code>; <code>/health</code> gives the batch served as <code>batch_id</code>.</li>
<li><code>GET /api/batches</code> lists every published batch (newest first: <code>published_at</code>, <code>superseded_at</code>, <code>current_intervals</code>,
<code>content_hash</code>, <code>retained</code>, <code>current</code>); <code>GET /api/batches/{batch_id}</code> adds its manifest.</li>
<li>Add <code>?batch=&lt;batch_id&gt;</code> to any data route for the answer that batch gave while it was current, byte for byte
(strong <code>ETag</code>, <code>immutable</code>): e.g. <code>/api/real_assets/123456789/days?batch=2026-11-19-0123456789abcdef</code>.
A value as known at instant t is the one of the batch one of whose <code>current_intervals</code> holds t (<code>from ≤ t &lt; to</code>): a rollback makes a batch current again in a new interval. 410 <code>batch_not_retained</code>: its file is gone.</li>
<li><code>GET /api/changes?from_batch=A</code> lists what changed since batch A (restated values with old and new, series, TAC,
registry); follow <code>links.next</code> until it is null to sync a copy.</li>
<li>Bulk: <code>GET /api/batches/{batch_id}/snapshot</code> (the SQLite file, <code>Repr-Digest</code>, resumable with <code>Range</code>,
one request of quota), <code>/api/batches/{batch_id}/days.csv.gz</code> (every daily value; <code>?from_date=</code> for the recent ones;
<code>id</code> is <code>fm-&lt;id&gt;</code> or <code>fi-&lt;UUID&gt;</code>), <code>/api/batches/{batch_id}/series.csv</code> (its series' catalog, joined on <code>id</code>),
<code>/days?format=csv</code>.</li>
</ul>

${ERROR_TYPES}
<p>To call the routes from this page, choose <strong>Authorize</strong> and enter your key: it stays in this tab
and is sent in <code>X-Api-Key</code> by <strong>Try it out</strong>.</p>
<noscript><p>The interactive reference needs JavaScript; <a href="openapi.json"><code>/openapi.json</code></a> holds the same content.</p></noscript>
</section>`

/** The whole page. */
export const docsPage = (urls: DocsAssetUrls): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>API reference · Fund Data Service</title>
<link rel="stylesheet" href="${urls.swaggerCss}">
<link rel="stylesheet" href="${urls.pageCss}">
</head>
<body>
<main>
${GUIDANCE}
<div id="swagger-ui" aria-label="Interactive API reference"></div>
</main>
<script src="${urls.swaggerJs}"></script>
<script src="${urls.initializer}"></script>
</body>
</html>
`
