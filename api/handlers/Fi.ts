/** Handlers of the fi routes. */
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"

export const FiHandlers = HttpApiBuilder.group(Api, "fi", (handlers) => handlers)
