/**
 * GET / (the landing page): keyless like /docs, behind the per-IP limit like every route; HEAD is
 * its GET without the body (api/http/RequestLog.ts). Only `/` itself: any other unknown path stays
 * the JSON 404.
 */
import { Effect } from "effect"
import { HttpRouter } from "effect/http"
import { htmlResponse } from "./Html.ts"
import { landingPage } from "./LandingPage.ts"

const LANDING_PATH = "/"

/** Method and path of the landing route for api/NotFound.ts (a wrong method is 405 there). */
export const LANDING_ROUTES = [["GET", LANDING_PATH]] as const

/** The same page for everyone and nothing secret on it: a browser may keep it if it revalidates. */
export const LandingRoutes = HttpRouter.use((router) => {
  const answer = htmlResponse(landingPage(), 200, { "cache-control": "no-cache" })
  return router.add("GET", LANDING_PATH, Effect.succeed(answer))
})
