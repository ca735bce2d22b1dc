/**
 * The page at `/`: what the service is and where to go next, so a first visit in a browser finds
 * the reference, the key form, the status and the contract instead of a JSON 404. Static, no
 * script; its links are relative like the other pages' (they resolve under a path prefix too).
 */
import { page } from "./Html.ts"

export const landingPage = (): string =>
  page(
    "Chilean fund data API",
    `<h1>Fund Data Service</h1>
<p>A read-only JSON API over Chilean mutual funds, investment funds and ETFs, rebuilt once a day from
the public files of the financial regulator (CMF): administrators, funds and their series, daily
quota values, returns, fees, portfolios and market views.</p>
<h2>Start here</h2>
<ul>
<li><a href="docs">API reference</a> (<code>/docs</code>): every route, with the client guidance (keys, quota headers, retries, caching).</li>
<li><a href="register">Get an API key</a> (<code>/register</code>): by e-mail; the key is shown once.
Send it in the <code>X-Api-Key</code> header.</li>
<li><a href="health">Service status</a> (<code>/health</code>): the batch being served and whether it is current.</li>
<li><a href="openapi.json">OpenAPI contract</a> (<code>/openapi.json</code>): for client generators.</li>
</ul>
<p>AI agents: the same data as MCP tools at <code>POST /mcp</code>, with the same key.</p>`,
  )
