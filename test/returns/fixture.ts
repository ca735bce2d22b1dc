/**
 * Builds the returns fixture snapshot (test/returns/fixtureData.ts) with the real writer, runs the
 * real returns computation inside it as the pipeline does, publishes it, and starts real servers
 * with the adjusted bases enabled or not.
 */
import { ConfigProvider, Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpServer } from "effect/http"
import { ServerLive } from "../../api/Server.ts"
import { ReturnsComputation } from "../../pipeline/compute/ReturnsComputation.ts"
import { writeManifest } from "../../snapshots/Manifest.ts"
import { publishCurrent } from "../../snapshots/Pointer.ts"
import type { QuotasTable } from "../../snapshots/Tables.ts"
import { SnapshotWriter } from "../../snapshots/Writer.ts"
import { type CreatedKey, createKey, get, type JsonResponse, type RunningServer } from "../support/server.ts"
import { type FixtureDir, makeDataDir, manifestFor, testCrc32 } from "../support/snapshotFixture.ts"
import { logLinesTo } from "../support/testLog.ts"
import {
  ALL_SERIES,
  BATCH_DATE,
  RENAME,
  RENAMED,
  RENAMED_ALIAS_ID,
  SPHERES,
  TAC,
  UF_VALUES,
  USD_RATES,
} from "./fixtureData.ts"

const int = (iso: string): number => Number(iso.replaceAll("-", ""))
const RUNS = [...new Set(ALL_SERIES.map((s) => s.run))]
const ADMIN_RUT = 96639280

/** Writes and publishes the snapshot into a fresh data directory. */
export const publishReturnsFixture = (): FixtureDir => {
  const dir = makeDataDir()
  const writer = new SnapshotWriter(dir.snapshotsDir)
  try {
    writer.insertAdministrators([{ provider_id: testCrc32(`agf:${ADMIN_RUT}`), rut: ADMIN_RUT, name: "Alfa AGF S.A." }])
    writer.insertFunds(
      RUNS.map((run) => ({
        concept_id: testCrc32(`fm:${run}`),
        run,
        provider_id: testCrc32(`agf:${ADMIN_RUT}`),
        name: `Fondo Mutuo ${run}`,
        short_name: null,
        fund_type: 3,
        currency: null,
        start_date: null,
        end_date: null,
        is_current: 1,
      })),
    )
    writer.insertSeries(
      ALL_SERIES.map((s) => ({
        asset_id: s.assetId,
        concept_id: testCrc32(`fm:${s.run}`),
        run: s.run,
        serie: s.serie,
        currency: s.currency,
        first_date: int(s.quotas[0]![0]),
        last_date: int(s.quotas[s.quotas.length - 1]![0]),
      })),
    )
    const quotas: QuotasTable[] = ALL_SERIES.flatMap((s) =>
      s.quotas.map(([date, price, fr, fa]) => ({
        asset_id: s.assetId,
        date: int(date),
        price,
        patrimony: null,
        holders: null,
        factor_reparto: fr ?? null,
        factor_ajuste: fa ?? null,
      })),
    ).sort((a, b) => a.asset_id - b.asset_id || a.date - b.date)
    writer.insertQuotas(quotas)
    writer.insertRows("series_aliases", [
      {
        alias_id: RENAMED_ALIAS_ID,
        asset_id: RENAMED.assetId,
        run: RENAMED.run,
        previous_serie: RENAME.previous,
        current_serie: RENAME.current,
        first_current_date: int(RENAME.firstCurrentDate),
      },
    ])
    writer.insertRows("indicators", [
      ...UF_VALUES.map(([date, value]) => ({ indicator: "UF", date: int(date), value })),
      ...USD_RATES.map(([date, value]) => ({ indicator: "USD", date: int(date), value })),
    ])
    writer.insertRows(
      "tac",
      TAC.map(([s, month, tac]) => ({ asset_id: s.assetId, month, tac, tac_fixed: null, tac_variable: null, tac_expenses: null })),
    )
    writer.insertRows("cmf_spheres", [
      {
        asset_id: SPHERES.series.assetId,
        family: SPHERES.family,
        investor_type: SPHERES.investorType,
        spheres: SPHERES.spheres,
        as_of: SPHERES.asOf,
      },
    ])
    ReturnsComputation.run(writer.db, BATCH_DATE)
    const finished = writer.finish(BATCH_DATE)
    writeManifest(dir.snapshotsDir, manifestFor(finished, BATCH_DATE))
    publishCurrent(dir.snapshotsDir, finished.file)
    return dir
  } catch (e) {
    writer.abort()
    dir.cleanup()
    throw e
  }
}

const FLAGS = ["FDS_ENABLE_CLP", "FDS_ENABLE_REAL_UF", "FDS_ENABLE_TOTAL"] as const

/**
 * The real server (as test/support/server.ts starts it) reading its configuration from the
 * environment with exactly these flags set: Effect's default provider copies process.env once,
 * so servers with different flags in one test process each get their own provider.
 */
export const startWithFlags = async (
  dataDir: string,
  flags: Partial<Record<(typeof FLAGS)[number], string>>,
): Promise<RunningServer> => {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries({ ...process.env, ...flags })) if (v !== undefined) env[k] = v
  for (const f of FLAGS) if (flags[f] === undefined) delete env[f]
  const scope = Effect.runSync(Scope.make())
  const layer = ServerLive({
    dataDir,
    host: "127.0.0.1",
    port: 0,
    accessLog: logLinesTo("access log"),
    errorLog: logLinesTo("error log"),
  }).pipe(
    Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env }))),
  )
  const exit = await Effect.runPromiseExit(Layer.buildWithScope(layer, scope))
  if (Exit.isFailure(exit)) {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw new Error(`server did not start: ${String(exit.cause)}`)
  }
  const address = Context.get(exit.value, HttpServer.HttpServer).address
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
  }
}

export const ALL_ON = { FDS_ENABLE_CLP: "true", FDS_ENABLE_REAL_UF: "true", FDS_ENABLE_TOTAL: "true" } as const

/** The fixture, a key and a server with every basis enabled; `call` GETs with the key. */
export interface ReturnsHarness {
  readonly dir: FixtureDir
  readonly key: CreatedKey
  readonly server: RunningServer
  readonly call: (path: string) => Promise<JsonResponse>
  readonly close: () => Promise<void>
}

export const startReturnsHarness = async (flags: Parameters<typeof startWithFlags>[1] = ALL_ON): Promise<ReturnsHarness> => {
  const dir = publishReturnsFixture()
  // internal: no daily quota, whatever the number of requests a test makes
  const key = await createKey(dir.dataDir, { email: "returns@example.cl", tier: "internal" })
  const server = await startWithFlags(dir.dataDir, flags)
  return {
    dir,
    key,
    server,
    call: (path) => get(server.url + path, { "x-api-key": key.key }),
    close: async () => {
      await server.close()
      dir.cleanup()
    },
  }
}
