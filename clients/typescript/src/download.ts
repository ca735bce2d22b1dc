/**
 * Bulk download of a published batch's file: its SQLite snapshot (`snapshot`) or its catalog of
 * series (`series.csv`). The bytes go to `<to>.part`, with the file's ETag beside it in
 * `<to>.part.etag`; a download cut off is resumed from the bytes already there (`Range:
 * bytes=<n>-`, `If-Range: <ETag>`: the service sends the rest while the file is the same one, the
 * whole file otherwise). The file's SHA-256 over every byte is checked against Repr-Digest before
 * `<to>.part` becomes `<to>`; a mismatch removes the partial file and throws DigestMismatch.
 */
import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"
import { open, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { DigestMismatch } from "./errors.ts"

export interface DownloadOptions {
  /** The batch (an id of GET /api/batches, or the Batch-Id header of any data answer). */
  readonly batch: string
  /** `snapshot` (the SQLite file, docs/snapshot-format.md) or `series.csv`. */
  readonly file: "snapshot" | "series.csv"
  /** Where the file goes. */
  readonly to: string
  readonly signal?: AbortSignal
  /** Hears of the bytes written so far (the resumed part included) after each chunk. */
  readonly onProgress?: (bytes: number) => void
}

export interface Downloaded {
  readonly path: string
  readonly bytes: number
  /** SHA-256 of the file, base64 (as in Repr-Digest). */
  readonly sha256: string
  /** Bytes already there from a download cut off before, and not fetched again. */
  readonly resumedFrom: number
}

/** What the client lends a download: its base URL, its headers (key, User-Agent), its retrying fetch and its errors. */
export interface Transport {
  readonly baseUrl: string
  readonly headers: Readonly<Record<string, string>>
  readonly send: (request: Request) => Promise<Response>
  readonly fail: (response: Response, request: string) => Promise<never>
}

const sizeOf = (path: string): Promise<number> => stat(path).then((s) => s.size, () => 0)

/** The SHA-256 of Repr-Digest (`sha-256=:<base64>:`, RFC 9530), base64. */
const announced = (headers: Headers): string | undefined => /(?:^|,)\s*sha-256=:([A-Za-z0-9+/=]+):/.exec(headers.get("repr-digest") ?? "")?.[1]

/** The hash of the first `bytes` bytes of a file. */
const hashOfPart = (path: string, bytes: number) =>
  new Promise<ReturnType<typeof createHash>>((resolve, reject) => {
    const hash = createHash("sha256")
    if (bytes === 0) return resolve(hash)
    createReadStream(path, { start: 0, end: bytes - 1 })
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash))
  })

export const downloadFile = async (options: DownloadOptions, transport: Transport): Promise<Downloaded> => {
  const part = `${options.to}.part`
  const validator = `${part}.etag`
  const etag = await readFile(validator, "utf8").catch(() => undefined)
  // a part without the validator of its file cannot be resumed safely: start again
  const have = etag === undefined ? 0 : await sizeOf(part)
  const path = `/api/batches/${encodeURIComponent(options.batch)}/${options.file}`
  const url = new URL(path, `${transport.baseUrl}/`)
  const headers: Record<string, string> = { ...transport.headers }
  if (have > 0 && etag !== undefined) {
    headers.Range = `bytes=${have}-`
    headers["If-Range"] = etag
  }
  const response = await transport.send(new Request(url, { headers, ...(options.signal === undefined ? {} : { signal: options.signal }) }))
  if (response.status === 416) {
    // the part is not a beginning of this file (longer than it): start again
    await response.body?.cancel()
    await rm(validator, { force: true })
    await rm(part, { force: true })
    return downloadFile(options, transport)
  }
  if (!response.ok) return transport.fail(response, `GET ${path}`)
  const expected = announced(response.headers)
  if (expected === undefined) throw new Error(`GET ${path}: no SHA-256 in Repr-Digest`)
  // 206 continues the part; 200 (a first request, or a file that is not the one of the part) replaces it
  let resumedFrom = 0
  if (response.status === 206) {
    const range = response.headers.get("content-range") ?? ""
    if (Number(/^bytes (\d+)-/.exec(range)?.[1]) !== have) throw new Error(`GET ${path}: a range not asked for (${range})`)
    resumedFrom = have
  }
  const hash = await hashOfPart(part, resumedFrom)
  const newEtag = response.headers.get("etag")
  if (newEtag === null) await rm(validator, { force: true })
  else await writeFile(validator, newEtag)
  const out = await open(part, resumedFrom > 0 ? "a" : "w")
  let bytes = resumedFrom
  try {
    if (response.body !== null) {
      for await (const chunk of response.body) {
        hash.update(chunk)
        await out.write(chunk)
        bytes += chunk.byteLength
        options.onProgress?.(bytes)
      }
    }
  } finally {
    await out.close()
  }
  const actual = hash.digest("base64")
  if (actual !== expected) {
    await rm(validator, { force: true })
    await rm(part, { force: true })
    throw new DigestMismatch(options.to, expected, actual)
  }
  await rename(part, options.to)
  await rm(validator, { force: true })
  return { path: options.to, bytes, sha256: actual, resumedFrom }
}
