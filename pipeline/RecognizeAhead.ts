/**
 * A folder collect on both cores. A cold build collects every file of the history (~7,000 at
 * market scale): each is read, hashed and stored in the raw store, and recognised by content
 * (every data set's `detect`, the HTML pages parsed in part), one after the other. The files the
 * folder memo does not know are recognised first, half by `recognizeJob` off this thread (the
 * Offload service: a child process) and half in this thread
 * (alternately: each half gets as many cartola months and as many FI pages); the collect then
 * records them in the ledger in the folder's order, as before, from what they were recognised as.
 * The same functions recognise each file (`recognize`): the observations are the same.
 *
 * Only for a raw store on disk (the child opens it: its port's `dir`), an Offload on two cores
 * and at least `MIN_BYTES` of files to recognise; `FDS_PARSE_AHEAD=0` (the in-process Offload)
 * turns it off with the parse ahead.
 */
import { statSync } from "node:fs"
import { basename } from "node:path"
import type { DataSetName } from "./datasets/DataSetName.ts"
import { readInboxFile } from "./InboxFile.ts"
import type { OffloadJob, OffloadShape } from "./offload/Offload.ts"
import { FolderRawStore, type RawStore } from "./RawStore.ts"
import { detect } from "./datasets/Registry.ts"
import { PIPELINE_VERSION } from "./Version.ts"

const CHILD = new URL("./RecognizeChild.ts", import.meta.url)
const MIN_BYTES = 32e6

/** What a file's bytes are: their hash (stored in the raw store), their data set and key; null data set: none recognised. */
export interface Recognized {
  readonly sha256: string
  readonly bytes: number
  readonly dataSet: DataSetName | null
  readonly key: string | null
}

/** Stores the file's bytes and recognises them, as the collect's `record` does. */
export const recognize = (raw: RawStore["Service"], path: string): Recognized => {
  const bytes = readInboxFile(path)
  const sha256 = raw.put(bytes)
  const name = basename(path)
  const adapter = detect(bytes, name)
  return { sha256, bytes: bytes.length, dataSet: adapter?.name ?? null, key: adapter === null ? null : adapter.key(name, bytes, sha256) }
}

export interface RecognizeRequest {
  /** The parent's pipeline version: a child that runs other code (updated on disk meanwhile) recognises nothing. */
  readonly pipeline: string
  readonly rawDir: string
  readonly paths: ReadonlyArray<string>
}

export type RecognizeAnswer =
  | { readonly _tag: "Recognized"; readonly files: ReadonlyArray<Recognized | null> }
  | { readonly _tag: "Failed"; readonly reason: string }

/** Recognises the request's files into the raw store on its folder (null where one threw). */
export const recognizeJob: OffloadJob<RecognizeRequest, RecognizeAnswer> = {
  script: CHILD,
  noAnswer: { _tag: "Failed", reason: "the recognize process gave no answer" },
  run: async (request) => {
    if (request.pipeline !== PIPELINE_VERSION) {
      return { _tag: "Failed", reason: `the code on disk is pipeline ${PIPELINE_VERSION}, not the collect's` }
    }
    const raw = new FolderRawStore(request.rawDir)
    const files = request.paths.map((path) => {
      try {
        return recognize(raw, path)
      } catch {
        return null
      }
    })
    return { _tag: "Recognized", files }
  },
}

/**
 * Each path's recognition (null where it threw: the collect reads that file itself and meets the
 * error as before), or null when it does not run.
 */
export const recognizeAhead = async (
  offload: OffloadShape,
  raw: RawStore["Service"],
  paths: ReadonlyArray<string>,
  minBytes = MIN_BYTES,
): Promise<Map<string, Recognized> | null> => {
  if (offload.cores < 2 || raw.dir === null || paths.length < 2) return null
  let total = 0
  for (const path of paths) total += statSync(path, { throwIfNoEntry: false })?.size ?? 0
  if (total < minBytes) return null
  const mine = paths.filter((_, i) => i % 2 === 1)
  const theirs = paths.filter((_, i) => i % 2 === 0)
  const out = new Map<string, Recognized>()
  const answer = await offload.alongside(recognizeJob, { pipeline: PIPELINE_VERSION, rawDir: raw.dir, paths: theirs }, () => {
    for (const path of mine) {
      try {
        out.set(path, recognize(raw, path))
      } catch {
        // left to the collect
      }
    }
  })
  if (answer._tag === "Recognized") {
    answer.files.forEach((r, i) => {
      if (r !== null) out.set(theirs[i]!, r)
    })
  }
  return out
}
