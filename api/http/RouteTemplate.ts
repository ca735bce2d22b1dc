/**
 * The route template a request matched (`/api/funds/:id`), for the metrics' labels: a bounded set
 * of values, never the path itself (ids, and whatever a client makes up). Paths no route takes
 * are "unmatched".
 */
import { FindMyWay } from "effect/http"
import { HttpApi } from "effect/http-api"
import { Api } from "../Api.ts"
import { MCP_PATH } from "../mcp/McpHttp.ts"
import { PAGE_ROUTES } from "../NotFound.ts"
import { recent } from "./Recent.ts"
import { routePath } from "./RoutePath.ts"

/** Routes outside the API's contract and its pages. */
export const METRICS_PATH = "/metrics"

let table: FindMyWay.Router<string> | undefined
const routes = (): FindMyWay.Router<string> => {
  if (table !== undefined) return table
  const router = FindMyWay.make<string>()
  HttpApi.reflect(Api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => router.on(endpoint.method, endpoint.path as FindMyWay.PathInput, endpoint.path) })
  for (const [method, route] of PAGE_ROUTES) router.on(method, route, route)
  router.on("GET", METRICS_PATH, METRICS_PATH)
  for (const method of ["GET", "POST", "DELETE"]) router.on(method, MCP_PATH, MCP_PATH)
  table = router
  return router
}

/** The template of the route `method url` reaches; "unmatched" when none does. */
export const routeTemplate = (method: string, url: string): string => templateOf(`${method === "HEAD" ? "GET" : method} ${url}`)

const templateOf = recent(512, (key: string) => {
  const space = key.indexOf(" ")
  const path = routePath(key.slice(space + 1))
  if (path === null) return "unmatched"
  return routes().find(key.slice(0, space), path)?.handler ?? "unmatched"
})
