/**
 * Which adjusted return bases this server answers. `clp`, `real_uf` and `total` are off unless
 * enabled (FDS_ENABLE_CLP, FDS_ENABLE_REAL_UF, FDS_ENABLE_TOTAL = true); while off they answer 503
 * with Retry-After, naming the basis, so a client knows the request is right and the server is not
 * ready for it yet.
 */
import { Config, Effect } from "effect"
import { ServiceUnavailable } from "../../schemas/ApiErrors.ts"

export interface EnabledBases {
  readonly clp: boolean
  readonly real_uf: boolean
  readonly total: boolean
}

/** Seconds a client should wait before asking a disabled basis again: enabling it is a deployment. */
export const DISABLED_RETRY_AFTER = 3600

/** Reads the flags from the environment (all off by default). */
export const enabledBases: Config.Config<EnabledBases> = Config.all({
  clp: Config.Boolean("FDS_ENABLE_CLP").pipe(Config.withDefault(false)),
  real_uf: Config.Boolean("FDS_ENABLE_REAL_UF").pipe(Config.withDefault(false)),
  total: Config.Boolean("FDS_ENABLE_TOTAL").pipe(Config.withDefault(false)),
})

const disabled = (parameter: string, value: string, variable: string) =>
  new ServiceUnavailable({
    reason: "basis_not_enabled",
    message: `${parameter}=${value} is not enabled on this server yet (${variable}); retry later or use the default`,
    retryAfter: DISABLED_RETRY_AFTER,
  })

/** Fails with 503 when the request asks for a basis that is off. */
export const requireEnabled = (
  bases: EnabledBases,
  valuation: "accounting" | "clp" | "real_uf",
  basis: "price" | "total",
): Effect.Effect<void, ServiceUnavailable> => {
  if (valuation === "clp" && !bases.clp) return Effect.fail(disabled("valuation", "clp", "FDS_ENABLE_CLP"))
  if (valuation === "real_uf" && !bases.real_uf) return Effect.fail(disabled("valuation", "real_uf", "FDS_ENABLE_REAL_UF"))
  if (basis === "total" && !bases.total) return Effect.fail(disabled("return_basis", "total", "FDS_ENABLE_TOTAL"))
  return Effect.void
}
