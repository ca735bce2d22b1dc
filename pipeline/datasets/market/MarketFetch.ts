/** How the market data sets are fetched: UF and dólar by year from the CMF API or SIETE, when credentials are given. */
import { Effect } from "effect"
import { indicatorYears } from "../../fetch/IndicatorFetch.ts"
import type { FetchContext } from "../DataSet.ts"

/** Every year not yet recorded whole, and always the last two. */
export const fetchIndicators = <E>(c: FetchContext<E>) =>
  Effect.gen(function* () {
    if (c.indicators === null) {
      c.wait("neither FDS_CMF_API_KEY nor FDS_BCCH_USER/FDS_BCCH_PASS is set: UF and dólar are not fetched; drop them into the inbox")
      return
    }
    const recorded = c.recorded()
    for (const year of indicatorYears(c.indicators, c.historyStart, c.until, (n) => recorded.has(n))) {
      for (const file of yield* c.indicators.fetchYear(year, c.fetch)) {
        yield* c.record(file.name, file.url, file.bytes)
      }
    }
  })
