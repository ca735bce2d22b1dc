/** The HTTP contract: every group, the validation middleware and the OpenAPI metadata. No handlers here. */
import { HttpApi, OpenApi } from "effect/http-api"
import { CatalogApi } from "./groups/CatalogApi.ts"
import { KeyApi, PublicApi } from "./groups/SystemApi.ts"
import { RequestValidation } from "./Security.ts"

export class Api extends HttpApi.make("fund-data-service")
  .add(PublicApi)
  .add(KeyApi)
  .add(CatalogApi)
  .middleware(RequestValidation)
  .annotateMerge(
    OpenApi.annotations({
      title: "Fund Data Service",
      version: "1.0.0",
      description:
        "Read-only JSON API over Chilean mutual funds, investment funds and ETFs, rebuilt every day from CMF files.",
      license: { name: "Proprietary" },
    }),
  ) {}
