/**
 * @fds/client: the Fund Data Service from TypeScript (Node). docs/clients.md, "TypeScript
 * package", shows it in use.
 */
export { type Answer, type Api, type ClientOptions, createClient, type FdsClient, type PagedPath, type Row, VERSION } from "./client.ts"
export type { Downloaded, DownloadOptions } from "./download.ts"
export {
  ApiError,
  BatchChanged,
  DigestMismatch,
  Forbidden,
  InvalidParameter,
  NotFound,
  type Problem,
  QuotaExceeded,
  RateLimited,
  ServiceUnavailable,
  Unauthorized,
} from "./errors.ts"
export type { components, operations, paths } from "./openapi.d.ts"
export type { RetryEvent, RetryOptions } from "./retry.ts"
