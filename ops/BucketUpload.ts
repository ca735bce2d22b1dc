/**
 * One file into the bucket, checked: whole in one PUT up to a part's size, else as a multipart
 * upload of parts read one at a time (one part in memory; a failed upload is aborted, so no part
 * lingers). Each body carries its Content-MD5 (the server refuses bytes damaged on the way), the
 * object its SHA-256 as metadata (`x-amz-meta-sha256`), and a HEAD afterwards must show the size
 * and SHA-256 uploaded before anything announces the object.
 */
import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"
import { type FileHandle, open } from "node:fs/promises"
import { pipeline } from "node:stream/promises"
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3"
import { BucketRefused, sendOptions, statusOf, type Target } from "./Bucket.ts"

/** 16 MiB: over S3's 5 MiB minimum part, 10,000 parts reach 160 GiB. */
export const DEFAULT_PART_BYTES = 16 * 1024 * 1024

const md5 = (b: Buffer): string => createHash("md5").update(b).digest("base64")

const opts = sendOptions

/** Reads `length` bytes at `position` into `buffer` (a read may return fewer); the bytes read. */
const readFully = async (file: FileHandle, buffer: Buffer, length: number, position: number): Promise<number> => {
  let got = 0
  while (got < length) {
    const { bytesRead } = await file.read(buffer, got, length - got, position + got)
    if (bytesRead === 0) break
    got += bytesRead
  }
  return got
}

/** A file's SHA-256 (hex) and size, read once. */
export const fileDigest = async (path: string): Promise<{ readonly sha256: string; readonly bytes: number }> => {
  const hash = createHash("sha256")
  let bytes = 0
  await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      hash.update(chunk)
      bytes += chunk.length
    }
  })
  return { sha256: hash.digest("hex"), bytes }
}

/** What the bucket holds at `key` (size and recorded SHA-256), or null when nothing is there. */
export const headObject = async (t: Target, key: string): Promise<{ readonly bytes: number; readonly sha256: string | null } | null> => {
  try {
    const head = await t.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: key }), opts(t))
    return { bytes: head.ContentLength ?? -1, sha256: head.Metadata?.sha256 ?? null }
  } catch (e) {
    if (statusOf(e) === 404) return null
    throw e
  }
}

const putMultipart = async (t: Target, key: string, path: string, size: number, sha256: string, partBytes: number, contentType: string) => {
  const created = await t.client.send(
    new CreateMultipartUploadCommand({ Bucket: t.bucket, Key: key, ContentType: contentType, Metadata: { sha256 } }),
    opts(t),
  )
  const uploadId = created.UploadId
  if (uploadId === undefined) throw new BucketRefused(`${key}: the bucket started no multipart upload`)
  const file = await open(path, "r")
  try {
    const parts: Array<{ ETag: string; PartNumber: number }> = []
    const buffer = Buffer.allocUnsafe(partBytes)
    const read = createHash("sha256")
    for (let at = 0, n = 1; at < size; at += partBytes, n++) {
      const bytesRead = await readFully(file, buffer, Math.min(partBytes, size - at), at)
      const body = buffer.subarray(0, bytesRead)
      read.update(body)
      const part = await t.client.send(
        new UploadPartCommand({ Bucket: t.bucket, Key: key, UploadId: uploadId, PartNumber: n, Body: body, ContentMD5: md5(body), ContentLength: bytesRead }),
        opts(t),
      )
      if (part.ETag === undefined) throw new BucketRefused(`${key}: part ${n} was answered without an ETag`)
      parts.push({ ETag: part.ETag, PartNumber: n })
    }
    // the object is made whole only from the bytes the SHA-256 recorded with it was taken of
    if (read.digest("hex") !== sha256) throw new Error(`${path} changed while it was uploaded`)
    await t.client.send(
      new CompleteMultipartUploadCommand({ Bucket: t.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
      opts(t),
    )
  } catch (e) {
    // the parts uploaded so far are dropped (S3 bills them until then); a failure to abort changes nothing more
    await t.client.send(new AbortMultipartUploadCommand({ Bucket: t.bucket, Key: key, UploadId: uploadId })).catch(() => undefined)
    throw e
  } finally {
    await file.close()
  }
}

/**
 * Uploads the file at `path` (of the SHA-256 and size given) to `key`, then checks with HEAD that
 * the bucket holds that size and SHA-256. Throws when the upload or the check fails.
 */
export const putFile = async (
  t: Target,
  key: string,
  path: string,
  digest: { readonly sha256: string; readonly bytes: number },
  options: { readonly partBytes?: number; readonly contentType: string },
): Promise<void> => {
  const partBytes = options.partBytes ?? DEFAULT_PART_BYTES
  if (digest.bytes > partBytes) {
    await putMultipart(t, key, path, digest.bytes, digest.sha256, partBytes, options.contentType)
  } else {
    const file = await open(path, "r")
    let body: Buffer
    try {
      body = Buffer.alloc(digest.bytes)
      await readFully(file, body, digest.bytes, 0)
    } finally {
      await file.close()
    }
    if (createHash("sha256").update(body).digest("hex") !== digest.sha256) throw new Error(`${path} changed while it was uploaded`)
    await t.client.send(
      new PutObjectCommand({
        Bucket: t.bucket,
        Key: key,
        Body: body,
        ContentMD5: md5(body),
        ContentLength: body.length,
        ContentType: options.contentType,
        Metadata: { sha256: digest.sha256 },
      }),
      opts(t),
    )
  }
  const there = await headObject(t, key)
  if (there === null || there.bytes !== digest.bytes || there.sha256 !== digest.sha256) {
    throw new BucketRefused(
      `${key}: after the upload the bucket holds ${there === null ? "nothing" : `${there.bytes} bytes of SHA-256 ${there.sha256 ?? "unknown"}`}, ` +
        `not the ${digest.bytes} bytes of SHA-256 ${digest.sha256} uploaded`,
    )
  }
}
