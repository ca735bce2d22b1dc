/**
 * The cartola's real download flow against a local stand-in for the CMF form (a real HTTP server):
 * session cookie, captcha image solved by a real child process reading the image on its stdin,
 * validation, download; tries, refusals and solver failures.
 */
import { execFileSync } from "node:child_process"
import { inspect } from "node:util"
import { Effect, Exit } from "effect"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { captchaSettings, captchaSolver, commandSolver } from "../../pipeline/fetch/CaptchaSolver.ts"
import { CartolaSession, fetchCartolaRange } from "../../pipeline/datasets/fm/CartolaDownload.ts"
import { CmfSourceError, postForm } from "../../pipeline/fetch/CmfHttp.ts"
import { parseCartola } from "../../pipeline/datasets/fm/Cartola.ts"
import { writeSolver } from "../support/captchaSolver.ts"
import { type CmfCaptchaServer, startCmfCaptchaServer } from "../support/cmfCaptchaServer.ts"
import { envProvider, readSettings } from "../../pipeline/Settings.ts"

// Real rows of the CMF's cartola (ffmm_todos_20250701_20250731.txt), two days of fund 8011.
const CARTOLA = [
  "RUN_ADM;NOM_ADM;RUN_FM;FECHA_INF;ACTIVO_TOT;MONEDA;PARTICIPES_INST;INVERSION_EN_FONDOS;SERIE;CUOTAS_APORTADAS;CUOTAS_RESCATADAS;CUOTAS_EN_CIRCULACION;VALOR_CUOTA;PATRIMONIO_NETO;NUM_PARTICIPES;NUM_PARTICIPES_INST;FONDO_PEN;REM_FIJA;REM_VARIABLE;GASTOS_AFECTOS;GASTOS_NO_AFECTOS;COMISION_INVERSION;COMISION_RESCATE;FACTOR DE AJUSTE;FACTOR DE REPARTO",
  "91999000;PRINCIPAL  ADMINISTRADORA GENERAL DE FONDOS S.A.;8011;20250701;224244506451;$$;S;1;B;0;524.355;4821730.1141;1724.5928;8315521038;1288;0;N;296211.9958;0;3928.4856;1922.8876;0;0;;",
  "91999000;PRINCIPAL  ADMINISTRADORA GENERAL DE FONDOS S.A.;8011;20250701;224244506451;$$;S;1;G;.015;814.5078;859716.4083;35374.8058;30412300987;19604;2;N;1084242.6776;0;14379.6733;7038.4617;0;0;;",
  "91999000;PRINCIPAL  ADMINISTRADORA GENERAL DE FONDOS S.A.;8011;20250702;224243988005;$$;S;1;B;1229.8341;46707.3114;4776252.6368;1724.7738;8237955410;1284;0;N;296286.4358;0;3929.482;1923.3752;0;0;;",
  "91999000;PRINCIPAL  ADMINISTRADORA GENERAL DE FONDOS S.A.;8011;20250702;224243988005;$$;S;1;G;0;440.6725;859275.7358;35378.5194;30399903289;19599;2;N;1083330.139;0;14367.6042;7032.5542;0;0;;",
].join("\n")

const FETCH = { timeoutMillis: 5000, retries: 0, retryBaseMillis: 10 }
const JULY_1 = { first: "2025-07-01", last: "2025-07-01" }
const JULY_2 = { first: "2025-07-02", last: "2025-07-02" }

let dir = ""
let cmf: CmfCaptchaServer
/** A solver that reads the PNG on its stdin and prints its tEXt "captcha" value. */
let solveCommand = ""

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "fds-captcha-"))
  solveCommand = writeSolver(dir)

})
afterAll(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(async () => {
  cmf = await startCmfCaptchaServer(CARTOLA)
})
afterEach(() => cmf.close())

const solver = (env: Record<string, string> = {}) => readSettings(captchaSolver, envProvider({ FDS_CAPTCHA_COMMAND: solveCommand, ...env }))!
const fetchRange = (session: CartolaSession, range: { first: string; last: string }, s = solver()) =>
  Effect.runPromise(fetchCartolaRange(session, range, s, FETCH))
const failureOf = (session: CartolaSession, range: { first: string; last: string }, s = solver()) =>
  Effect.runPromise(Effect.flip(fetchCartolaRange(session, range, s, FETCH)))
const parsed = async (bytes: Uint8Array) =>
  (await Effect.runPromise(parseCartola(bytes, "ffmm_todos.txt"))).records.map((r) => [r.date, r.serie, r.price])
const pathsOf = (c: CmfCaptchaServer) => c.requests.map((r) => `${r.method} ${r.path.split("/").at(-1)}`)
/** Alive and not a zombie (an orphan killed is reaped by init only later). */
const running = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z"
  } catch {
    return false
  }
}
const images = (c: CmfCaptchaServer) => c.requests.filter((r) => r.method === "GET" && r.path.endsWith("captcha.php")).length

describe("fetchCartolaRange: the CMF form's flow", () => {
  it("opens the page, solves the image, validates and downloads the range in one cookie session", async () => {
    const session = new CartolaSession(`${cmf.url}/`)
    const bytes = await fetchRange(session, { first: "2025-07-01", last: "2025-07-02" })
    expect(await parsed(bytes)).toEqual([
      ["2025-07-01", "B", 1724.5928],
      ["2025-07-01", "G", 35374.8058],
      ["2025-07-02", "B", 1724.7738],
      ["2025-07-02", "G", 35378.5194],
    ])
    expect(pathsOf(cmf)).toEqual([
      "GET fondos_cartola_diaria.php",
      "GET captcha.php",
      "POST captcha.php",
      "POST cfm_download.php",
    ])
    const [page, image, validate, download] = cmf.requests
    expect(page!.cookie).toBe("")
    const sid = /PHPSESSID=\w+/.exec(image!.cookie)?.[0]
    expect(sid).toBeDefined()
    for (const r of [image!, validate!, download!]) expect(r.cookie).toBe(sid)
    const code = validate!.form.valor!
    expect(code).toMatch(/^[A-Z0-9]{6}$/)
    expect(validate!.body).toBe(`accion=valida&valor=${code}`)
    // The real capture's body: same fields, order and encoding.
    expect(download!.body).toBe(`txt_inicio=01%2F07%2F2025&txt_termino=02%2F07%2F2025&ffmm=%25&captcha=${code}`)
    expect(session.solves).toBe(1)
    expect(session.code).toBe(code)
  })

  it("serves the run's next ranges with the code already accepted (no new image)", async () => {
    const session = new CartolaSession(cmf.url)
    expect(await parsed(await fetchRange(session, JULY_1))).toHaveLength(2)
    expect(await parsed(await fetchRange(session, JULY_2))).toEqual([
      ["2025-07-02", "B", 1724.7738],
      ["2025-07-02", "G", 35378.5194],
    ])
    expect(images(cmf)).toBe(1)
    expect(session.solves).toBe(1)
    expect(pathsOf(cmf).slice(4)).toEqual(["POST cfm_download.php"])
  })

  it("solves a new image when the CMF refuses the code it accepted before", async () => {
    cmf.codeUses = 1
    const session = new CartolaSession(cmf.url)
    await fetchRange(session, JULY_1)
    const first = session.code
    expect(await parsed(await fetchRange(session, JULY_2))).toHaveLength(2)
    expect(pathsOf(cmf).slice(4)).toEqual([
      "POST cfm_download.php", // refused: the form page again
      "GET fondos_cartola_diaria.php",
      "GET captcha.php",
      "POST captcha.php",
      "POST cfm_download.php",
    ])
    expect(session.solves).toBe(2)
    expect(session.code).not.toBe(first)
  })

  it("tries a new image after a wrong code, each image counting as a try", async () => {
    cmf.lies = 2
    const session = new CartolaSession(cmf.url)
    expect(await parsed(await fetchRange(session, JULY_1, solver({ FDS_CAPTCHA_TRIES: "3" })))).toHaveLength(2)
    expect(images(cmf)).toBe(3)
    expect(session.solves).toBe(3)
    const validations = cmf.requests.filter((r) => r.method === "POST" && r.path.endsWith("captcha.php"))
    expect(validations).toHaveLength(3)
    expect(cmf.requests.filter((r) => r.path.endsWith("cfm_download.php"))).toHaveLength(1)
  })

  it("fails after FDS_CAPTCHA_TRIES wrong codes, saying so, without downloading", async () => {
    cmf.lies = 100
    const session = new CartolaSession(cmf.url)
    const error = await failureOf(session, JULY_1, solver({ FDS_CAPTCHA_TRIES: "4" }))
    expect(error).toBeInstanceOf(CmfSourceError)
    expect(error.message).toMatch(/^the captcha was not solved in 4 tries \(last: the CMF did not accept code [ZY][A-Z0-9]{5} /)
    expect(error.message).toContain('validation answered "0"')
    expect(error.url).toBe(`${cmf.url}/institucional/estadisticas/cfm_download.php`)
    expect(images(cmf)).toBe(4)
    expect(cmf.requests.filter((r) => r.path.endsWith("cfm_download.php"))).toHaveLength(0)
  })

  it("the fake refuses a download without the session cookie, so the flow's success proves it carries it", async () => {
    const session = new CartolaSession(cmf.url)
    await fetchRange(session, JULY_1)
    const form = { txt_inicio: "02/07/2025", txt_termino: "02/07/2025", ffmm: "%", captcha: session.code! }
    const exit = await Effect.runPromiseExit(postForm(`${cmf.url}/institucional/estadisticas/cfm_download.php`, form, FETCH))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain("got an HTML page where a data file was expected")
    expect(cmf.requests.at(-1)!.cookie).toBe("")
    // The same code with the session's cookie is a file.
    expect(await parsed(await fetchRange(session, JULY_2))).toHaveLength(2)
  })

  it("says clearly when the page has no captcha image", async () => {
    cmf.pageWithoutImage = true
    const error = await failureOf(new CartolaSession(cmf.url), JULY_1)
    expect(error.message).toBe("the cartola page has no captcha image (img#captcha_img)")
    expect(error.url).toBe(`${cmf.url}/institucional/estadisticas/fondos_cartola_diaria.php`)
  })
})

describe("fetchCartolaRange: the solver command failing", () => {
  it("names the program, not a VAR=value before it (it may hold a solving service's key)", async () => {
    const failed = await Effect.runPromise(Effect.flip(commandSolver("SOLVER_TOKEN=supersecret123 /nonexistent/solve --fast", { tries: 1, timeoutMillis: 5000 }).solve(new Uint8Array([1]))))
    expect(failed.message).toMatch(/^the captcha command \/nonexistent\/solve exited 127/)
    expect(failed.message).not.toContain("supersecret123")
  })

  it("a timeout kills what the command left behind, even once the shell itself has exited", async () => {
    const marker = 7_000 + Math.floor(Math.random() * 1_000)
    const failed = await Effect.runPromise(
      Effect.flip(commandSolver(`(sleep ${marker} &) ; echo ABC123`, { tries: 1, timeoutMillis: 1500 }).solve(new Uint8Array([1]))),
    )
    expect(failed.message).toMatch(/did not answer within 1500 ms/)
    const left = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).split("\n").filter((l) => l.trim() === `sleep ${marker}`)
    expect(left).toEqual([])
  })

  it("a missing command fails each try, naming the program and its exit", async () => {
    const error = await failureOf(
      new CartolaSession(cmf.url),
      JULY_1,
      readSettings(captchaSolver, envProvider({ FDS_CAPTCHA_COMMAND: `${dir}/no-such-solver --key SECRET123`, FDS_CAPTCHA_TRIES: "2" }))!,
    )
    expect(error.message).toMatch(
      new RegExp(`^the captcha was not solved in 2 tries \\(last: the captcha command ${dir}/no-such-solver exited 127: .*not found`),
    )
    expect(error.message).not.toContain("SECRET123")
    expect(images(cmf)).toBe(2)
    expect(cmf.requests.some((r) => r.method === "POST")).toBe(false)
  })

  it("a non-zero exit names its code and the start of its stderr, never the image", async () => {
    const error = await failureOf(
      new CartolaSession(cmf.url),
      JULY_1,
      commandSolver(`cat >/dev/null; echo "model not loaded" >&2; exit 5`, { tries: 1, timeoutMillis: 5000 }),
    )
    expect(error.message).toBe("the captcha was not solved in 1 try (last: the captcha command cat exited 5: model not loaded)")
  })

  it("the solver must read stdin: the image reaches it whole", async () => {
    const copy = join(dir, "seen.png")
    await failureOf(new CartolaSession(cmf.url), JULY_1, commandSolver(`cat > "${copy}"; echo nope`, { tries: 1, timeoutMillis: 5000 }))
    const seen = readFileSync(copy)
    expect(seen.subarray(1, 4).toString("latin1")).toBe("PNG")
    expect(seen.includes(Buffer.from("captcha\u0000", "latin1"))).toBe(true)
    expect(seen.subarray(-8, -4).toString("latin1")).toBe("IEND")
  })

  it("output that is not a 4-8 character code is a failed solve", async () => {
    for (const [printed, shown] of [
      ["abc123", '"abc123"'],
      ["ABC", '"ABC"'],
      ["ABCDEFGHI", '"ABCDEFGHI"'],
      ["", "nothing"],
    ] as const) {
      const error = await failureOf(
        new CartolaSession(cmf.url),
        JULY_1,
        commandSolver(`cat >/dev/null; printf '%s' '${printed}'`, { tries: 1, timeoutMillis: 5000 }),
      )
      expect(error.message).toContain(`the captcha command cat printed ${shown}, not a code of 4 to 8 characters A-Z 0-9`)
    }
  })

  it("output beyond the bound stops the command", async () => {
    const error = await failureOf(
      new CartolaSession(cmf.url),
      JULY_1,
      commandSolver(`cat >/dev/null; yes ABCDEF`, { tries: 1, timeoutMillis: 5000 }),
    )
    expect(error.message).toContain("the captcha command cat printed more than 4096 bytes")
  })

  it("a command over FDS_CAPTCHA_TIMEOUT_MS is stopped, with all it started", async () => {
    const pidFile = join(dir, "sleeper.pid")
    const started = Date.now()
    const error = await failureOf(
      new CartolaSession(cmf.url),
      JULY_1,
      readSettings(captchaSolver, envProvider({
        FDS_CAPTCHA_COMMAND: `cat >/dev/null; sleep 30 & echo $! > "${pidFile}"; wait`,
        FDS_CAPTCHA_TIMEOUT_MS: "400",
        FDS_CAPTCHA_TRIES: "1",
      }))!,
    )
    expect(error.message).toBe("the captcha was not solved in 1 try (last: the captcha command cat did not answer within 400 ms)")
    expect(Date.now() - started).toBeLessThan(5000)
    const pid = Number(readFileSync(pidFile, "utf8"))
    await new Promise((r) => setTimeout(r, 100))
    expect(running(pid)).toBe(false) // the grandchild is stopped too
  })
})

describe("captchaSolver (Config)", () => {
  it("is null when FDS_CAPTCHA_COMMAND is unset or blank", () => {
    expect(readSettings(captchaSolver, envProvider({}))).toBeNull()
    expect(readSettings(captchaSolver, envProvider({ FDS_CAPTCHA_COMMAND: "  " }))).toBeNull()
  })

  it("takes the tries (default 3) and refuses a bad number at start", () => {
    expect(readSettings(captchaSolver, envProvider({ FDS_CAPTCHA_COMMAND: "ocr --fast" }))).toMatchObject({ program: "ocr", tries: 3 })
    expect(readSettings(captchaSolver, envProvider({ FDS_CAPTCHA_COMMAND: "ocr", FDS_CAPTCHA_TRIES: "5" }))!.tries).toBe(5)
    expect(() => readSettings(captchaSolver, envProvider({ FDS_CAPTCHA_COMMAND: "ocr", FDS_CAPTCHA_TRIES: "0" }))).toThrow(/FDS_CAPTCHA_TRIES/)
    expect(() => readSettings(captchaSolver, envProvider({ FDS_CAPTCHA_COMMAND: "ocr", FDS_CAPTCHA_TRIES: "2.5" }))).toThrow(/FDS_CAPTCHA_TRIES/)
    expect(() => readSettings(captchaSolver, envProvider({ FDS_CAPTCHA_COMMAND: "ocr", FDS_CAPTCHA_TIMEOUT_MS: "soon" }))).toThrow(/FDS_CAPTCHA_TIMEOUT_MS/)
  })

  it("holds the command redacted: the settings printed, inspected or as JSON never show its key", () => {
    const settings = readSettings(captchaSettings, envProvider({ FDS_CAPTCHA_COMMAND: " SOLVER_TOKEN=k3y-9731 ocr --key k3y-9731 " }))!
    for (const shown of [String(settings.command), inspect(settings, { depth: 5 }), JSON.stringify(settings)]) {
      expect(shown).not.toContain("k3y-9731")
    }
    // the solver still runs the whole line, trimmed, and names only the program
    expect(readSettings(captchaSolver, envProvider({ FDS_CAPTCHA_COMMAND: " SOLVER_TOKEN=k3y-9731 ocr --key k3y-9731 " }))!.program).toBe("ocr")
  })
})
