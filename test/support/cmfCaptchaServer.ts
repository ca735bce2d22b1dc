/**
 * A local stand-in for the CMF's captcha-protected cartola form, for tests. GET the page → a
 * PHPSESSID cookie and `<img id="captcha_img">`; GET the image (in a session) → a new code for
 * that session, drawn as a small PNG whose tEXt chunk "captcha" carries it (a test solver reads
 * it from its stdin); POST `accion=valida&valor=` → "1" or "0"; POST cfm_download.php → the
 * cartola rows of the range only with the session's cookie and its validated code, else the form
 * page again (HTML), as the CMF does. `lies` makes the next images carry a wrong code;
 * `codeUses` bounds the downloads one validated code serves.
 */
import { randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { crc32, deflateSync } from "node:zlib"

export interface CaptchaRequest {
  readonly method: string
  readonly path: string
  readonly cookie: string
  readonly body: string
  readonly form: Record<string, string>
}

export interface CmfCaptchaServer {
  readonly url: string
  readonly requests: Array<CaptchaRequest>
  /** The next `lies` images carry a wrong code. */
  lies: number
  /** How many downloads one validated code serves (then the form refuses it). */
  codeUses: number
  /** The page without its captcha image (a changed site). */
  pageWithoutImage: boolean
  close(): Promise<void>
}

const ALPHABET = "ABCDEFGHIJLMNPQRSTUVWXYZ0123456789" // no K and no O, like the CMF's
const newCode = () => Array.from(randomBytes(6), (b) => ALPHABET[b % ALPHABET.length]).join("")

const chunk = (type: string, data: Buffer): Buffer => {
  const head = Buffer.alloc(4)
  head.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, "latin1"), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([head, body, crc])
}

/** A valid 1×1 grey PNG whose tEXt chunk `captcha` holds `text`. */
export const captchaPng = (text: string): Buffer => {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(1, 0)
  ihdr.writeUInt32BE(1, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 0 // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("tEXt", Buffer.from(`captcha\u0000${text}`, "latin1")),
    chunk("IDAT", deflateSync(Buffer.from([0, 0x80]))),
    chunk("IEND", Buffer.alloc(0)),
  ])
}

/** The cartola form page, as the CMF serves it (with its captcha image, unless `withImage` is false). */
export const FORM_PAGE = (withImage: boolean) =>
  `<!DOCTYPE html><html><head><title>Cartola diaria</title></head><body><form method="post" action="cfm_download.php">` +
  `<input id="txt_inicio" name="txt_inicio"><input id="txt_termino" name="txt_termino">` +
  (withImage ? `<img alt="captcha" src="/sitio/biblioteca/captcha2/captcha.php" id="captcha_img">` : "") +
  `<label for="captcha">Ingrese los caracteres de la imagen</label><input name="captcha" id="captcha">` +
  `<input type="submit" value="GENERAR ARCHIVO"></form></body></html>`

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ""
    req.setEncoding("latin1")
    req.on("data", (c: string) => {
      body += c
    })
    req.on("end", () => resolve(body))
  })

/** `cartola`: the header and rows (latin-1 text) the range is cut from by FECHA_INF. */
export const startCmfCaptchaServer = async (cartola: string): Promise<CmfCaptchaServer> => {
  const [header, ...rows] = cartola.split(/\r?\n/).filter((l) => l.trim() !== "")
  const sessions = new Map<string, { code: string | null; validated: string | null; uses: number }>()
  const toCompact = (ddmmyyyy: string) => ddmmyyyy.slice(6, 10) + ddmmyyyy.slice(3, 5) + ddmmyyyy.slice(0, 2)

  const state: CmfCaptchaServer = {
    url: "",
    requests: [],
    lies: 0,
    codeUses: Number.POSITIVE_INFINITY,
    pageWithoutImage: false,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req)
    const path = new URL(req.url ?? "/", "http://x").pathname
    const cookie = req.headers.cookie ?? ""
    const form = Object.fromEntries(new URLSearchParams(body))
    state.requests.push({ method: req.method ?? "", path, cookie, body, form })
    const sid = /(?:^|;\s*)PHPSESSID=([^;]+)/.exec(cookie)?.[1]
    const session = sid === undefined ? undefined : sessions.get(sid)
    const html = (text: string) => res.writeHead(200, { "content-type": "text/html; charset=iso-8859-1" }).end(text)

    if (req.method === "GET" && path === "/institucional/estadisticas/fondos_cartola_diaria.php") {
      if (session === undefined) {
        const id = randomBytes(8).toString("hex")
        sessions.set(id, { code: null, validated: null, uses: 0 })
        res.setHeader("set-cookie", `PHPSESSID=${id}; path=/`)
      }
      return html(FORM_PAGE(!state.pageWithoutImage))
    }
    if (path === "/sitio/biblioteca/captcha2/captcha.php") {
      if (session === undefined) return res.writeHead(403).end("no session")
      if (req.method === "GET") {
        session.code = newCode()
        session.validated = null
        const wrong = (session.code[0] === "Z" ? "Y" : "Z") + session.code.slice(1)
        const shown = state.lies > 0 ? wrong : session.code
        if (state.lies > 0) state.lies--
        return res.writeHead(200, { "content-type": "image/png" }).end(captchaPng(shown))
      }
      const ok = form.accion === "valida" && session.code !== null && form.valor === session.code
      if (ok) {
        session.validated = session.code
        session.uses = 0
      }
      return res.writeHead(200, { "content-type": "text/html" }).end(ok ? "1" : "0")
    }
    if (req.method === "POST" && path === "/institucional/estadisticas/cfm_download.php") {
      const accepted =
        session !== undefined && session.validated !== null && form.captcha === session.validated && session.uses < state.codeUses
      if (!accepted) return html(FORM_PAGE(true))
      session.uses++
      const from = toCompact(form.txt_inicio ?? "")
      const to = toCompact(form.txt_termino ?? "")
      const inRange = rows.filter((r) => {
        const date = r.split(";")[3] ?? ""
        return date >= from && date <= to
      })
      const text = inRange.length === 0 ? "Sin información" : `${[header, ...inRange].join("\n")}\n`
      return res
        .writeHead(200, {
          "content-type": "text/plain; charset=iso-8859-1",
          "content-disposition": `attachment; filename=ffmm_todos_${from}_${to}.txt`,
        })
        .end(Buffer.from(text, "latin1"))
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return Object.assign(state, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
}
