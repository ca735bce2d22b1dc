/**
 * The S3-compatible bucket a primary uploads its published batches to and replicas follow
 * (BucketPublish.ts, BucketSource.ts): its settings through Effect Config, the client, and where
 * each object lives under the prefix. A bad setting is said with the variable's name; a secret's
 * value is never printed, not even in an error.
 */
import type { Readable } from "node:stream"
import { GetObjectCommand, type GetObjectCommandOutput, S3Client } from "@aws-sdk/client-s3"
import { Config, ConfigProvider, Effect, Option, Redacted } from "effect"
import { isBatchId } from "../schemas/Batches.ts"
import { PARQUET_FILE } from "../snapshots/parquet/ParquetFiles.ts"

/** The bucket's settings (FDS_BUCKET_*); `credentials` null: the SDK's default chain (AWS_PROFILE, an instance role). */
export interface BucketSettings {
  readonly endpoint: string | null
  readonly bucket: string
  /** "" or a path without leading or trailing slash, e.g. `fds/prod`. */
  readonly prefix: string
  readonly region: string
  readonly forcePathStyle: boolean
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string; readonly sessionToken?: string } | null
}

/** A bucket setting is wrong; the message names the variable and never quotes a secret. */
export class BucketSettingInvalid extends Error {}

/** The bucket answered something else than what was asked, or holds something that does not fit. */
export class BucketRefused extends Error {}

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const PREFIX_SEGMENT = /^[A-Za-z0-9._=+@-]+$/

/** The variables the bucket reads; the secrets are read redacted. */
const TEXTS = [
  "FDS_BUCKET",
  "FDS_BUCKET_ENDPOINT",
  "FDS_BUCKET_PREFIX",
  "FDS_BUCKET_REGION",
  "FDS_BUCKET_FORCE_PATH_STYLE",
  "FDS_BUCKET_ACCESS_KEY_ID",
  "AWS_ACCESS_KEY_ID",
] as const
const SECRETS = ["FDS_BUCKET_SECRET_ACCESS_KEY", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"] as const
type Given = Readonly<Record<(typeof TEXTS)[number], string | undefined> & Record<(typeof SECRETS)[number], Redacted.Redacted<string> | undefined>>

const optional = <A>(config: Config.Config<A>) => Config.option(config).pipe(Config.map(Option.getOrUndefined))
const given: Config.Config<Given> = Config.all({
  ...Object.fromEntries(TEXTS.map((name) => [name, optional(Config.String(name))])),
  ...Object.fromEntries(SECRETS.map((name) => [name, optional(Config.Redacted(name))])),
} as { readonly [K in keyof Given]: Config.Config<Given[K]> })

/** The variables as read, by name (the secrets revealed for the checks). */
type Values = Readonly<Record<string, string | undefined>>

/**
 * Every variable set under `path` (FDS_BUCKET_*, typos included), with its value, as the
 * ConfigProvider lists them (the environment's lists its names).
 */
const setUnder = (path: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<readonly [string, string]>> =>
  Effect.gen(function* () {
    const provider = yield* ConfigProvider.ConfigProvider
    const node = yield* provider.load(path).pipe(Effect.orElseSucceed(() => undefined))
    if (node === undefined) return []
    const own: Array<readonly [string, string]> = node.value === undefined ? [] : [[path.join("_"), node.value]]
    const children = node._tag === "Record" ? [...node.keys] : node._tag === "Array" ? Array.from({ length: node.length }, (_, i) => String(i)) : []
    const deeper = yield* Effect.forEach(children, (key) => setUnder([...path, key]))
    return [...own, ...deeper.flat()]
  })

const value = (env: Values, name: string): string | undefined => {
  const v = env[name]?.trim()
  return v === undefined || v === "" ? undefined : v
}

const bool = (env: Values, name: string): boolean | undefined => {
  const v = value(env, name)?.toLowerCase()
  if (v === undefined) return undefined
  if (["1", "true", "yes", "on"].includes(v)) return true
  if (["0", "false", "no", "off"].includes(v)) return false
  throw new BucketSettingInvalid(`${name} must be true or false, got "${env[name]}"`)
}

const pair = (env: Values, id: string, secret: string) => {
  const i = value(env, id)
  const s = value(env, secret)
  if (i === undefined && s === undefined) return undefined
  if (i === undefined) throw new BucketSettingInvalid(`${secret} is set but ${id} is not: set both, or neither`)
  if (s === undefined) throw new BucketSettingInvalid(`${id} is set but ${secret} is not: set both, or neither`)
  return { accessKeyId: i, secretAccessKey: s }
}

/**
 * The bucket's settings read through the ConfigProvider, or null when no FDS_BUCKET* variable is
 * set (no bucket). Fails with BucketSettingInvalid naming the first wrong variable.
 */
export const bucketSettings: Effect.Effect<BucketSettings | null, BucketSettingInvalid> = Effect.gen(function* () {
  const g = yield* Effect.mapError(given, (e) => new BucketSettingInvalid(e.cause.message))
  // FDS_BUCKET_* names first, as set (a misspelt one is refused without FDS_BUCKET), then the ones read
  const under = Object.fromEntries((yield* setUnder(["FDS", "BUCKET"])).filter(([name]) => name.startsWith("FDS_BUCKET_")))
  return yield* Effect.try({
    // the secrets revealed only for the checks and the SDK's credentials: no message quotes one
    try: () => settingsOf({ ...under, ...Object.fromEntries(Object.entries(g).map(([k, v]) => [k, Redacted.isRedacted(v) ? Redacted.value(v) : v])) }),
    catch: (e) => (e instanceof BucketSettingInvalid ? e : new BucketSettingInvalid(String(e))),
  })
})

/** The checks, over the variables read (`Given`, the secrets revealed). */
const settingsOf = (env: Values): BucketSettings | null => {
  const bucket = value(env, "FDS_BUCKET")
  if (bucket === undefined) {
    const other = Object.keys(env).find((k) => k.startsWith("FDS_BUCKET_") && value(env, k) !== undefined)
    if (other === undefined) return null
    throw new BucketSettingInvalid(`${other} is set but FDS_BUCKET (the bucket's name) is not`)
  }
  if (!BUCKET_NAME.test(bucket) || bucket.includes("..")) {
    throw new BucketSettingInvalid(
      `FDS_BUCKET must be a bucket name of 3 to 63 characters (lower-case letters, digits, dots, hyphens; a letter or digit at each end), got "${bucket}"`,
    )
  }
  const rawEndpoint = value(env, "FDS_BUCKET_ENDPOINT")
  let endpoint: string | null = null
  if (rawEndpoint !== undefined) {
    let url: URL
    try {
      url = new URL(rawEndpoint)
    } catch {
      throw new BucketSettingInvalid(`FDS_BUCKET_ENDPOINT must be an http or https URL, got "${rawEndpoint}"`)
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new BucketSettingInvalid(`FDS_BUCKET_ENDPOINT must be an http or https URL, got "${rawEndpoint}"`)
    }
    // a URL may carry a user and password: never echoed
    if (url.username !== "" || url.password !== "") {
      throw new BucketSettingInvalid("FDS_BUCKET_ENDPOINT must not carry credentials (use FDS_BUCKET_ACCESS_KEY_ID and FDS_BUCKET_SECRET_ACCESS_KEY)")
    }
    endpoint = url.href.replace(/\/+$/, "")
  }
  const prefix = (value(env, "FDS_BUCKET_PREFIX") ?? "").replace(/^\/+|\/+$/g, "")
  if (prefix !== "" && !prefix.split("/").every((s) => PREFIX_SEGMENT.test(s) && s !== "." && s !== "..")) {
    throw new BucketSettingInvalid(
      `FDS_BUCKET_PREFIX must be folder names separated by "/" (letters, digits, . _ - = + @; no empty, "." or ".." part), got "${env.FDS_BUCKET_PREFIX}"`,
    )
  }
  const region = value(env, "FDS_BUCKET_REGION") ?? "us-east-1"
  if (!/^[a-z0-9-]{1,40}$/.test(region)) throw new BucketSettingInvalid(`FDS_BUCKET_REGION must be a region name such as us-east-1, got "${region}"`)
  const own = pair(env, "FDS_BUCKET_ACCESS_KEY_ID", "FDS_BUCKET_SECRET_ACCESS_KEY")
  const aws = own === undefined ? pair(env, "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY") : undefined
  const sessionToken = own === undefined ? value(env, "AWS_SESSION_TOKEN") : undefined
  const credentials = own ?? (aws === undefined ? null : { ...aws, ...(sessionToken === undefined ? {} : { sessionToken }) })
  // S3-compatible servers (MinIO, s3rver, Ceph) mostly want path-style addresses; AWS itself does not.
  const forcePathStyle = bool(env, "FDS_BUCKET_FORCE_PATH_STYLE") ?? endpoint !== null
  return { endpoint, bucket, prefix, region, forcePathStyle, credentials }
}

/** For log lines: the bucket's address, never a secret. */
export const describeBucket = (s: BucketSettings): string =>
  `s3://${s.bucket}${s.prefix === "" ? "" : `/${s.prefix}`}${s.endpoint === null ? "" : ` at ${s.endpoint}`}`

/** The S3 client of the settings. Checksums only when an operation requires them: many S3-compatible servers know no other. */
export const bucketClient = (s: BucketSettings): S3Client =>
  new S3Client({
    region: s.region,
    forcePathStyle: s.forcePathStyle,
    ...(s.endpoint === null ? {} : { endpoint: s.endpoint }),
    ...(s.credentials === null ? {} : { credentials: s.credentials }),
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 3,
  })

const under = (s: BucketSettings, key: string): string => (s.prefix === "" ? key : `${s.prefix}/${key}`)

const batchKey = (s: BucketSettings, batchId: string, suffix: string): string => {
  // the id becomes a key here and a file name on the follower: nothing else than a batch id passes
  if (!isBatchId(batchId)) throw new BucketRefused(`not a batch id: ${JSON.stringify(batchId.slice(0, 80))}`)
  return under(s, `batches/${batchId}${suffix}`)
}

/** Where the batches' objects and the index live under the prefix. */
export const bucketKeys = {
  index: (s: BucketSettings): string => under(s, "index.json"),
  snapshot: (s: BucketSettings, batchId: string): string => batchKey(s, batchId, ".sqlite"),
  manifest: (s: BucketSettings, batchId: string): string => batchKey(s, batchId, ".manifest.json"),
  release: (s: BucketSettings, batchId: string): string => batchKey(s, batchId, ".release.json"),
  signature: (s: BucketSettings, batchId: string): string => batchKey(s, batchId, ".release.sig"),
  /** One of the batch's Parquet files (`<id>.parquet/<file>`, as its release names it); nothing else than a Parquet file's name passes. */
  parquet: (s: BucketSettings, batchId: string, file: string): string => {
    if (!PARQUET_FILE.test(file)) throw new BucketRefused(`not a Parquet file's name: ${JSON.stringify(file.slice(0, 80))}`)
    return batchKey(s, batchId, `.parquet/${file}`)
  },
  /** The public key the releases are signed with (the primary's snapshots/release-key.pem). */
  releaseKey: (s: BucketSettings): string => under(s, "release-key.pem"),
}

/** A bucket to read or write, through a client; `signal` aborts the request in flight. */
export interface Target {
  readonly client: S3Client
  readonly bucket: string
  readonly signal?: AbortSignal | undefined
}

/** The SDK's options of a request of `t`. */
export const sendOptions = (t: Target) => (t.signal === undefined ? {} : { abortSignal: t.signal })

/** The HTTP status of an SDK error (404 for a missing key), or undefined. */
export const statusOf = (e: unknown): number | undefined => (e as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode

/** A small object's bytes, or null when the bucket has nothing at `key`; more than `maxBytes` is refused. */
export const getBytes = async (t: Target, key: string, maxBytes: number): Promise<Buffer | null> => {
  let got: GetObjectCommandOutput
  try {
    got = await t.client.send(new GetObjectCommand({ Bucket: t.bucket, Key: key }), sendOptions(t))
  } catch (e) {
    if (statusOf(e) === 404) return null
    throw e
  }
  const body = got.Body as (Readable & AsyncIterable<Uint8Array>) | undefined
  const tooBig = () => new BucketRefused(`${key} is over ${maxBytes} bytes, more than it may be`)
  if ((got.ContentLength ?? 0) > maxBytes) {
    body?.destroy()
    throw tooBig()
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body ?? []) {
    size += chunk.length
    if (size > maxBytes) {
      body?.destroy()
      throw tooBig()
    }
    chunks.push(Buffer.from(chunk))
  }
  return Buffer.concat(chunks)
}

/** A small object's text, or null when the bucket has nothing at `key`; more than `maxBytes` is refused. */
export const getText = async (t: Target, key: string, maxBytes: number): Promise<string | null> =>
  (await getBytes(t, key, maxBytes))?.toString("utf8") ?? null
