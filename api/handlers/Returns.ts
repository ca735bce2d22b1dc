/** Handlers of the returns routes. */
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"

export const ReturnsHandlers = HttpApiBuilder.group(Api, "returns", (handlers) => handlers)
