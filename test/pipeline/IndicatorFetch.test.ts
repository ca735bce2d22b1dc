/**
 * UF and dólar observado fetched over HTTP from local stand-ins of the CMF API and SIETE: the
 * bytes parse with the Indicators source to the values served, the credentials are sent and
 * never shown, and refusals are clear and not retried.
 */
import { Effect } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { CmfSourceError } from "../../pipeline/fetch/CmfHttp.ts"
import { cmfApiFetcher, type IndicatorFetcher, indicatorFetcher, indicatorYears } from "../../pipeline/fetch/IndicatorFetch.ts"
import { IndicatorsSource } from "../../pipeline/datasets/market/Indicators.ts"
import { type IndicatorApis, startIndicatorApis } from "../support/indicatorApis.ts"
import { envProvider, readSettings } from "../../pipeline/Settings.ts"

const API_KEY = "k3y-0f/the+api"
const USER = "ops@fondos.cl"
const PASS = "s3cr&t=ñ pass"
const SECRETS = [API_KEY, encodeURIComponent(API_KEY), USER, encodeURIComponent(USER), PASS, encodeURIComponent(PASS)]

// Real answer shapes (research §7): Chilean number strings in the CMF API, "." decimals and DD-MM-YYYY in SIETE.
const CMF_UF_2025 = `{"UFs":[{"Valor":"38.419,17","Fecha":"2025-01-01"},{"Valor":"38.421,64","Fecha":"2025-01-02"}]}`
const CMF_DOLAR_2025 = `{"Dolares":[{"Valor":"996,46","Fecha":"2025-01-02"},{"Valor":"999,84","Fecha":"2025-01-03"}]}`
const siete = (id: string, obs: string) =>
  `{"Codigo":0,"Descripcion":"Success","Series":{"descripEsp":"serie","descripIng":"series","seriesId":"${id}","Obs":[${obs}]},"SeriesInfos":[]}`
const SIETE_UF_2025 = siete(
  "F073.UFF.PRE.Z.D",
  `{"indexDateString":"01-01-2025","value":"38419.17","statusCode":"OK"},{"indexDateString":"02-01-2025","value":"38421.64","statusCode":"OK"}`,
)
const SIETE_USD_2025 = siete(
  "F073.TCO.PRE.Z.D",
  `{"indexDateString":"01-01-2025","value":"NaN","statusCode":"ND"},{"indexDateString":"02-01-2025","value":"996.46","statusCode":"OK"}`,
)

const FETCH = { timeoutMillis: 5000, retries: 2, retryBaseMillis: 10 }
let apis: IndicatorApis
beforeEach(async () => {
  apis = await startIndicatorApis({
    apiKey: API_KEY,
    user: USER,
    pass: PASS,
    bodies: {
      "uf/2025": CMF_UF_2025,
      "dolar/2025": CMF_DOLAR_2025,
      "F073.UFF.PRE.Z.D/2025": SIETE_UF_2025,
      "F073.TCO.PRE.Z.D/2025": SIETE_USD_2025,
    },
  })
})
afterEach(() => apis.close())

const cmfApi = (apiKey = API_KEY) => readSettings(indicatorFetcher, envProvider({ FDS_CMF_API_KEY: apiKey, FDS_CMF_API_BASE_URL: `${apis.url}/` }))!
const bcch = (user = USER, pass = PASS) =>
  readSettings(indicatorFetcher, envProvider({ FDS_BCCH_USER: user, FDS_BCCH_PASS: pass, FDS_BCCH_BASE_URL: apis.url }))!
const year = (fetcher: IndicatorFetcher, y = 2025) => Effect.runPromise(fetcher.fetchYear(y, FETCH))
const failure = (fetcher: IndicatorFetcher, y = 2025) => Effect.runPromise(Effect.flip(fetcher.fetchYear(y, FETCH)))
const values = async (file: { name: string; bytes: Uint8Array }) =>
  (await Effect.runPromise(IndicatorsSource.parse(file.bytes, file.name))).records.map((r) => [r.indicator, r.date, r.value, r.provider])
const expectNoSecret = (text: string) => {
  for (const secret of SECRETS) expect(text).not.toContain(secret)
}

describe("the CMF API (FDS_CMF_API_KEY)", () => {
  it("fetches the year's UF and dólar as served, parsed by the Indicators source to the values served", async () => {
    const files = await year(cmfApi())
    expect(files.map((f) => f.name)).toEqual(["cmf_api_uf_2025.json", "cmf_api_dolar_2025.json"])
    expect(files.map((f) => f.url)).toEqual([
      `${apis.url}/api-sbifv3/recursos_api/uf/2025?apikey=***&formato=json`,
      `${apis.url}/api-sbifv3/recursos_api/dolar/2025?apikey=***&formato=json`,
    ])
    expect(Buffer.from(files[0]!.bytes).toString("utf8")).toBe(CMF_UF_2025)
    expect(await values(files[0]!)).toEqual([
      ["UF", "2025-01-01", 38419.17, "cmf_api"],
      ["UF", "2025-01-02", 38421.64, "cmf_api"],
    ])
    expect(await values(files[1]!)).toEqual([
      ["USD", "2025-01-02", 996.46, "cmf_api"],
      ["USD", "2025-01-03", 999.84, "cmf_api"],
    ])
    // The same year fetched again keeps its key, so it supersedes the earlier file.
    expect(IndicatorsSource.key(files[0]!.name, files[0]!.bytes, "0".repeat(64))).toBe("UF:from_2025-01-01")
    expect(apis.requests.map((r) => [r.path, r.query])).toEqual([
      ["/api-sbifv3/recursos_api/uf/2025", { apikey: API_KEY, formato: "json" }],
      ["/api-sbifv3/recursos_api/dolar/2025", { apikey: API_KEY, formato: "json" }],
    ])
  })

  it("a refused API key (HTTP 401) fails at once, clearly, without the key", async () => {
    const error = await failure(cmfApi("wrong-but-secret"))
    expect(error).toBeInstanceOf(CmfSourceError)
    expect(error.message).toBe("the CMF API refused the API key (HTTP 401: Apikey no válida)")
    expect(error.retryable).toBe(false)
    expect(error.url).toBe(`${apis.url}/api-sbifv3/recursos_api/uf/2025?apikey=***&formato=json`)
    expect(`${error.url} ${error.message}`).not.toContain("wrong-but-secret")
    expect(apis.requests).toHaveLength(1) // not retried
  })

  it("an error JSON with HTTP 200, or an answer without its array, is an error, not a file", async () => {
    apis.fault = { status: 200, body: `{"CodigoHTTP":403,"CodigoError":90,"Mensaje":"Acceso denegado a ${API_KEY}"}` }
    const error = await failure(cmfApi())
    expect(error.message).toBe("the CMF API answered without UFs: Acceso denegado a ***")
    expect(error.retryable).toBe(false)
    apis.fault = { status: 403, body: "<html>forbidden</html>" }
    expect((await failure(cmfApi())).message).toBe("the CMF API refused the API key (HTTP 403)")
    apis.fault = { status: 200, body: "<html>maintenance</html>" }
    expect((await failure(cmfApi())).message).toBe('the CMF API answered without UFs: "<html>maintenance</html>"')
  })

  it("a year without data (HTTP 404) names the status and the API's message", async () => {
    const error = await failure(cmfApi(), 2031)
    expect(error.message).toBe("HTTP 404: No se encontraron datos")
    expect(error.url).toBe(`${apis.url}/api-sbifv3/recursos_api/uf/2031?apikey=***&formato=json`)
  })
})

describe("SIETE (FDS_BCCH_USER, FDS_BCCH_PASS)", () => {
  it("fetches the year's two series as served, parsed by the Indicators source to the values served", async () => {
    const files = await year(bcch())
    expect(files.map((f) => f.name)).toEqual(["siete_F073.UFF.PRE.Z.D_2025.json", "siete_F073.TCO.PRE.Z.D_2025.json"])
    expect(files[1]!.url).toBe(
      `${apis.url}/SieteRestWS/SieteRestWS.ashx?user=***&pass=***&function=GetSeries&timeseries=F073.TCO.PRE.Z.D&firstdate=2025-01-01&lastdate=2025-12-31`,
    )
    expect(Buffer.from(files[1]!.bytes).toString("utf8")).toBe(SIETE_USD_2025)
    expect(await values(files[0]!)).toEqual([
      ["UF", "2025-01-01", 38419.17, "bcentral_siete"],
      ["UF", "2025-01-02", 38421.64, "bcentral_siete"],
    ])
    expect(await values(files[1]!)).toEqual([["USD", "2025-01-02", 996.46, "bcentral_siete"]])
    expect(IndicatorsSource.key(files[1]!.name, files[1]!.bytes, "0".repeat(64))).toBe("USD:from_2025-01-01")
    // The credentials reach the service decoded, whatever their characters.
    expect(apis.requests.map((r) => r.query)).toEqual(
      ["F073.UFF.PRE.Z.D", "F073.TCO.PRE.Z.D"].map((timeseries) => ({
        user: USER,
        pass: PASS,
        function: "GetSeries",
        timeseries,
        firstdate: "2025-01-01",
        lastdate: "2025-12-31",
      })),
    )
  })

  it("bad credentials (Codigo -5) fail at once, clearly, without them", async () => {
    const error = await failure(bcch(USER, "not-the-pass"))
    expect(error.message).toBe("SIETE refused the request: Codigo -5 (Invalid username or password)")
    expect(error.retryable).toBe(false)
    expect(error.url).toContain("user=***&pass=***&function=GetSeries")
    expect(`${error.url} ${error.message}`).not.toContain("not-the-pass")
    expectNoSecret(`${error.url} ${error.message}`)
    expect(apis.requests).toHaveLength(1)
  })

  it("an answer that is not SIETE's is an error, cleaned of the credentials it echoes", async () => {
    apis.fault = { status: 200, body: `Server error for user ${USER}` }
    const error = await failure(bcch())
    expect(error.message).toBe('SIETE answered something else than a GetSeries answer: "Server error for user ***"')
    expectNoSecret(`${error.url} ${error.message}`)
  })

  it("a password the 80-character quote would cut is hidden before the cut (no part of it shown)", async () => {
    // 70 characters, then the password: a cut at 80 would leave its first 10 characters unhidden.
    apis.fault = { status: 200, body: `${"x".repeat(70)}${PASS} tail` }
    const error = await failure(bcch())
    expect(error.message).toBe(`SIETE answered something else than a GetSeries answer: "${"x".repeat(70)}*** tail"`)
    expect(error.message).not.toContain(PASS.slice(0, 6))
  })
})

describe("failures on the way never show the credentials", () => {
  it("a 5xx is retried, then fails with the address hidden", async () => {
    apis.fault = { status: 503, body: "busy" }
    for (const fetcher of [cmfApi(), bcch()]) {
      apis.requests.length = 0
      const error = await failure(fetcher)
      expect(error.message).toBe("HTTP 503")
      expect(error.retryable).toBe(true)
      expect(apis.requests).toHaveLength(1 + FETCH.retries)
      expectNoSecret(`${error.url} ${error.message} ${JSON.stringify(error)}`)
    }
  })

  it("a service that does not answer (connection refused) fails with the address hidden", async () => {
    await apis.close()
    for (const fetcher of [cmfApi(), bcch()]) {
      const error = await failure(fetcher)
      expect(error.message).toMatch(/^request failed: /)
      expectNoSecret(`${error.url} ${error.message} ${String(error)}`)
    }
    apis = await startIndicatorApis({ apiKey: "", user: "", pass: "", bodies: {} }) // for afterEach
  })
})

describe("indicatorFetcher (Config)", () => {
  it("is null without credentials; the CMF API when its key is set (first), else SIETE", () => {
    expect(readSettings(indicatorFetcher, envProvider({}))).toBeNull()
    expect(readSettings(indicatorFetcher, envProvider({ FDS_CMF_API_KEY: " ", FDS_BCCH_USER: "", FDS_BCCH_PASS: "" }))).toBeNull()
    expect(readSettings(indicatorFetcher, envProvider({ FDS_CMF_API_KEY: "k" }))!.provider).toBe("cmf_api")
    expect(readSettings(indicatorFetcher, envProvider({ FDS_CMF_API_KEY: "k", FDS_BCCH_USER: "u", FDS_BCCH_PASS: "p" }))!.provider).toBe("cmf_api")
    expect(readSettings(indicatorFetcher, envProvider({ FDS_BCCH_USER: "u", FDS_BCCH_PASS: "p" }))!.provider).toBe("bcentral_siete")
  })

  it("refuses one of the SIETE pair alone, naming the variables only", () => {
    expect(() => readSettings(indicatorFetcher, envProvider({ FDS_BCCH_USER: "someone" }))).toThrow(
      "FDS_BCCH_USER and FDS_BCCH_PASS go together: one of them is unset",
    )
    expect(() => readSettings(indicatorFetcher, envProvider({ FDS_BCCH_PASS: "hunter2" }))).toThrow(/^(?!.*hunter2)/)
  })

  it("defaults to the public addresses; a base URL given replaces them", () => {
    expect(readSettings(indicatorFetcher, envProvider({ FDS_CMF_API_KEY: "k" }))!.baseUrl).toBe("https://api.cmfchile.cl")
    expect(readSettings(indicatorFetcher, envProvider({ FDS_BCCH_USER: "u", FDS_BCCH_PASS: "p" }))!.baseUrl).toBe("https://si3.bcentral.cl")
    expect(readSettings(indicatorFetcher, envProvider({ FDS_CMF_API_KEY: "k", FDS_CMF_API_BASE_URL: "http://127.0.0.1:9/" }))!.baseUrl).toBe("http://127.0.0.1:9")
    expect(readSettings(indicatorFetcher, envProvider({ FDS_BCCH_USER: "u", FDS_BCCH_PASS: "p", FDS_BCCH_BASE_URL: "http://127.0.0.1:9" }))!.baseUrl).toBe(
      "http://127.0.0.1:9",
    )
  })
})

describe("indicatorYears", () => {
  it("every year not recorded whole, and always this year and the last", () => {
    const fetcher = cmfApiFetcher({ baseUrl: "http://127.0.0.1:1", apiKey: "x" })
    expect(indicatorYears(fetcher, "2020-06-30", "2025-03-02", () => false)).toEqual([2020, 2021, 2022, 2023, 2024, 2025])
    expect(indicatorYears(fetcher, "2020-06-30", "2025-03-02", () => true)).toEqual([2024, 2025])
    const recorded = new Set([...fetcher.fileNames(2020), ...fetcher.fileNames(2021), "cmf_api_uf_2022.json"])
    expect(indicatorYears(fetcher, "2020-06-30", "2025-03-02", (n) => recorded.has(n))).toEqual([2022, 2023, 2024, 2025])
    expect(indicatorYears(fetcher, "2025-01-01", "2025-03-02", () => true)).toEqual([2025])
  })
})
