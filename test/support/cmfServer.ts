/**
 * A local stand-in for the CMF web site, for tests: it answers CMF's own download paths with the
 * bytes of a sample folder, as CMF would. POST fm_ident2.php → the registry file; POST
 * cfm_download.php with txt_inicio/txt_termino (DD/MM/YYYY) → the cartola rows of that range under
 * the real header, or "Sin información" when there are none; POST ffm_download.php (aa, mm,
 * cartera) → that month's portfolio file; GET consulta.php (entidad, Estado) → the FI list page.
 * Faults can be switched on per path.
 */
import { readdirSync, readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"

export type Fault = "500" | "hang" | "html" | "garbage"

export interface CmfServer {
  readonly url: string
  readonly requests: Array<{ path: string; form: Record<string, string> }>
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
  const toCompact = (ddmmyyyy: string) => ddmmyyyy.slice(6, 10) + ddmmyyyy.slice(3, 5) + ddmmyyyy.slice(0, 2)

  const state: CmfServer = {
    url: "",
    requests: [],
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
      if (path === "/institucional/estadisticas/cfm_download.php") {
        const from = toCompact(form.txt_inicio ?? "")
        const to = toCompact(form.txt_termino ?? "")
        const rows = cartolaLines.filter((r) => r.date >= from && r.date <= to).map((r) => r.line)
        const text = rows.length === 0 ? "Sin información" : [header, ...rows].join("\n") + "\n"
        res.writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" }).end(Buffer.from(text, "latin1"))
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
