/**
 * GET /docs (the reference page, keyless) and its files under /docs/: Swagger UI from the
 * swagger-ui-dist package (no CDN) and the page's own stylesheet and initializer. One route per
 * file of a fixed list, so no other path can be reached (anything else is the JSON 404). The page
 * asks for each file with `?v=<content hash>`; that exact URL is cached for a year, any other for
 * no time. Scripts and stylesheets are gzip- or brotli-encoded on first demand, then kept.
 */
import { createHash } from "node:crypto"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { brotliCompress, constants, gzip } from "node:zlib"
import { Effect, FileSystem } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { chooseCoding } from "../http/Caching.ts"
import { DOCS_CSS, DOCS_INITIALIZER, docsPage } from "./DocsPage.ts"
import { htmlResponse } from "./Html.ts"

const gzipAsync = promisify(gzip)
const brotliAsync = promisify(brotliCompress)

/** Scripts only from this origin (no inline script), no framing, fetches only to this origin. */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

const IMMUTABLE = "public, max-age=31536000, immutable"

interface Asset {
  readonly name: string
  readonly contentType: string
  readonly bytes: Uint8Array
  /** First 16 hex digits of the content's SHA-256. */
  readonly version: string
}

const JS = "text/javascript; charset=utf-8"
const CSS = "text/css; charset=utf-8"

/** The files of swagger-ui-dist we serve, by name: nothing else of the package is reachable. */
const SWAGGER_FILES: Readonly<Record<string, string>> = { "swagger-ui.css": CSS, "swagger-ui-bundle.js": JS }

const asset = (name: string, contentType: string, bytes: Uint8Array): Asset => ({
  name,
  contentType,
  bytes,
  version: createHash("sha256").update(bytes).digest("hex").slice(0, 16),
})

const urlOf = (a: Asset) => `docs/${a.name}?v=${a.version}`

const loadAssets = Effect.gen(function* () {
  const fs = yield* FileSystem.FileSystem
  const fromPackage = yield* Effect.forEach(Object.entries(SWAGGER_FILES), ([name, type]) =>
    fs.readFile(fileURLToPath(import.meta.resolve(`swagger-ui-dist/${name}`))).pipe(Effect.map((b) => asset(name, type, b))),
  )
  const encoder = new TextEncoder()
  return [
    ...fromPackage,
    asset("docs.css", CSS, encoder.encode(DOCS_CSS)),
    asset("docs-initializer.js", JS, encoder.encode(DOCS_INITIALIZER)),
  ]
}).pipe(Effect.orDie)

const serveAsset = (a: Asset, encoded: Map<string, Promise<Uint8Array>>) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const versioned = new URL(request.url, "http://x").searchParams.get("v") === a.version
    const coding = chooseCoding(request.headers["accept-encoding"])
    const headers: Record<string, string> = {
      "cache-control": versioned ? IMMUTABLE : "no-cache",
      "x-content-type-options": "nosniff",
      vary: "Accept-Encoding",
    }
    if (coding === "identity") return HttpServerResponse.uint8Array(a.bytes, { contentType: a.contentType, headers })
    const key = `${a.name} ${coding}`
    let pending = encoded.get(key)
    if (pending === undefined) {
      pending =
        coding === "gzip"
          ? gzipAsync(a.bytes, { level: 9 })
          : brotliAsync(a.bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: a.bytes.length } })
      encoded.set(key, pending)
    }
    const body = yield* Effect.promise(() => pending)
    return HttpServerResponse.uint8Array(body, {
      contentType: a.contentType,
      headers: { ...headers, "content-encoding": coding },
    })
  })

const DOCS_PATH = "/docs"

/**
 * Method and path of the docs routes for api/NotFound.ts (a wrong method is 405 there): the page
 * and its files (`/docs/*` stands for the files listed in `assets`).
 */
export const DOCS_ROUTES = [
  ["GET", DOCS_PATH],
  ["GET", `${DOCS_PATH}/*`],
] as const

/** The /docs routes, merged into the server like RegisterRoutes. */
export const DocsRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const assets = yield* loadAssets
    const byName = new Map(assets.map((a) => [a.name, a]))
    const html = docsPage({
      swaggerCss: urlOf(byName.get("swagger-ui.css")!),
      swaggerJs: urlOf(byName.get("swagger-ui-bundle.js")!),
      pageCss: urlOf(byName.get("docs.css")!),
      initializer: urlOf(byName.get("docs-initializer.js")!),
    })
    const encoded = new Map<string, Promise<Uint8Array>>()
    const page = htmlResponse(html, 200, { "content-security-policy": DOCS_CSP, "cache-control": "no-cache" })
    // The router also matches /docs/, where the page's relative links would point one level too deep.
    const toPage = HttpServerResponse.redirect("../docs", { status: 301 })
    yield* router.add("GET", DOCS_PATH, (request) =>
      Effect.succeed(new URL(request.url, "http://x").pathname.endsWith("/") ? toPage : page),
    )
    for (const a of assets) yield* router.add("GET", `${DOCS_PATH}/${a.name}`, serveAsset(a, encoded))
  }),
)
