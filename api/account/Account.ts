/** The account group's handlers, assembled. */
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { oneClickUnsubscribe, unsubscribe } from "./AccountAlerts.ts"
import { googleCallback, googleLogin, loginCallback, logout, magicLink } from "./AccountAuth.ts"
import { alerts, deleteMe, me, unwatch, watch, watchlist } from "./AccountMe.ts"

export const AccountHandlers = HttpApiBuilder.group(Api, "account", (handlers) =>
  handlers
    .handle("magicLink", magicLink)
    .handle("googleLogin", googleLogin)
    .handle("googleCallback", googleCallback)
    .handle("loginCallback", loginCallback)
    .handle("logout", logout)
    .handle("me", me)
    .handle("deleteMe", deleteMe)
    .handle("watchlist", watchlist)
    .handle("watch", watch)
    .handle("unwatch", unwatch)
    .handle("alerts", alerts)
    .handle("unsubscribe", unsubscribe)
    .handle("oneClickUnsubscribe", oneClickUnsubscribe),
)
