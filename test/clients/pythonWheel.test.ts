/**
 * The Python package (clients/python) as a user installs it: a wheel built by Debian's
 * `python3 -m build` (no index reached) from a copy of the folder, installed with pip --no-index
 * into a fresh virtual environment that has no pandas and does not see the checkout, then used
 * from there against a real server: the `fds-client` script prints the fixture's daily values as
 * CSV; without pandas the shortcuts return lists of dicts; the wheel carries the package's
 * metadata (name, version, the script, the optional pandas extra).
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { D1, D2, D3, marketFixtureData } from "../market/fixtureFunds.ts"
import { publishMarketSnapshot } from "../market/marketSnapshot.ts"
import { createKey, type RunningServer, startServer } from "../support/server.ts"
import { makeDataDir } from "../support/snapshotFixture.ts"
import { PYTHON, type PythonRun, runPython } from "./pythonRun.ts"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))

/** `program` (Debian's python3, the Makefile installs python3-build and python3-venv for it, or the venv's) in a plain environment: nothing of the checkout. */
const run = (program: string, args: readonly string[], options: { cwd: string; env?: Record<string, string> }): Promise<PythonRun> =>
  runPython(args, { program, cwd: options.cwd, env: options.env ?? {}, checkoutPackage: false, timeoutMillis: 120_000 })

describe("the Python package's wheel in a fresh virtual environment", () => {
  const dir = makeDataDir()
  const work = mkdtempSync(join(tmpdir(), "fds-py-wheel-"))
  const venv = join(work, "venv")
  const fixture = marketFixtureData()
  const seriesOf = (run: number, serie: string) => fixture.funds.flatMap((f) => f.series).find((s) => s.run === run && s.serie === serie)!
  let server: RunningServer
  let key = ""
  let wheel = ""

  beforeAll(async () => {
    publishMarketSnapshot(dir.snapshotsDir)
    key = (await createKey(dir.dataDir, { email: "py-wheel@example.cl", tier: "internal" })).key
    server = await startServer({ dataDir: dir.dataDir })
    // Built from a copy: a build writes build/ and *.egg-info beside the sources.
    const source = join(work, "src")
    cpSync(join(repoRoot, "clients", "python"), source, { recursive: true, filter: (path) => !path.includes("__pycache__") })
    const built = await run(PYTHON, ["-m", "build", "--wheel", "--no-isolation", "--outdir", join(work, "dist"), source], { cwd: work })
    expect(built.stderr + built.stdout).toContain("Successfully built")
    wheel = join(work, "dist", readdirSync(join(work, "dist")).find((f) => f.endsWith(".whl"))!)
    const made = await run(PYTHON, ["-m", "venv", venv], { cwd: work })
    expect(made.stderr).toBe("")
    const installed = await run(join(venv, "bin", "pip"), ["install", "--no-index", "--disable-pip-version-check", wheel], { cwd: work })
    expect(installed.code, installed.stderr).toBe(0)
  }, 180_000)
  afterAll(async () => {
    await server?.close()
    dir.cleanup()
    rmSync(work, { recursive: true, force: true })
  })

  it("the wheel is fds-client at the package's version, with the fds-client script and a pandas extra", async () => {
    const version = /__version__ = "([^"]+)"/.exec(
      (await run(PYTHON, ["-c", "print(open('fds_client/_version.py').read())"], { cwd: join(repoRoot, "clients", "python") })).stdout,
    )?.[1]
    expect(version).toMatch(/^\d+\.\d+\.\d+$/)
    expect(wheel.endsWith(`fds_client-${version}-py3-none-any.whl`)).toBe(true)
    const listing = await run(
      PYTHON,
      [
        "-c",
        "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); names = z.namelist(); print('\\n'.join(names)); " +
          "meta = [n for n in names if n.endswith('METADATA')][0]; print(z.read(meta).decode()); " +
          "print(z.read([n for n in names if n.endswith('entry_points.txt')][0]).decode())",
        wheel,
      ],
      { cwd: work },
    )
    expect(listing.stdout).toContain("fds_client/client.py")
    expect(listing.stdout).toContain("fds_client/__main__.py")
    expect(listing.stdout).toContain("Name: fds-client")
    expect(listing.stdout).toContain(`Version: ${version}`)
    // setuptools writes the requirement as `pandas (>=1.3) ; extra == 'pandas'` or `pandas>=1.3; extra == "pandas"`
    expect(listing.stdout).toMatch(/^Requires-Dist: pandas ?\(?>=1\.3\)? ?; extra == ["']pandas["']$/m)
    expect(listing.stdout).toMatch(/^fds-client = fds_client\.__main__:main$/m)
    const shown = await run(join(venv, "bin", "fds-client"), ["--version"], { cwd: work })
    expect(shown.stdout.trim()).toBe(`fds-client-python/${version}`)
  })

  it("the installed package is the venv's, not the checkout's, and the venv has no pandas", async () => {
    const where = await run(
      join(venv, "bin", "python"),
      ["-c", "import importlib.util, fds_client; print(fds_client.__file__); print(importlib.util.find_spec('pandas') is None)"],
      { cwd: work },
    )
    expect(where.stderr).toBe("")
    const [file, noPandas] = where.stdout.trim().split("\n")
    expect(file!.startsWith(join(venv, "lib"))).toBe(true)
    expect(noPandas).toBe("True")
  })

  it("the fds-client script prints the daily values of two series as CSV, as the fixture has them", async () => {
    const a = seriesOf(8043, "A")
    const b = seriesOf(9105, "A")
    const printed = await run(join(venv, "bin", "fds-client"), ["prices", String(a.assetId), String(b.assetId), "--from", D1, "--to", D2], {
      cwd: work,
      env: { FDS_API_KEY: key, FDS_BASE_URL: server.url },
    })
    expect(printed.stderr).toBe("")
    expect(printed.code).toBe(0)
    const lines = printed.stdout.trim().split("\n")
    expect(lines[0]).toBe("date,id,price")
    // The fixture's quotas on D1 and D2 (D3 is past --to), written out here.
    expect(lines.slice(1).sort()).toEqual([`${D1},${a.assetId},100`, `${D2},${a.assetId},102`, `${D1},${b.assetId},200`, `${D2},${b.assetId},198`].sort())
    expect(printed.stdout).not.toContain(key)
  })

  it("without pandas the shortcuts answer lists of dicts with the fixture's values", async () => {
    const c = seriesOf(8200, "BPRIV")
    const script = [
      "import json, fds_client",
      "fds = fds_client.Client()",
      `rows = fds.prices(${JSON.stringify(String(c.assetId))}, start=${JSON.stringify(D2)})`,
      "print(json.dumps({'type': type(rows).__name__, 'rows': rows}))",
    ].join("\n")
    const ran = await run(join(venv, "bin", "python"), ["-c", script], { cwd: work, env: { FDS_API_KEY: key, FDS_BASE_URL: server.url } })
    expect(ran.stderr).toBe("")
    const answer = JSON.parse(ran.stdout) as { type: string; rows: Array<{ date: string; id: string; price: number }> }
    expect(answer.type).toBe("list")
    expect(answer.rows).toEqual([
      { date: D2, id: String(c.assetId), price: 1002 },
      { date: D3, id: String(c.assetId), price: 1003.002 },
    ])
  })
})
