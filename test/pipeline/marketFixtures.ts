/** Small, hand-written files of the market data sets (and the CMF ones) shared by their tests. */
import { Effect } from "effect"
import type { DataSetSource } from "../../pipeline/datasets/DataSet.ts"

export const latin1 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "latin1"))
export const utf8 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "utf8"))
export const lines = (...rows: Array<string>): string => rows.join("\n") + "\n"

export const parseWith = <R>(source: DataSetSource<R>, bytes: Uint8Array, file: string) =>
  Effect.runPromise(source.parse(bytes, file))
export const failureOf = <R>(source: DataSetSource<R>, bytes: Uint8Array, file: string) =>
  Effect.runPromise(Effect.flip(source.parse(bytes, file)))

/** A SIETE answer for one series with the given observations. */
export const siete = (seriesId: string, obs: ReadonlyArray<readonly [string, string, string]>): string =>
  JSON.stringify({
    Codigo: 0,
    Descripcion: "Success",
    Series: {
      descripEsp: "Serie",
      descripIng: "Series",
      seriesId,
      Obs: obs.map(([indexDateString, value, statusCode]) => ({ indexDateString, value, statusCode }))
    },
    SeriesInfos: []
  })

export const SIETE_UF = siete("F073.UFF.PRE.Z.D", [
  ["01-01-2025", "38419.17", "OK"],
  ["02-01-2025", "38421.64", "OK"]
])

// Saturday 2026-01-03 and Sunday 2026-01-04 have no dólar observado.
export const SIETE_USD = siete("F073.TCO.PRE.Z.D", [
  ["02-01-2026", "869.05", "OK"],
  ["03-01-2026", "NaN", "ND"],
  ["04-01-2026", "NaN", "ND"],
  ["05-01-2026", "872.22", "OK"]
])

export const CMF_UF = JSON.stringify({
  UFs: [
    { Valor: "39.500,00", Fecha: "2025-01-01" },
    { Valor: "39.501,27", Fecha: "2025-01-02" }
  ]
})

export const CMF_USD = JSON.stringify({
  Dolares: [
    { Valor: "872,22", Fecha: "2026-01-23" },
    { Valor: "1.012,35", Fecha: "2026-01-26" }
  ]
})

export const AFM_HEADER = "RUN;SERIE;CATEGORIA_AFM;MONEDA;FECHA"
export const AFM_FILE = lines(
  AFM_HEADER,
  "8001;A;FDOACCNACLC;PESOS;2026-10-31",
  "8001;APV;FDOACCNACLC;PESOS;2026-10-31",
  "8004;B;RF<90INTUSD;DOLAR;2026-10-31",
  "8010;A;S/C;PESOS;2026-10-31"
)

export const CATALOG_HEADER = "FAMILY_RAR;SYMBOL;INDEX_NAME;INSTRUMENT_NAME;NATIVE_CURRENCY;ASSET_CLASS"
export const CATALOG_FILE = lines(
  CATALOG_HEADER,
  "Accionario eeuu;VOO;S&P 500;Vanguard S&P 500 ETF;USD;equity",
  "Deuda > 365 días internacional desarrollado;AGG;Bloomberg US Aggregate Bond;iShares Core US Aggregate Bond ETF;USD;fixed_income"
)

export const PRICES_HEADER = "Date,Open,High,Low,Close,Volume"
export const PRICES_FILE = lines(
  PRICES_HEADER,
  "2025-01-02,540.10,543.25,535.00,540.12,4512300",
  "2025-01-03,540.50,548.00,540.01,547.30,3900100"
)

export const SPHERES_HEADER = "RUN;SERIE;FAMILIA;TIPO_INVERSIONISTA;ESFERAS;FECHA"
export const SPHERES_FILE = lines(
  SPHERES_HEADER,
  "8001;A;Accionario Nacional;Público general;4;2026-10-30",
  "8001;APV;Accionario Nacional;APV;;2026-10-30"
)

export const REGISTRY_FILE = lines(
  "RUT Administradora;Raz. Social Administradora;RUN Fondo;Nombre Fondo;Nombre Corto;Fecha Res. Aprobación del RI;Nro. Res. Aprobación del RI;Tipo de Fondo Mutuo;Fecha Inicio Operaciones;Fecha Término Operaciones;Moneda",
  "96639280;ADMINISTRADORA GENERAL DE FONDOS SECURITY S.A.;8298;FONDO MUTUO X;X;07/05/2004;236;6;31/05/2004;;$$"
)

export const CARTOLA_FILE = lines(
  "RUN_ADM;NOM_ADM;RUN_FM;FECHA_INF;ACTIVO_TOT;MONEDA;PARTICIPES_INST;INVERSION_EN_FONDOS;SERIE;CUOTAS_APORTADAS;CUOTAS_RESCATADAS;CUOTAS_EN_CIRCULACION;VALOR_CUOTA;PATRIMONIO_NETO;NUM_PARTICIPES;NUM_PARTICIPES_INST;FONDO_PEN;REM_FIJA;REM_VARIABLE;GASTOS_AFECTOS;GASTOS_NO_AFECTOS;COMISION_INVERSION;COMISION_RESCATE;FACTOR DE AJUSTE;FACTOR DE REPARTO",
  "96639280;SECURITY S.A.;8011;20260531;1;$$;S;1;A;1;1;1;1;1;1;0;N;1;0;1;1;0;0;;"
)
