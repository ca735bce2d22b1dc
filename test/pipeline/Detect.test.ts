import { describe, expect, it } from "vitest"
import { detect } from "../../pipeline/datasets/Registry.ts"

const detectDataSet = (bytes: Uint8Array) => detect(bytes)?.name ?? null

const REGISTRY_HEADER =
  "RUT Administradora;Raz. Social Administradora;RUN Fondo;Nombre Fondo;Nombre Corto;Fecha Res. Aprobación del RI;Nro. Res. Aprobación del RI;Tipo de Fondo Mutuo;Fecha Inicio Operaciones;Fecha Término Operaciones;Moneda"
const CARTOLA_HEADER =
  "RUN_ADM;NOM_ADM;RUN_FM;FECHA_INF;ACTIVO_TOT;MONEDA;PARTICIPES_INST;INVERSION_EN_FONDOS;SERIE;CUOTAS_APORTADAS;CUOTAS_RESCATADAS;CUOTAS_EN_CIRCULACION;VALOR_CUOTA;PATRIMONIO_NETO;NUM_PARTICIPES;NUM_PARTICIPES_INST;FONDO_PEN;REM_FIJA;REM_VARIABLE;GASTOS_AFECTOS;GASTOS_NO_AFECTOS;COMISION_INVERSION;COMISION_RESCATE;FACTOR DE AJUSTE;FACTOR DE REPARTO"

const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"))

describe("detectDataSet", () => {
  it("recognises the FM registry by its latin-1 header", () => {
    const body = `${REGISTRY_HEADER}\r\n96639280;ADMINISTRADORA GENERAL DE FONDOS ÑUÑOA S.A.;8298;FONDO MUTUO X;X;07/05/2004;236;6;31/05/2004;;$$\r\n`
    expect(detectDataSet(latin1(body))).toBe("fm_registry")
  })

  it("recognises the registry when it arrives as UTF-8 (its header then reads as mojibake)", () => {
    expect(detectDataSet(new Uint8Array(Buffer.from(`${REGISTRY_HEADER}\n`, "utf8")))).toBe("fm_registry")
  })

  it("recognises the cartola by its 25-column header, even with only the header", () => {
    expect(detectDataSet(latin1(`${CARTOLA_HEADER}\n`))).toBe("cartola_diaria")
  })

  it("recognises CMF's 'Sin información' answer as a cartola", () => {
    expect(detectDataSet(latin1("Sin información"))).toBe("cartola_diaria")
    expect(detectDataSet(latin1("\r\n  Sin información\r\n"))).toBe("cartola_diaria")
  })

  it("returns null for anything else", () => {
    expect(detectDataSet(latin1(""))).toBeNull()
    expect(detectDataSet(latin1("hello;world\n1;2\n"))).toBeNull()
    expect(detectDataSet(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toBeNull()
    // The right names in another order, or one column short, are not the header.
    const swapped = CARTOLA_HEADER.replace("RUN_ADM;NOM_ADM", "NOM_ADM;RUN_ADM")
    expect(detectDataSet(latin1(`${swapped}\n`))).toBeNull()
    expect(detectDataSet(latin1(`${CARTOLA_HEADER.replace(";FACTOR DE REPARTO", "")}\n`))).toBeNull()
    // A data row without its header.
    expect(detectDataSet(latin1("96639280;SECURITY S.A.;8011;20260531;1;$$;S;1;A;1;1;1;1;1;1;0;N;1;0;1;1;0;0;;\n"))).toBeNull()
  })
})
