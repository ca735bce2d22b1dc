import { dmyOf } from "./Calendar.ts"
import type { Prng } from "./Prng.ts"
import type { Universe } from "./Universe.ts"

const HEADER =
  "RUT Administradora;Raz. Social Administradora;RUN Fondo;Nombre Fondo;Nombre Corto;" +
  "Fecha Res. Aprobación del RI;Nro. Res. Aprobación del RI;Tipo de Fondo Mutuo;" +
  "Fecha Inicio Operaciones;Fecha Término Operaciones;Moneda"

/**
 * The `fm_ident2` text (to be written as latin-1): every fund twice, and about half of them a
 * third time, in blocks, as CMF repeats its rows.
 */
export const registryText = (prng: Prng, universe: Universe): string => {
  const funds = [...universe.funds].sort((a, b) => a.admin.rut - b.admin.rut || a.run - b.run)
  const rows = funds.map((f) =>
    [
      f.admin.rut,
      f.admin.name,
      f.run,
      f.name,
      f.shortName,
      dmyOf(f.riDate),
      f.riNumber,
      f.type,
      dmyOf(f.start),
      f.end === null ? "" : dmyOf(f.end),
      f.currency
    ].join(";")
  )
  const third = rows.filter(() => prng.chance(0.55))
  return [HEADER, ...rows, ...rows, ...third].join("\n") + "\n"
}
