/**
 * UF and dólar observado fetched by calendar year from the CMF API (FDS_CMF_API_KEY) or the
 * Central Bank's SIETE service (FDS_BCCH_USER, FDS_BCCH_PASS), as the bytes the Indicators source
 * parses. A year's file keeps its name and first day on each fetch, so this year's file fetched
 * again supersedes the earlier one. Both APIs take their credentials in the query string: every
 * address returned or thrown shows them as ***, and every message is cleaned of them.
 */
import { Config, Effect, Redacted, Schema } from "effect"
import { invalidSetting, textSetting } from "../Settings.ts"
import { type CmfResponse, CmfSourceError, defaultFetchOptions, type FetchOptions, send } from "./CmfHttp.ts"

/** Which API answer a value came from: the Central Bank's SIETE series or the CMF (ex-SBIF) API. */
export const IndicatorProvider = Schema.Literals(["bcentral_siete", "cmf_api"])
export type IndicatorProvider = typeof IndicatorProvider.Type

/** One fetched answer: a stable name per indicator and year, the address with credentials hidden, the bytes as served. */
export interface IndicatorFile {
  readonly name: string
  readonly url: string
  readonly bytes: Uint8Array
}

/** Fetches UF and dólar observado year by year from one API. */
export interface IndicatorFetcher {
  readonly provider: IndicatorProvider
  /** The API's base address (no credentials in it). */
  readonly baseUrl: string
  /** The names `fetchYear(year)` gives its files, to skip a year already recorded. */
  readonly fileNames: (year: number) => ReadonlyArray<string>
  /** The year's UF and dólar observado so far, one file each. */
  readonly fetchYear: (year: number, options?: FetchOptions) => Effect.Effect<ReadonlyArray<IndicatorFile>, CmfSourceError>
}

export const defaultCmfApiBaseUrl = "https://api.cmfchile.cl"
export const defaultBcchBaseUrl = "https://si3.bcentral.cl"

/** Which API UF and dólar come from, with its credentials (secrets redacted). */
export type IndicatorSettings =
  | { readonly provider: "cmf_api"; readonly baseUrl: string; readonly apiKey: Redacted.Redacted<string> }
  | { readonly provider: "bcentral_siete"; readonly baseUrl: string; readonly user: string; readonly pass: Redacted.Redacted<string> }

/** A setting trimmed; unset or blank: "". */
const trimmed = (name: string) => textSetting(name, "").pipe(Config.map((v) => v.trim()))
/** A secret trimmed, kept redacted; unset or blank: "". */
const secret = (name: string) => Config.Redacted(name).pipe(Config.withDefault(Redacted.make("")), Config.map((v) => Redacted.make(Redacted.value(v).trim())))

/**
 * The credentials the environment gives (the CMF API first: FDS_CMF_API_KEY; else SIETE:
 * FDS_BCCH_USER with FDS_BCCH_PASS), secrets redacted; null without any.
 */
export const indicatorSettings: Config.Config<IndicatorSettings | null> = Config.all({
  apiKey: secret("FDS_CMF_API_KEY"),
  apiBaseUrl: trimmed("FDS_CMF_API_BASE_URL"),
  user: trimmed("FDS_BCCH_USER"),
  pass: secret("FDS_BCCH_PASS"),
  bcchBaseUrl: trimmed("FDS_BCCH_BASE_URL"),
}).pipe(
  Config.mapEffect(({ apiKey, apiBaseUrl, user, pass, bcchBaseUrl }): Effect.Effect<IndicatorSettings | null, Config.ConfigError> => {
    if (Redacted.value(apiKey) !== "") return Effect.succeed({ provider: "cmf_api", baseUrl: apiBaseUrl || defaultCmfApiBaseUrl, apiKey })
    const hasPass = Redacted.value(pass) !== ""
    if (user === "" && !hasPass) return Effect.succeed(null)
    if (user === "" || !hasPass) return Effect.fail(invalidSetting("FDS_BCCH_USER and FDS_BCCH_PASS go together: one of them is unset", null))
    return Effect.succeed({ provider: "bcentral_siete", baseUrl: bcchBaseUrl || defaultBcchBaseUrl, user, pass })
  }),
)

export const indicatorFetcherOf = (settings: IndicatorSettings | null): IndicatorFetcher | null =>
  settings === null
    ? null
    : settings.provider === "cmf_api"
      ? cmfApiFetcher({ baseUrl: settings.baseUrl, apiKey: Redacted.value(settings.apiKey) })
      : sieteFetcher({ baseUrl: settings.baseUrl, user: settings.user, pass: Redacted.value(settings.pass) })

/** The fetcher the environment's credentials allow (the CMF API first), or null without any. */
export const indicatorFetcher: Config.Config<IndicatorFetcher | null> = indicatorSettings.pipe(Config.map(indicatorFetcherOf))

/**
 * The years to fetch from `from` to `until` (ISO dates): every year not yet recorded whole, and
 * always the last two (this year grows each day; last year's file may predate its last days).
 */
export const indicatorYears = (
  fetcher: IndicatorFetcher,
  from: string,
  until: string,
  recorded: (name: string) => boolean,
): number[] => {
  const last = Number(until.slice(0, 4))
  const years: number[] = []
  for (let year = Number(from.slice(0, 4)); year <= last; year++) {
    if (year >= last - 1 || !fetcher.fileNames(year).every(recorded)) years.push(year)
  }
  return years
}

/** Hides the secrets (as given and URL-encoded) in a text. */
const hider = (secrets: ReadonlyArray<string>) => (text: string) =>
  secrets
    .filter((s) => s !== "")
    .flatMap((s) => [s, encodeURIComponent(s)])
    .sort((a, b) => b.length - a.length)
    .reduce((t, s) => t.split(s).join("***"), text)

/** GETs `url`, failing with the address shown as `shown` and messages cleaned of the secrets. */
const fetchHidden = (url: string, shown: string, hide: (t: string) => string, options: FetchOptions) =>
  send(url, { method: "GET" }, options).pipe(
    Effect.mapError((e) => new CmfSourceError({ url: shown, message: hide(e.message), retryable: e.retryable })),
  )

type Obj = Readonly<Record<string, unknown>>
const jsonOf = (bytes: Uint8Array): Obj | null => {
  try {
    const doc: unknown = JSON.parse(Buffer.from(bytes).toString("utf8").replace(/^\ufeff/, ""))
    return typeof doc === "object" && doc !== null && !Array.isArray(doc) ? (doc as Obj) : null
  } catch {
    return null
  }
}
/** The start of an answer, quoted, with the secrets hidden before it is cut (a cut secret would escape the hiding). */
const start = (bytes: Uint8Array, hide: (t: string) => string) => {
  const text = hide(Buffer.from(bytes.subarray(0, 4096)).toString("utf8")).replace(/\s+/g, " ").trim()
  return text === "" ? "nothing" : JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)
}

/** The CMF API (ex-SBIF): `/uf/{year}` and `/dolar/{year}`, answering `{"UFs":[…]}` and `{"Dolares":[…]}`. */
export const cmfApiFetcher = (config: { readonly baseUrl: string; readonly apiKey: string }): IndicatorFetcher => {
  const base = config.baseUrl.replace(/\/+$/, "")
  const hide = hider([config.apiKey])
  const series = [
    { path: "uf", array: "UFs" },
    { path: "dolar", array: "Dolares" },
  ] as const
  const name = (path: string, year: number) => `cmf_api_${path}_${year}.json`
  const check = (shown: string, array: string, { status, bytes }: CmfResponse): Effect.Effect<Uint8Array, CmfSourceError> => {
    const doc = jsonOf(bytes)
    const said = typeof doc?.Mensaje === "string" ? `: ${hide(doc.Mensaje)}` : ""
    const fail = (message: string) => Effect.fail(new CmfSourceError({ url: shown, message, retryable: false }))
    if (status === 401 || status === 403) return fail(`the CMF API refused the API key (HTTP ${status}${said})`)
    if (status !== 200) return fail(`HTTP ${status}${said}`)
    if (doc === null || !Array.isArray(doc[array])) {
      return fail(`the CMF API answered without ${array}${said === "" ? `: ${start(bytes, hide)}` : said}`)
    }
    return Effect.succeed(bytes)
  }
  return {
    provider: "cmf_api",
    baseUrl: base,
    fileNames: (year) => series.map((s) => name(s.path, year)),
    fetchYear: (year, options = defaultFetchOptions) =>
      Effect.forEach(series, ({ path, array }) => {
        const address = (key: string) => `${base}/api-sbifv3/recursos_api/${path}/${year}?apikey=${key}&formato=json`
        const shown = address("***")
        return fetchHidden(address(encodeURIComponent(config.apiKey)), shown, hide, options).pipe(
          Effect.flatMap((response) => check(shown, array, response)),
          Effect.map((bytes): IndicatorFile => ({ name: name(path, year), url: shown, bytes })),
        )
      }),
  }
}

/** The Central Bank's SIETE `GetSeries` of UF (F073.UFF.PRE.Z.D) and dólar observado (F073.TCO.PRE.Z.D). */
export const sieteFetcher = (config: { readonly baseUrl: string; readonly user: string; readonly pass: string }): IndicatorFetcher => {
  const base = config.baseUrl.replace(/\/+$/, "")
  const hide = hider([config.user, config.pass])
  const series = ["F073.UFF.PRE.Z.D", "F073.TCO.PRE.Z.D"] as const
  const name = (id: string, year: number) => `siete_${id}_${year}.json`
  const check = (shown: string, { status, bytes }: CmfResponse): Effect.Effect<Uint8Array, CmfSourceError> => {
    const fail = (message: string) => Effect.fail(new CmfSourceError({ url: shown, message, retryable: false }))
    if (status !== 200) return fail(`HTTP ${status}`)
    const doc = jsonOf(bytes)
    if (doc === null || !("Codigo" in doc)) return fail(`SIETE answered something else than a GetSeries answer: ${start(bytes, hide)}`)
    if (doc.Codigo !== 0) {
      const why = typeof doc.Descripcion === "string" ? ` (${hide(doc.Descripcion)})` : ""
      return fail(`SIETE refused the request: Codigo ${hide(JSON.stringify(doc.Codigo))}${why}`)
    }
    return Effect.succeed(bytes)
  }
  return {
    provider: "bcentral_siete",
    baseUrl: base,
    fileNames: (year) => series.map((id) => name(id, year)),
    fetchYear: (year, options = defaultFetchOptions) =>
      Effect.forEach(series, (id) => {
        const address = (user: string, pass: string) =>
          `${base}/SieteRestWS/SieteRestWS.ashx?user=${user}&pass=${pass}&function=GetSeries&timeseries=${id}` +
          `&firstdate=${year}-01-01&lastdate=${year}-12-31`
        const shown = address("***", "***")
        return fetchHidden(address(encodeURIComponent(config.user), encodeURIComponent(config.pass)), shown, hide, options).pipe(
          Effect.flatMap((response) => check(shown, response)),
          Effect.map((bytes): IndicatorFile => ({ name: name(id, year), url: shown, bytes })),
        )
      }),
  }
}
