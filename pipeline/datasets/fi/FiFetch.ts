/** How the FI data sets are fetched from the CMF over HTTP: the FI/ETF lists (HTML), every run, as funds open and close. */
import { Effect } from "effect"
import { getPage } from "../../fetch/CmfHttp.ts"
import type { FetchContext } from "../DataSet.ts"

export const fetchFiRegistry = <E>(c: FetchContext<E>) =>
  Effect.gen(function* () {
    for (const entidad of ["FIRES", "FINRE"] as const) {
      for (const estado of ["VI", "NV"] as const) {
        const url = `${c.base}/institucional/mercados/consulta.php?mercado=V&entidad=${entidad}&Estado=${estado}`
        yield* c.record(`fi_consulta_${entidad}_${estado}.html`, url, yield* getPage(url, c.fetch))
      }
    }
  })
