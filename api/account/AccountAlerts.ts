/** Handlers of the unsubscribe routes: a signed, expiring token says whom to unsubscribe from what. */
import { Clock, Effect } from "effect"
import { AccountsConfig } from "../../accounts/AccountsConfig.ts"
import { verifyUnsubscribe } from "../../accounts/UnsubscribeTokens.ts"
import { Users } from "../../accounts/Users.ts"
import { InvalidParameter } from "../../schemas/ApiErrors.ts"
import { accountsUnavailable } from "./AccountSession.ts"

const applyToken = (token: string, where: "body field" | "query parameter") =>
  Effect.gen(function* () {
    const config = yield* AccountsConfig
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const claim = verifyUnsubscribe(config.secret, token, now)
    if (claim === null) {
      return yield* new InvalidParameter({
        parameter: "token",
        message: `invalid ${where} token: not a valid unsubscribe token, or expired`,
      })
    }
    const users = yield* Users
    const updated = yield* users
      .setAlerts(claim.userId, {
        alerts: claim.scope === "monthly_summary" ? null : false,
        monthlySummary: claim.scope === "alerts" ? null : false,
      })
      .pipe(Effect.mapError(accountsUnavailable))
    // The account may have been removed since the mail left: nothing is left to unsubscribe.
    return {
      email_opt_in_alerts: updated?.emailOptInAlerts ?? false,
      email_opt_in_monthly_summary: updated?.emailOptInMonthlySummary ?? false,
    }
  })

export const unsubscribe = ({ payload }: { readonly payload: { readonly token: string } }) =>
  applyToken(payload.token, "body field")

export const oneClickUnsubscribe = ({ query }: { readonly query: { readonly token: string } }) =>
  Effect.asVoid(applyToken(query.token, "query parameter"))
