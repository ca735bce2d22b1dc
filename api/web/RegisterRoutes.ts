/**
 * GET /register (the form), POST /register (mails the verification link), GET /register/verify
 * (shows the new key once). Plain routes outside the JSON contract; keyless; behind the per-IP
 * limit like every route. A POST from an untrusted Origin is refused (403).
 */
import { ByteSize, Data, Effect } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { AccountsConfig } from "../../accounts/AccountsConfig.ts"
import { Registrations } from "../../accounts/Registrations.ts"
import { isEmailAddress } from "../../schemas/Account.ts"
import { clientAddress } from "../ratelimit/Edge.ts"
import { htmlResponse } from "./Html.ts"
import { isTrustedOrigin } from "./Origin.ts"
import { confirmKey, keyShown, linkInvalid, linkSent, problem, registerForm } from "./RegisterPages.ts"

const unavailable = (retryAfter: number) =>
  htmlResponse(problem("Try again later", "The service cannot do this right now. Please try again in a minute."), 503, {
    "retry-after": String(retryAfter),
  })

const showForm = Effect.succeed(htmlResponse(registerForm()))

/** A form refused before its fields are read, with the page that says why. */
class FormRefused extends Data.TaggedError("FormRefused")<{ readonly page: HttpServerResponse.HttpServerResponse }> {}

/** A form of this site's own pages: its fields; refused with 403 from elsewhere, 400 when unreadable. */
const formFields = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const config = yield* AccountsConfig
  if (!isTrustedOrigin(config, request)) {
    return yield* new FormRefused({ page: htmlResponse(problem("Not allowed", "This form can only be sent from this site's own page."), 403) })
  }
  const body = yield* request.text.pipe(
    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.kilobytes(4)),
    Effect.option,
  )
  if (body._tag === "None") return yield* new FormRefused({ page: htmlResponse(problem("Bad request", "The form could not be read."), 400) })
  return new URLSearchParams(body.value)
})

/** The refused form's page as the route's answer. */
const answeringRefusals = <R>(route: Effect.Effect<HttpServerResponse.HttpServerResponse, FormRefused, R>) =>
  Effect.catchTag(route, "FormRefused", (e) => Effect.succeed(e.page))

const submit = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const fields = yield* formFields
  const email = (fields.get("email") ?? "").trim()
  if (!isEmailAddress(email)) {
    return htmlResponse(registerForm({ email, error: "Enter an e-mail address like name@example.com." }), 422)
  }
  const registrations = yield* Registrations
  return yield* registrations.request(email, clientAddress(request)).pipe(
    Effect.as(htmlResponse(linkSent(email))),
    Effect.catchTags({
      RateLimited: (e) =>
        Effect.succeed(
          htmlResponse(problem("Too many requests", "Too many links were asked for this address, its mail domain, or from here. Try again later."), 429, {
            "retry-after": String(e.retryAfter),
          }),
        ),
      MailUnavailable: () => Effect.succeed(unavailable(60)),
      AccountsUnavailable: () => Effect.succeed(unavailable(5)),
    }),
  )
})

/**
 * The mailed link only shows a button: mail scanners open links (some with GET), and the key is
 * issued, and the previous free key revoked, once only. The button posts the token.
 */
const confirm = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  return htmlResponse(confirmKey(new URL(request.url, "http://x").searchParams.get("token") ?? ""))
})

const verify = Effect.gen(function* () {
  const fields = yield* formFields
  const token = fields.get("token") ?? ""
  const registrations = yield* Registrations
  return yield* registrations.verify(token).pipe(
    Effect.map((issued) =>
      issued === null ? htmlResponse(linkInvalid(), 410) : htmlResponse(keyShown(issued.key, issued.record.email)),
    ),
    Effect.catchTag("AccountsUnavailable", () => Effect.succeed(unavailable(5))),
  )
})

const ROUTES = [
  { method: "GET", path: "/register", handler: showForm },
  { method: "POST", path: "/register", handler: answeringRefusals(submit) },
  { method: "GET", path: "/register/verify", handler: confirm },
  { method: "POST", path: "/register/verify", handler: answeringRefusals(verify) },
] as const

/** Method and path of each registration route (api/NotFound.ts tells a wrong method from an unknown path with them). */
export const REGISTER_ROUTES = ROUTES.map(({ method, path }) => [method, path] as const)

export const RegisterRoutes = HttpRouter.use((router) => Effect.all(ROUTES.map(({ method, path, handler }) => router.add(method, path, handler))))
