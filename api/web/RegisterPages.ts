/** The pages of the /register flow (no JavaScript; labelled form, errors announced to screen readers). */
import { escapeHtml, page } from "./Html.ts"

export const registerForm = (options: { readonly email?: string; readonly error?: string } = {}): string => {
  const error = options.error
  const described = error === undefined ? "email-help" : "email-help email-error"
  return page(
    "Get an API key",
    `<h1>Get an API key</h1>
<p>Enter your e-mail address. We send you a link; opening it shows your new key, once.
Asking again with the same address gives a new key and revokes the previous one.</p>
<form method="post" action="register">
  <label for="email">E-mail address</label>
  <p id="email-help">The key's daily quota is 300 requests (free tier).</p>
  ${error === undefined ? "" : `<p id="email-error" class="error" role="alert">${escapeHtml(error)}</p>`}
  <input id="email" name="email" type="email" required maxlength="254" autocomplete="email"
    aria-describedby="${described}"${error === undefined ? "" : ' aria-invalid="true"'} value="${escapeHtml(options.email ?? "")}">
  <button type="submit">Send me the link</button>
</form>`,
  )
}

export const linkSent = (email: string): string =>
  page(
    "Check your inbox",
    `<h1>Check your inbox</h1>
<p role="status">We sent a link to <strong>${escapeHtml(email)}</strong>. Open it within 24 hours to see your key.</p>
<p>No mail? Look in the spam folder, or <a href="register">ask again</a>.</p>`,
  )

export const confirmKey = (token: string): string =>
  page(
    "Show your API key",
    `<h1>Show your API key</h1>
<p>This link confirms your address. Your key is shown <strong>once</strong>, on the next page: be ready to copy it.
Getting it revokes any previous free key of this address.</p>
<form method="post" action="verify">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Show my new key</button>
</form>`,
  )

export const keyShown = (key: string, email: string): string =>
  page(
    "Your API key",
    `<h1>Your API key</h1>
<p>This is the key for <strong>${escapeHtml(email)}</strong>. <strong>It is shown only this once</strong>: copy it now
and keep it on your server (never in browser or app code).</p>
<h2>Key</h2>
<code id="api-key" class="key">${escapeHtml(key)}</code>
<p>Send it in the <code>X-Api-Key</code> header. Check it with <code>GET /api/key/info</code>.
Any previous free key of this address no longer works.</p>`,
  )

export const linkInvalid = (): string =>
  page(
    "Link no longer valid",
    `<h1>This link no longer works</h1>
<p role="alert">It was already used, has expired, or is not one of ours. A key is shown only once.</p>
<p>Lost the key? <a href="../register">Ask for a new one</a> (it revokes the previous one).</p>`,
  )

export const problem = (title: string, message: string): string =>
  page(title, `<h1>${escapeHtml(title)}</h1>\n<p role="alert">${escapeHtml(message)}</p>`)
