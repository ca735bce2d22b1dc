/**
 * A local stand-in for the two indicator APIs, for tests: the CMF API (ex-SBIF)
 * `/api-sbifv3/recursos_api/{uf|dolar}/{YYYY}?apikey=&formato=json` and the Central Bank's
 * `/SieteRestWS/SieteRestWS.ashx?user=&pass=&function=GetSeries&timeseries=&firstdate=&lastdate=`,
 * answering the given bodies when the credentials match. A wrong API key is a 401 with the CMF
 * API's error JSON; wrong SIETE credentials a 200 with `Codigo` -5, as SIETE answers.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export interface IndicatorApis {
  readonly url: string
  /** Every request's path and query, decoded. */
  readonly requests: Array<{ path: string; query: Record<string, string> }>
  /** Answer every request with this status and body instead. */
  fault: { status: number; body: string } | null
  close(): Promise<void>
}

export const startIndicatorApis = async (config: {
  readonly apiKey: string
  readonly user: string
  readonly pass: string
  /** Bodies by `uf/2025`, `dolar/2025` (CMF API) or `F073.UFF.PRE.Z.D/2025` (SIETE, by the first date's year). */
  readonly bodies: Readonly<Record<string, string>>
}): Promise<IndicatorApis> => {
  const state: IndicatorApis = {
    url: "",
    requests: [],
    fault: null,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  const json = (status: number, body: string) =>
    ({ status, headers: { "content-type": "application/json; charset=utf-8" }, body }) as const
  const answer = (path: string, query: Record<string, string>) => {
    if (state.fault !== null) return json(state.fault.status, state.fault.body)
    const cmf = /^\/api-sbifv3\/recursos_api\/(uf|dolar)\/(\d{4})$/.exec(path)
    if (cmf !== null) {
      if (query.apikey !== config.apiKey) {
        return json(401, JSON.stringify({ CodigoHTTP: 401, CodigoError: 89, Mensaje: "Apikey no válida" }))
      }
      const body = config.bodies[`${cmf[1]}/${cmf[2]}`]
      if (body === undefined) return json(404, JSON.stringify({ CodigoHTTP: 404, CodigoError: 81, Mensaje: "No se encontraron datos" }))
      return json(200, body)
    }
    if (path === "/SieteRestWS/SieteRestWS.ashx" && query.function === "GetSeries") {
      if (query.user !== config.user || query.pass !== config.pass) {
        return json(
          200,
          JSON.stringify({
            Codigo: -5,
            Descripcion: "Invalid username or password",
            Series: { descripEsp: null, descripIng: null, seriesId: null, Obs: null },
            SeriesInfos: [],
          }),
        )
      }
      const body = config.bodies[`${query.timeseries}/${(query.firstdate ?? "").slice(0, 4)}`]
      if (body === undefined) return json(200, JSON.stringify({ Codigo: -1, Descripcion: "Invalid series", Series: null }))
      return json(200, body)
    }
    return json(404, "{}")
  }
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x")
    const query = Object.fromEntries(url.searchParams)
    state.requests.push({ path: url.pathname, query })
    const { status, headers, body } = answer(url.pathname, query)
    res.writeHead(status, headers).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return Object.assign(state, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
}
