/**
 * The daily cartola as the CMF's own form downloads it: open the page (its PHPSESSID cookie binds
 * the captcha to the session), fetch the captcha image, have it solved, validate the code
 * (`accion=valida` answers "1"), then POST the range with the code, all in the one session. A code
 * the CMF accepted serves the next ranges of the run too, until a download is refused: then a new
 * image is solved. Each image counts as a try; after `solver.tries` the download fails.
 */
import { Effect } from "effect"
import { parse } from "node-html-parser"
import type { CaptchaSolver } from "../../fetch/CaptchaSolver.ts"
import {
  type CmfResponse,
  CmfSession,
  CmfSourceError,
  defaultFetchOptions,
  type FetchOptions,
  getBytes,
  getPage,
  isHtmlAnswer,
  postText,
  send,
} from "../../fetch/CmfHttp.ts"

export const CARTOLA_PAGE_PATH = "/institucional/estadisticas/fondos_cartola_diaria.php"
export const CAPTCHA_VALIDATE_PATH = "/sitio/biblioteca/captcha2/captcha.php"
export const CARTOLA_DOWNLOAD_PATH = "/institucional/estadisticas/cfm_download.php"

/** One browsing session on the cartola page, kept for a run: its cookies and the code accepted in it. */
export class CartolaSession {
  readonly http = new CmfSession()
  readonly baseUrl: string
  /** The code the CMF last accepted in this session; null until solved, and after a refusal. */
  code: string | null = null
  /** The captcha image's address, from the page; null until the page is (re)loaded. */
  imageUrl: string | null = null
  /** Images fetched and given to the solver in this session, over all downloads. */
  solves = 0

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, "")
  }

  get pageUrl(): string {
    return `${this.baseUrl}${CARTOLA_PAGE_PATH}`
  }
}

/** A calendar range of days, ISO dates, at most ~31 days (the CMF's limit per request). */
export interface DayRange {
  readonly first: string
  readonly last: string
}

const ddmmyyyy = (iso: string): string => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`

/** The cartola file of `range` (bytes as served: the rows, or CMF's "Sin información"). */
export const fetchCartolaRange = (
  session: CartolaSession,
  range: DayRange,
  solver: CaptchaSolver,
  options: FetchOptions = defaultFetchOptions,
): Effect.Effect<Uint8Array, CmfSourceError> =>
  Effect.gen(function* () {
    const downloadUrl = `${session.baseUrl}${CARTOLA_DOWNLOAD_PATH}`
    let tries = 0
    let last = ""
    for (;;) {
      if (session.code === null) {
        if (tries >= solver.tries) {
          return yield* new CmfSourceError({
            url: downloadUrl,
            message: `the captcha was not solved in ${tries} ${tries === 1 ? "try" : "tries"} (last: ${last})`,
            retryable: false,
          })
        }
        tries++
        const solved = yield* solveOnce(session, solver, options)
        if (!solved.ok) {
          last = solved.why
          continue
        }
        session.code = solved.code
      }
      // The real form's fields, in its order: `ffmm=%` is every fund.
      const form = { txt_inicio: ddmmyyyy(range.first), txt_termino: ddmmyyyy(range.last), ffmm: "%", captcha: session.code }
      const answer = yield* send(downloadUrl, { method: "POST", form, session: session.http, referer: session.pageUrl }, options)
      if (answer.status !== 200) {
        return yield* new CmfSourceError({ url: downloadUrl, message: `HTTP ${answer.status}`, retryable: false })
      }
      const refusal = refusalOf(answer)
      if (refusal === null) return answer.bytes
      last = `the download refused code ${session.code}: it answered ${refusal}`
      session.code = null
      session.imageUrl = null
    }
  })

type Solved = { readonly ok: true; readonly code: string } | { readonly ok: false; readonly why: string }

/** One try: a new image, solved and validated in the session. */
const solveOnce = (session: CartolaSession, solver: CaptchaSolver, options: FetchOptions) =>
  Effect.gen(function* () {
    if (session.imageUrl === null) {
      const page = yield* getPage(session.pageUrl, options, session.http)
      session.imageUrl = yield* captchaImageUrl(session.pageUrl, page)
    }
    const imageUrl = session.imageUrl
    const image = yield* getBytes(imageUrl, options, session.http)
    if (!isImage(image)) {
      return yield* new CmfSourceError({ url: imageUrl, message: "the captcha address answered something that is not an image", retryable: false })
    }
    session.solves++
    const solved = yield* solver.solve(image).pipe(Effect.result)
    if (solved._tag === "Failure") return { ok: false, why: solved.failure.message } satisfies Solved
    const code = solved.success
    const validateUrl = `${session.baseUrl}${CAPTCHA_VALIDATE_PATH}`
    const answer = (yield* postText(validateUrl, { accion: "valida", valor: code }, options, session.http)).trim()
    if (answer !== "1") {
      return { ok: false, why: `the CMF did not accept code ${code} (validation answered ${show(answer)})` } satisfies Solved
    }
    return { ok: true, code } satisfies Solved
  })

const show = (text: string): string => {
  const line = text.replace(/\s+/g, " ").trim()
  return line === "" ? "nothing" : JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line)
}

const captchaImageUrl = (pageUrl: string, page: Uint8Array): Effect.Effect<string, CmfSourceError> => {
  const src = parse(Buffer.from(page).toString("latin1")).querySelector("img#captcha_img")?.getAttribute("src")
  if (src === undefined || src.trim() === "") {
    return Effect.fail(new CmfSourceError({ url: pageUrl, message: "the cartola page has no captcha image (img#captcha_img)", retryable: false }))
  }
  return Effect.succeed(new URL(src.trim(), pageUrl).href)
}

const isImage = (b: Uint8Array): boolean =>
  (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) || // PNG
  (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) || // JPEG
  (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) // GIF

/**
 * Why the download is not the file, or null. A body starting with the cartola header, or CMF's
 * "Sin información", is an answer whatever its content type; an HTML page (the form again) or a
 * short text about the captcha is a refusal of the code.
 */
const refusalOf = (answer: CmfResponse): string | null => {
  const head = Buffer.from(answer.bytes.subarray(0, 1024)).toString("latin1")
  if (/^\s*RUN_ADM;/.test(head)) return null
  const mentionsCaptcha = /captcha/i.test(head)
  if (/sin informaci/i.test(head) && !mentionsCaptcha) return null
  if (isHtmlAnswer(answer.contentType, answer.bytes)) return "an HTML page"
  if (mentionsCaptcha && answer.bytes.length < 1024) return show(head)
  return null
}
