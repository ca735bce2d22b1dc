/** The HTTP contract: every group, the validation middleware and the OpenAPI metadata. No handlers here. */
import { HttpApi, OpenApi } from "effect/http-api"
import { AccountApi } from "./account/AccountApi.ts"
import { BatchesApi } from "./batches/BatchesApi.ts"
import { ChangesApi } from "./batches/ChangesApi.ts"
import { DownloadsApi } from "./batches/DownloadsApi.ts"
import { ReleaseKeyApi, ReleasesApi } from "./batches/ReleasesApi.ts"
import { CatalogApi } from "./catalog/CatalogApi.ts"
import { FiApi } from "./fi/FiApi.ts"
import { HoldersApi } from "./holders/HoldersApi.ts"
import { documentHttp } from "./http/OpenApiMeta.ts"
import { documentOperations } from "./http/OperationDocs.ts"
import { documentQueryTypes } from "./http/QueryDocs.ts"
import { documentSharedStatuses } from "./http/SharedStatuses.ts"
import { MarketApi } from "./market/MarketApi.ts"
import { ReturnsApi } from "./returns/ReturnsApi.ts"
import { documentQuotaHeaders, RequestValidation } from "./security/Security.ts"
import { documentBatchParameter } from "./snapshot/BatchParameter.ts"
import { KeyApi, PublicApi } from "./system/SystemApi.ts"
import { WebhooksApi } from "./webhooks/WebhooksApi.ts"

const Contract = HttpApi.make("fund-data-service")
  .add(PublicApi)
  .add(KeyApi)
  .add(CatalogApi)
  .add(ReturnsApi)
  .add(MarketApi)
  .add(FiApi)
  .add(HoldersApi)
  .add(BatchesApi)
  .add(ChangesApi)
  .add(AccountApi)
  .add(DownloadsApi)
  .add(ReleasesApi)
  .add(ReleaseKeyApi)
  .add(WebhooksApi)
  .middleware(RequestValidation)

export class Api extends Contract
  // One transform: the bodies of a status that is both a success and an error, query parameters
  // by their decoded types, `batch` on the data routes, quota headers, then contact, contract tag
  // names and the HTTP caching headers, then `servers` and each operation's description.
  .annotate(OpenApi.Transform, (spec) =>
    documentOperations(
      documentHttp(documentQuotaHeaders(documentBatchParameter(Contract, documentQueryTypes(Contract, documentSharedStatuses(Contract, spec))))),
    ),
  )
  .annotateMerge(
    OpenApi.annotations({
      title: "Fund Data Service",
      version: "1.0.0",
      description:
        "Read-only JSON API over Chilean mutual funds, investment funds and ETFs, rebuilt every day from CMF files.",
      license: { name: "Proprietary" },
    }),
  ) {}
