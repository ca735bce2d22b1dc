/**
 * The fund-flow tests' batch: the real cartola rows of January and February 2026 (dollar and peso
 * funds, weekends included), the July-2025 registry, made-up observed-dollar values and our AFM
 * classification of two funds (test/pipeline/fixtures/realdata/flows/README.md), dropped as a folder
 * and built by the real pipeline. Also a short reading of the cartola files by hand, so that the
 * tests work out the expected flows without the pipeline's parser.
 */
import { Effect } from "effect"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runPipelineLive } from "../../pipeline/Pipeline.ts"

const REALDATA = join(import.meta.dirname, "..", "pipeline", "fixtures", "realdata")
const FLOWS = join(REALDATA, "flows")
export const FLOW_CARTOLAS = ["ffmm_todos_20260101_20260131.txt", "ffmm_todos_20260201_20260228.txt"] as const
const FILES = [
  ...FLOW_CARTOLAS.map((n) => join(FLOWS, n)),
  join(FLOWS, "dolar_test_rates_20251229_20260212.json"),
  join(FLOWS, "afm_categorias_test.txt"),
  join(REALDATA, "fm_ident_20250721210547.txt"),
]

/** A data folder with the batch built and published (its `snapshots/` and CURRENT). */
export const buildFlowBatch = async (): Promise<{ readonly work: string; readonly dataDir: string; readonly file: string }> => {
  const work = mkdtempSync(join(tmpdir(), "fds-flows-"))
  const source = join(work, "source")
  const dataDir = join(work, "data")
  mkdirSync(source)
  for (const path of FILES) copyFileSync(path, join(source, path.split("/").pop()!))
  const outcome = await Effect.runPromise(
    runPipelineLive({
      dataDir,
      sources: [{ kind: "folder", path: source }],
      today: "2026-02-13",
      historyStart: "2025-12-01",
      fetch: { timeoutMillis: 2000, retries: 0, retryBaseMillis: 10 },
    }),
  )
  if (outcome.outcome !== "published") throw new Error(`expected a published batch, got ${JSON.stringify(outcome)}`)
  return { work, dataDir, file: join(dataDir, "snapshots", outcome.file) }
}

/** One cartola row as the tests need it, read by hand: `;` cells, numbers with `Number` (".015" included). */
export interface HandRow {
  readonly agf: number
  readonly run: number
  /** YYYY-MM-DD */
  readonly date: string
  readonly moneda: string
  readonly serie: string
  readonly aportadas: number
  readonly rescatadas: number
  readonly valorCuota: number
}

/** Every row of both cartolas (header: RUN_ADM 0, RUN_FM 2, FECHA_INF 3, MONEDA 5, SERIE 8, CUOTAS_APORTADAS 9, CUOTAS_RESCATADAS 10, VALOR_CUOTA 12). */
export const handRows = (): ReadonlyArray<HandRow> =>
  FLOW_CARTOLAS.flatMap((name) =>
    readFileSync(join(FLOWS, name), "latin1")
      .split("\n")
      .slice(1)
      .filter((l) => l !== "")
      .map((line) => {
        const c = line.split(";")
        const f = c[3]!
        return {
          agf: Number(c[0]),
          run: Number(c[2]),
          date: `${f.slice(0, 4)}-${f.slice(4, 6)}-${f.slice(6, 8)}`,
          moneda: c[5]!,
          serie: c[8]!,
          aportadas: Number(c[9]),
          rescatadas: Number(c[10]),
          valorCuota: Number(c[12]),
        }
      }),
  )

/** The made-up dollar of the fixture: 900 + 0.5 × days since 2025-12-29, on weekdays but 2026-01-01. */
export const testDollar = (isoDate: string): number => 900 + 0.5 * Math.round((Date.parse(isoDate) - Date.parse("2025-12-29")) / 86_400_000)
