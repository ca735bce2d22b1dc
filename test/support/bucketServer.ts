/**
 * An S3-compatible server on loopback for the bucket tests (s3rver, files in a temporary folder),
 * with one bucket made at start, and the FDS_BUCKET_* environment that points at it.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import S3rver from "s3rver"

export interface BucketServer {
  readonly endpoint: string
  readonly bucket: string
  /** FDS_BUCKET_* for this server's bucket, under `prefix`. */
  readonly env: (prefix?: string) => Record<string, string>
  readonly close: () => Promise<void>
}

export const startBucketServer = async (bucket = "fds-test-bucket"): Promise<BucketServer> => {
  const directory = mkdtempSync(join(tmpdir(), "fds-s3rver-"))
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  return {
    endpoint,
    bucket,
    env: (prefix = "") => ({
      FDS_BUCKET: bucket,
      FDS_BUCKET_ENDPOINT: endpoint,
      FDS_BUCKET_PREFIX: prefix,
      FDS_BUCKET_ACCESS_KEY_ID: "S3RVER",
      FDS_BUCKET_SECRET_ACCESS_KEY: "S3RVER",
      FDS_BUCKET_FORCE_PATH_STYLE: "true",
    }),
    close: async () => {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
