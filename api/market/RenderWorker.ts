/**
 * The rendering thread (see OffThreadRender.ts): renders one request at a time on a
 * read-only reader of the snapshot file it names. Readers are kept for the two newest files asked
 * for (the pinned one and, across a swap, the one before), so the readers' memory per snapshot
 * serves the next request.
 */
import { existsSync } from "node:fs"
import { parentPort } from "node:worker_threads"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { isDamagedFileError, SnapshotReader } from "../../snapshots/Reader.ts"
import { marketSummaryText } from "../../snapshots/readers/MarketSummary.ts"
import { renderAllFunds } from "./MarketVehicles.ts"
import type { RenderAnswer, RenderRequest } from "./OffThreadRender.ts"
import { stampBatchId } from "./StampBatchId.ts"

const KEPT_READERS = 2
const readers = new Map<string, SnapshotReader>()

const readerOf = (path: string): SnapshotReader => {
  const kept = readers.get(path)
  if (kept !== undefined) return kept
  const reader = new SnapshotReader(path)
  readers.set(path, reader)
  if (readers.size > KEPT_READERS) {
    const [oldest, old] = readers.entries().next().value!
    readers.delete(oldest)
    old.close()
  }
  return reader
}

const answer = (m: RenderRequest): { answer: RenderAnswer; transfer: ArrayBuffer[] } => {
  if (!readers.has(m.path) && !existsSync(m.path)) return { answer: { id: m.id, gone: true }, transfer: [] }
  const reader = readerOf(m.path)
  const out =
    m.kind === "allFunds"
      ? renderAllFunds(reader, m.requested, {
          cutoff: m.cutoff,
          filters: m.filters,
          graceWeekdays: m.graceWeekdays,
          ...(m.universe === undefined ? {} : { universe: m.universe }),
        })
      : marketSummaryText(reader, m.cutoff, m.graceWeekdays, m.universe)
  if (out === null) return { answer: { id: m.id, empty: true }, transfer: [] }
  if (typeof out !== "string") return { answer: { id: m.id, unavailable: out }, transfer: [] }
  // the renderers are the pipeline's too, which cannot know the batch id: it is written in here
  const bytes = new TextEncoder().encode(stampBatchId(out, batchIdOfFile(m.path)))
  return { answer: { id: m.id, bytes }, transfer: [bytes.buffer as ArrayBuffer] }
}

parentPort!.on("message", (m: RenderRequest) => {
  let out: { answer: RenderAnswer; transfer: ArrayBuffer[] }
  try {
    out = answer(m)
  } catch (e) {
    out = isDamagedFileError(e)
      ? { answer: { id: m.id, damaged: String(e) }, transfer: [] }
      : { answer: { id: m.id, failed: e instanceof Error ? (e.stack ?? e.message) : String(e) }, transfer: [] }
  }
  parentPort!.postMessage(out.answer, out.transfer)
})
