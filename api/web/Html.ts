/** Server-rendered pages: escaping, one layout, and the headers every page carries. */
import { HttpServerResponse } from "effect/http"

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** Text made safe for HTML element content and quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)

const STYLE = `
  body { font: 1rem/1.5 system-ui, sans-serif; margin: 0; color: #1a1a1a; background: #fafafa; }
  main { max-width: 36rem; margin: 3rem auto; padding: 0 1rem; }
  h1 { font-size: 1.6rem; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input[type=email] { font: inherit; padding: .5rem; width: 100%; box-sizing: border-box; border: 1px solid #555; border-radius: 4px; }
  input:focus, button:focus { outline: 3px solid #1d4ed8; outline-offset: 2px; }
  button { font: inherit; margin-top: 1rem; padding: .5rem 1.25rem; border: 0; border-radius: 4px; background: #1d4ed8; color: #fff; cursor: pointer; }
  .error { color: #b00020; font-weight: 600; }
  code.key { display: block; padding: .75rem; background: #fff; border: 1px solid #555; border-radius: 4px; word-break: break-all; font-size: 1rem; }
`

/** A complete page: language, title, viewport, one <main> landmark. `body` must already be escaped. */
export const page = (title: string, body: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)} · Fund Data Service</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`

/**
 * An HTML response. No script may run (the pages need none), nothing is cached (one of them shows
 * a key), no referrer leaves the site (the verification link's token is in its URL; within the site it
 * must stay, or Chromium sends the form POST with Origin: null), no framing.
 */
export const htmlResponse = (html: string, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(html, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: {
      "cache-control": "no-store",
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      "referrer-policy": "same-origin",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      ...headers,
    },
  })
