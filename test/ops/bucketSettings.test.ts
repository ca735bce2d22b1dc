/** The bucket's settings from the environment (ops/Bucket.ts): defaults, and each bad value said with its variable, no secret quoted. */
import { describe, expect, it } from "vitest"
import { BucketSettingInvalid, bucketKeys, bucketSettings, describeBucket } from "../../ops/Bucket.ts"
import { envProvider, readSettings } from "../../pipeline/Settings.ts"

const SECRET = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY"
const base = { FDS_BUCKET: "fds-batches", FDS_BUCKET_ACCESS_KEY_ID: "AKIAEXAMPLE", FDS_BUCKET_SECRET_ACCESS_KEY: SECRET }

const refusal = (env: Record<string, string>): string => {
  try {
    readSettings(bucketSettings, envProvider(env))
  } catch (e) {
    expect(e).toBeInstanceOf(BucketSettingInvalid)
    expect((e as Error).message).not.toContain(SECRET)
    return (e as Error).message
  }
  throw new Error("accepted")
}

describe("bucket settings", () => {
  it("no FDS_BUCKET* variable: no bucket", () => {
    expect(readSettings(bucketSettings, envProvider({ FDS_DATA_DIR: "/srv/fds", AWS_ACCESS_KEY_ID: "x" }))).toBeNull()
  })

  it("defaults: AWS's endpoint, us-east-1, no prefix, virtual-hosted addresses", () => {
    expect(readSettings(bucketSettings, envProvider(base))).toEqual({
      endpoint: null,
      bucket: "fds-batches",
      prefix: "",
      region: "us-east-1",
      forcePathStyle: false,
      credentials: { accessKeyId: "AKIAEXAMPLE", secretAccessKey: SECRET },
    })
  })

  it("an endpoint (MinIO, s3rver): path-style addresses unless told otherwise; the prefix loses its slashes", () => {
    const s = readSettings(bucketSettings, envProvider({ ...base, FDS_BUCKET_ENDPOINT: "http://127.0.0.1:9000/", FDS_BUCKET_PREFIX: "/fds/prod/", FDS_BUCKET_REGION: "sa-east-1" }))
    expect(s).toMatchObject({ endpoint: "http://127.0.0.1:9000", prefix: "fds/prod", region: "sa-east-1", forcePathStyle: true })
    expect(readSettings(bucketSettings, envProvider({ ...base, FDS_BUCKET_ENDPOINT: "https://s3.example.cl", FDS_BUCKET_FORCE_PATH_STYLE: "false" }))?.forcePathStyle).toBe(false)
    expect(describeBucket(s!)).toBe("s3://fds-batches/fds/prod at http://127.0.0.1:9000")
    expect(bucketKeys.index(s!)).toBe("fds/prod/index.json")
    expect(bucketKeys.snapshot(s!, "2026-11-20-0123456789abcdef")).toBe("fds/prod/batches/2026-11-20-0123456789abcdef.sqlite")
    expect(bucketKeys.parquet(s!, "2026-11-20-0123456789abcdef", "days-2026.parquet")).toBe("fds/prod/batches/2026-11-20-0123456789abcdef.parquet/days-2026.parquet")
    expect(bucketKeys.manifest(readSettings(bucketSettings, envProvider(base))!, "2026-11-20-0123456789abcdef")).toBe("batches/2026-11-20-0123456789abcdef.manifest.json")
  })

  it("credentials: FDS_BUCKET_* first, else the standard AWS_* ones (with a session token), else the SDK's default chain", () => {
    const aws = { FDS_BUCKET: "fds-batches", AWS_ACCESS_KEY_ID: "AKIAAWS", AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: "token" }
    expect(readSettings(bucketSettings, envProvider(aws))?.credentials).toEqual({ accessKeyId: "AKIAAWS", secretAccessKey: SECRET, sessionToken: "token" })
    expect(readSettings(bucketSettings, envProvider({ ...aws, ...base }))?.credentials).toEqual({ accessKeyId: "AKIAEXAMPLE", secretAccessKey: SECRET })
    expect(readSettings(bucketSettings, envProvider({ FDS_BUCKET: "fds-batches" }))?.credentials).toBeNull()
  })

  it("each bad value is named, and no secret is quoted", () => {
    expect(refusal({ FDS_BUCKET_ENDPOINT: "http://127.0.0.1:9000" })).toBe("FDS_BUCKET_ENDPOINT is set but FDS_BUCKET (the bucket's name) is not")
    // any FDS_BUCKET_* the ConfigProvider lists, a misspelt one too
    expect(refusal({ FDS_BUCKET_REGOIN: "sa-east-1" })).toBe("FDS_BUCKET_REGOIN is set but FDS_BUCKET (the bucket's name) is not")
    expect(refusal({ ...base, FDS_BUCKET: "ab" })).toMatch(/^FDS_BUCKET must be a bucket name of 3 to 63 characters/)
    expect(refusal({ ...base, FDS_BUCKET: "Fds_Batches" })).toMatch(/^FDS_BUCKET must be a bucket name/)
    expect(refusal({ ...base, FDS_BUCKET: "a".repeat(64) })).toMatch(/^FDS_BUCKET must be a bucket name/)
    expect(refusal({ ...base, FDS_BUCKET_ENDPOINT: "127.0.0.1:9000" })).toMatch(/^FDS_BUCKET_ENDPOINT must be an http or https URL/)
    expect(refusal({ ...base, FDS_BUCKET_ENDPOINT: "ftp://files.example.cl" })).toMatch(/^FDS_BUCKET_ENDPOINT must be an http or https URL/)
    expect(refusal({ ...base, FDS_BUCKET_ENDPOINT: `https://user:${SECRET}@s3.example.cl` })).toMatch(/^FDS_BUCKET_ENDPOINT must not carry credentials/)
    expect(refusal({ ...base, FDS_BUCKET_PREFIX: "fds/../other" })).toMatch(/^FDS_BUCKET_PREFIX must be folder names/)
    expect(refusal({ ...base, FDS_BUCKET_PREFIX: "fds//prod" })).toMatch(/^FDS_BUCKET_PREFIX must be folder names/)
    expect(refusal({ ...base, FDS_BUCKET_REGION: "Santiago de Chile" })).toMatch(/^FDS_BUCKET_REGION must be a region name/)
    expect(refusal({ ...base, FDS_BUCKET_FORCE_PATH_STYLE: "maybe" })).toBe('FDS_BUCKET_FORCE_PATH_STYLE must be true or false, got "maybe"')
    expect(refusal({ FDS_BUCKET: "fds-batches", FDS_BUCKET_SECRET_ACCESS_KEY: SECRET })).toBe(
      "FDS_BUCKET_SECRET_ACCESS_KEY is set but FDS_BUCKET_ACCESS_KEY_ID is not: set both, or neither",
    )
    expect(refusal({ FDS_BUCKET: "fds-batches", FDS_BUCKET_ACCESS_KEY_ID: "AKIAEXAMPLE" })).toBe(
      "FDS_BUCKET_ACCESS_KEY_ID is set but FDS_BUCKET_SECRET_ACCESS_KEY is not: set both, or neither",
    )
    expect(refusal({ FDS_BUCKET: "fds-batches", AWS_SECRET_ACCESS_KEY: SECRET })).toBe(
      "AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not: set both, or neither",
    )
  })

  it("only a batch id, and a Parquet file's name, become a key", () => {
    const s = readSettings(bucketSettings, envProvider(base))!
    expect(() => bucketKeys.snapshot(s, "../../etc/passwd")).toThrow(/not a batch id/)
    expect(() => bucketKeys.manifest(s, "2026-02-30-0123456789abcdef")).toThrow(/not a batch id/)
    expect(() => bucketKeys.parquet(s, "../../etc/passwd", "series.parquet")).toThrow(/not a batch id/)
    // and only a Parquet file's name (as PARQUET_FILE has it) after it
    for (const file of ["../2026-11-20-0123456789abcdef.sqlite", "series.parquet/../x", "notes.txt", ""]) {
      expect(() => bucketKeys.parquet(s, "2026-11-20-0123456789abcdef", file)).toThrow(/not a Parquet file's name/)
    }
  })
})
