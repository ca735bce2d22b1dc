/**
 * A local stand-in for the CMF web site, for tests: it answers CMF's own download paths with the
 * bytes of a sample folder, as CMF would. POST fm_ident2.php → the registry file; the cartola
 * through its captcha form, as the CMF serves it: GET fondos_cartola_diaria.php → a PHPSESSID and
 * the captcha image's address, GET the image → a PNG carrying a new code (test/support/
 * captchaSolver.ts reads it), POST accion=valida → "1"/"0"; then POST cfm_download.php with
 * txt_inicio/txt_termino (DD/MM/YYYY) and the validated code in that session → the cartola rows of
 * that range under the real header, or "Sin información" when there are none (without them: the
 * form page again); GET fm.fm_bpr_dia.php (dia_select, mes_peri, anio_peri) → that day's BPR
 * report as an XLS workbook (or an HTML table with `bprFormat`), made from the cartola's rows of the
 * day (valor cuota rounded to 4 decimals as the report shows it; `bprPriceShift` moves one series');
 * GET fmdfm_consulta1.php → a session, then POST fmdfm_excel2.php (mes2, anno2) in it → that month's
 * TAC as an XLS workbook in the real layout, made from the sample's TAC text (an empty table for a
 * month the sample lacks); POST ffm_download.php (aa, mm,
 * cartera) → that month's portfolio file; GET consulta.php (entidad, Estado) → the FI list page.
 * Faults can be switched on per path.
 */
import { randomBytes } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { captchaPng, FORM_PAGE } from "./cmfCaptchaServer.ts"
import { bprDayWorkbook, tacWorkbook } from "./workbooks.ts"

export type Fault = "500" | "hang" | "html" | "garbage"

export interface CmfServer {
  readonly url: string
  readonly requests: Array<{ path: string; form: Record<string, string> }>
  /** Captcha images served (each a new code). */
  readonly captchas: () => number
  /** How the BPR report is served. */
  bprFormat: "xls" | "html"
  /** The last day whose values the CMF has published (cartola and BPR): later rows are not served yet. */
  publishedThrough: string | null
  /** Added to one series' BPR valor cuota (a provisional value the cartola later corrects). */
  bprPriceShift: { run: number; serie: string; date: string; by: number } | null
  fault: { path: string; kind: Fault; times: number } | null
  close(): Promise<void>
}

const latin1 = (b: Buffer) => b.toString("latin1")

export const startCmfServer = async (sampleDir: string): Promise<CmfServer> => {
  const files = readdirSync(sampleDir).filter((n) => !n.startsWith("."))
  const registry = readFileSync(join(sampleDir, files.find((n) => n.startsWith("fm_ident2"))!))
  const cartolaLines: Array<{ date: string; line: string }> = []
  let header = ""
  for (const name of files.filter((n) => n.startsWith("ffmm_todos_")).sort()) {
    const lines = latin1(readFileSync(join(sampleDir, name))).split(/\r?\n/)
    header = lines[0]!
    for (const line of lines.slice(1)) if (line.trim() !== "") cartolaLines.push({ date: line.split(";")[3]!, line })
  }
  // RUN → name and type, from the registry (for the BPR report, which names funds but not their administrator's RUT).
  const funds = new Map<number, { name: string; type: number }>()
  for (const line of latin1(registry).split(/\r?\n/).slice(1)) {
    const c = line.split(";")
    if (c.length > 7 && /^\d+$/.test(c[2] ?? "")) funds.set(Number(c[2]), { name: c[4] || c[3]!, type: Number(c[7]) || 6 })
  }
  const toCompact = (ddmmyyyy: string) => ddmmyyyy.slice(6, 10) + ddmmyyyy.slice(3, 5) + ddmmyyyy.slice(0, 2)

  const sessions = new Map<string, { code: string | null; validated: string | null }>()
  let captchas = 0
  const state: CmfServer = {
    url: "",
    requests: [],
    captchas: () => captchas,
    bprFormat: "xls",
    publishedThrough: null,
    bprPriceShift: null,
    fault: null,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  const server: Server = createServer((req, res) => {
    let body = ""
    req.on("data", (c) => {
      body += c
    })
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname
      // The form: query parameters (GET pages) and the posted body (POST downloads).
      const form = { ...Object.fromEntries(new URL(req.url ?? "/", "http://x").searchParams), ...Object.fromEntries(new URLSearchParams(body)) }
      state.requests.push({ path, form })
      const fault = state.fault
      if (fault !== null && path.endsWith(fault.path) && fault.times > 0) {
        fault.times--
        if (fault.kind === "hang") return // never answers
        if (fault.kind === "500") {
          res.writeHead(500).end("Internal Server Error")
          return
        }
        if (fault.kind === "html") {
          res.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><html><body>Validando captcha…</body></html>")
          return
        }
        res.writeHead(200, { "content-type": "text/plain" }).end(Buffer.from("\u0000\u0001garbage;;;\n", "latin1"))
        return
      }
      if (path === "/institucional/estadisticas/fm_ident2.php") {
        res.writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" }).end(registry)
        return
      }
      const sid = /(?:^|;\s*)PHPSESSID=([^;]+)/.exec(req.headers.cookie ?? "")?.[1]
      const session = sid === undefined ? undefined : sessions.get(sid)
      if (path === "/institucional/estadisticas/fondos_cartola_diaria.php") {
        if (session === undefined) {
          const id = randomBytes(8).toString("hex")
          sessions.set(id, { code: null, validated: null })
          res.setHeader("set-cookie", `PHPSESSID=${id}; path=/`)
        }
        res.writeHead(200, { "content-type": "text/html; charset=iso-8859-1" }).end(FORM_PAGE(true))
        return
      }
      if (path === "/sitio/biblioteca/captcha2/captcha.php") {
        if (session === undefined) return void res.writeHead(403).end("no session")
        if (req.method === "GET") {
          session.code = randomBytes(3).toString("hex").toUpperCase()
          captchas++
          res.writeHead(200, { "content-type": "image/png" }).end(captchaPng(session.code))
          return
        }
        const ok = form.accion === "valida" && session.code !== null && form.valor === session.code
        if (ok) session.validated = session.code
        res.writeHead(200, { "content-type": "text/html" }).end(ok ? "1" : "0")
        return
      }
      if (path === "/institucional/estadisticas/cfm_download.php") {
        if (session === undefined || session.validated === null || form.captcha !== session.validated) {
          res.writeHead(200, { "content-type": "text/html; charset=iso-8859-1" }).end(FORM_PAGE(true))
          return
        }
        const from = toCompact(form.txt_inicio ?? "")
        const to = toCompact(form.txt_termino ?? "")
        const through = state.publishedThrough?.replaceAll("-", "") ?? "99999999"
        const rows = cartolaLines.filter((r) => r.date >= from && r.date <= to && r.date <= through).map((r) => r.line)
        const text = rows.length === 0 ? "Sin información" : [header, ...rows].join("\n") + "\n"
        res.writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" }).end(Buffer.from(text, "latin1"))
        return
      }
      if (path === "/institucional/estadisticas/fm.fm_bpr_dia.php") {
        const date = `${form.anio_peri}-${form.mes_peri}-${String(form.dia_select).padStart(2, "0")}`
        const shift = state.bprPriceShift
        const records = cartolaLines
          .filter((r) => r.date === date.replaceAll("-", "") && (state.publishedThrough === null || date <= state.publishedThrough))
          .map(({ line }) => {
            const c = line.split(";")
            const run = Number(c[2])
            const fund = funds.get(run)
            const price = Math.round(Number(c[12]) * 1e4) / 1e4
            const shifted = shift !== null && shift.run === run && shift.serie === c[8] && shift.date === date ? price + shift.by : price
            return {
              fundName: fund?.name ?? `FONDO ${run}`,
              run,
              fundType: fund?.type ?? 6,
              agfName: null,
              serie: c[8]!,
              currencyCode: c[5]!,
              patrimony: Number(c[13] === "" ? 0 : c[13]),
              holders: Number(c[14] === "" ? 0 : c[14]),
              price: shifted,
            }
          })
        const bytes = bprDayWorkbook(date, records, state.bprFormat)
        res.writeHead(200, { "content-type": state.bprFormat === "xls" ? "application/vnd.ms-excel" : "text/html; charset=iso-8859-1" }).end(bytes)
        return
      }
      if (path === "/institucional/estadisticas/fmdfm_consulta1.php") {
        if (session === undefined) {
          const id = randomBytes(8).toString("hex")
          sessions.set(id, { code: null, validated: null })
          res.setHeader("set-cookie", `PHPSESSID=${id}; path=/`)
        }
        res.writeHead(200, { "content-type": "text/html; charset=iso-8859-1" }).end("<html><body><form action=\"fmdfm_excel2.php\"></form></body></html>")
        return
      }
      if (path === "/institucional/estadisticas/fmdfm_excel2.php") {
        if (session === undefined) return void res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Sesión expirada</body></html>")
        const name = `fm_tac_${form.anno2}${String(form.mes2).padStart(2, "0")}.txt`
        const rows = files.includes(name)
          ? latin1(readFileSync(join(sampleDir, name)))
              .split(/\r?\n/)
              .map((l) => l.split(";"))
              .filter((c) => c.length === 18 && /^\d{8}(?:\.0+)?$/.test(c[0]!))
              .map((c) => [Number(c[0]), ...c.slice(1)])
          : []
        res.writeHead(200, { "content-type": "application/vnd.ms-excel" }).end(tacWorkbook(rows, ["(1) TAC: Tasa Anual de Costos."]))
        return
      }
      if (path === "/institucional/estadisticas/ffm_download.php") {
        const name = `ffm_${form.cartera}_${form.aa}${form.mm}.txt`
        const body = files.includes(name) ? readFileSync(join(sampleDir, name)) : Buffer.from("Sin información", "latin1")
        res.writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" }).end(body)
        return
      }
      if (path === "/institucional/mercados/consulta.php") {
        const query = new URL(req.url ?? "/", "http://x").searchParams
        const name = `fi_consulta_${query.get("entidad")}_${query.get("Estado")}.html`
        if (!files.includes(name)) {
          res.writeHead(404).end()
          return
        }
        res.writeHead(200, { "content-type": "text/html" }).end(readFileSync(join(sampleDir, name)))
        return
      }
      res.writeHead(404).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return Object.assign(state, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
}
