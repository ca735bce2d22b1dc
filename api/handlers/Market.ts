/** Handlers of the market routes. */
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"

export const MarketHandlers = HttpApiBuilder.group(Api, "market", (handlers) => handlers)
