/**
 * How the FM data sets are fetched from the CMF over HTTP: the registry; the daily BPR report; the
 * daily cartola month by month through its captcha form when a solver is configured (CMF serves at
 * most ~31 days per request; months already recorded whole are not fetched again, the current
 * month is fetched again each day); the monthly portfolios and the TAC workbook of the last closed
 * months.
 */
import { Effect } from "effect"
import { weekdaysBefore } from "../../../snapshots/Status.ts"
import { CmfSession, CmfSourceError, getBytes, postForm, send, getPage } from "../../fetch/CmfHttp.ts"
import type { FetchContext } from "../DataSet.ts"
import { CartolaSession, fetchCartolaRange } from "./CartolaDownload.ts"

const compact = (iso: string): string => iso.replaceAll("-", "")
const monthEnd = (y: number, m: number): string =>
  `${y}-${String(m).padStart(2, "0")}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, "0")}`

/** Calendar months [first, last] from `start` to `end`, the last one clamped to `end`. */
export const monthRanges = (start: string, end: string): Array<{ first: string; last: string }> => {
  const out: Array<{ first: string; last: string }> = []
  let y = Number(start.slice(0, 4))
  let m = Number(start.slice(5, 7))
  for (;;) {
    const first = `${y}-${String(m).padStart(2, "0")}-01`
    if (first > end) break
    const full = monthEnd(y, m)
    out.push({ first: first < start ? start : first, last: full < end ? full : end })
    m++
    if (m === 13) {
      m = 1
      y++
    }
  }
  return out
}

/** The `count` calendar months before the month of `until`, oldest first, as YYYY-MM. */
export const closedMonths = (until: string, count: number): string[] => {
  const out: string[] = []
  let y = Number(until.slice(0, 4))
  let m = Number(until.slice(5, 7))
  for (let i = 0; i < count; i++) {
    m--
    if (m === 0) {
      m = 12
      y--
    }
    out.unshift(`${y}-${String(m).padStart(2, "0")}`)
  }
  return out
}

/**
 * The weekdays to fetch the daily BPR report for, oldest first: from the day before the last batch
 * published (the last day known to have values; a day fetched before its values were published
 * answers an empty report, so every day after it is fetched again until a batch moves past it) to
 * `until`, at most `maxDays` back. Holidays are not known: their report is empty.
 */
export const bprDays = (published: string | undefined, historyStart: string, until: string, maxDays: number): string[] => {
  if (maxDays <= 0) return []
  const earliest = weekdaysBefore(until, maxDays - 1)
  let from = published === undefined || published > until ? earliest : weekdaysBefore(published, 1)
  if (from < earliest) from = earliest
  if (from < historyStart) from = historyStart
  const days: string[] = []
  for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${until}T00:00:00Z`); d += 86_400_000) {
    if (![0, 6].includes(new Date(d).getUTCDay())) days.push(new Date(d).toISOString().slice(0, 10))
  }
  return days
}

/** The FM registry, every run. */
export const fetchFmRegistry = <E>(c: FetchContext<E>) =>
  Effect.gen(function* () {
    const url = `${c.base}/institucional/estadisticas/fm_ident2.php`
    yield* c.record("fm_ident2.txt", url, yield* postForm(url, {}, c.fetch))
  })

/**
 * The daily BPR report (no captcha): every weekday since the last batch's day (the CMF publishes
 * a day's values a business day late, so a day fetched too early is fetched again), at most
 * `bprDays` back.
 */
export const fetchFmBprDaily = <E>(c: FetchContext<E>) =>
  Effect.gen(function* () {
    for (const day of bprDays(c.lastPublished, c.historyStart, c.until, c.bprDays)) {
      const url =
        `${c.base}/institucional/estadisticas/fm.fm_bpr_dia.php?admins=0&tipofondo=0&moneda=0` +
        `&dia_select=${Number(day.slice(8, 10))}&mes_peri=${day.slice(5, 7)}&anio_peri=${day.slice(0, 4)}&out=excel&lang=es`
      yield* c.record(`fm_bpr_dia_${compact(day)}.xls`, url, yield* getBytes(url, c.fetch))
    }
  })

/** The daily cartola month by month, when a captcha solver is configured. */
export const fetchCartola = <E>(c: FetchContext<E>) =>
  Effect.gen(function* () {
    if (c.captcha === null) {
      c.wait("FDS_CAPTCHA_COMMAND is not set: the cartola is not fetched; drop it into the inbox")
      return
    }
    const session = new CartolaSession(c.base)
    for (const { first, last } of monthRanges(c.historyStart, c.until)) {
      const name = `ffmm_todos_${compact(first)}_${compact(last)}.txt`
      const whole = last === monthEnd(Number(first.slice(0, 4)), Number(first.slice(5, 7)))
      if (whole && c.known.has(name)) continue
      const bytes = yield* fetchCartolaRange(session, { first, last }, c.captcha, c.fetch)
      yield* c.record(name, `${c.base}/institucional/estadisticas/cfm_download.php?${first}..${last}`, bytes)
    }
  })

/** Monthly portfolios of the last closed months; a month already recorded is final. */
export const fetchFmPortfolio = <E>(c: FetchContext<E>) =>
  Effect.gen(function* () {
    const portfolioUrl = `${c.base}/institucional/estadisticas/ffm_download.php`
    for (const month of closedMonths(c.until, c.portfolioMonths)) {
      for (const cartera of ["NACI", "EXTR"] as const) {
        const name = `ffm_${cartera}_${month.replace("-", "")}.txt`
        if (c.known.has(name)) continue
        const bytes = yield* postForm(
          portfolioUrl,
          { aa: month.slice(0, 4), mm: month.slice(5, 7), cartera, btnConsulta: "GENERAR ARCHIVO" },
          c.fetch,
        )
        yield* c.record(name, `${portfolioUrl}?${cartera}&${month}`, bytes)
      }
    }
  })

/**
 * The monthly TAC workbook of the last closed months (read as the CMF publishes it: XLS, or an
 * HTML table served as Excel), in the session its form page opens; a month built into a batch is final.
 */
export const fetchFmTac = <E>(c: FetchContext<E>) =>
  Effect.gen(function* () {
    const tacSession = new CmfSession()
    let tacPage = false
    for (const month of closedMonths(c.until, c.portfolioMonths)) {
      const name = `fmdfm_costos_${month.replace("-", "")}.xls`
      if (c.known.has(name)) continue
      if (!tacPage) {
        yield* getPage(`${c.base}/institucional/estadisticas/fmdfm_consulta1.php`, c.fetch, tacSession)
        tacPage = true
      }
      const url = `${c.base}/institucional/estadisticas/fmdfm_excel2.php?lang=es`
      const answer = yield* send(
        url,
        { method: "POST", form: { admins: "0", tipofondo: "0", moneda: "0", mes2: month.slice(5, 7), anno2: month.slice(0, 4) }, session: tacSession },
        c.fetch,
      )
      if (answer.status !== 200) return yield* new CmfSourceError({ url, message: `HTTP ${answer.status}`, retryable: false })
      yield* c.record(name, `${url}&${month}`, answer.bytes)
    }
  })
