/**
 * What a snapshot builds before it is swapped in (SnapshotStore's `warm`): the compare and
 * screener rows of its universe, read in steps between which the event loop serves requests on
 * the snapshot still current. Without it, the first compare or screener request after each swap
 * read them in one piece (~0.3 s at full size), and every request behind it waited.
 *
 * Then, once the server has attached them (SwapWarm), the previous batch's hottest answers
 * (AnswerWarm.ts): the rows first, so that the compare and screener answers among them find them.
 */
import { dateToInt } from "../../schemas/Dates.ts"
import { batchInfo, warmCompareRows } from "../market/MarketCompareRows.ts"
import type { SnapshotHandle, WarmSnapshot } from "./SnapshotHandle.ts"

export const warmSnapshot = ({ reader, file, contentHash }: WarmSnapshot, stillWanted: () => boolean): Promise<void> =>
  warmCompareRows(reader.db, dateToInt(reader.batchDate), batchInfo(file, contentHash, reader.batchDate), stillWanted)

/** A warm step on a checked snapshot, before it serves (SwapStateOptions.warm). */
export type WarmStep = (next: SnapshotHandle, stillWanted: () => boolean) => Promise<void>

/** The answers' warm (AnswerWarm.ts): `prepare` as a check begins (its thread starts), `warm` once it passed. */
export interface AnswersWarm {
  readonly prepare: () => void
  readonly warm: WarmStep
}

/**
 * The store's warm: the compare rows, then the answers. The store is built before the server
 * that keeps the answers, so the answers' step is attached later, once the server has built it,
 * and detached when it stops; the swap at start warms the rows only (no batch served before it,
 * nothing hot).
 */
export class SwapWarm {
  private answers: AnswersWarm | null = null

  /** A check of a new file begins (SwapStateOptions.prepare). */
  readonly prepare = (): void => {
    this.answers?.prepare()
  }

  readonly warm: WarmStep = async (next, stillWanted) => {
    await warmSnapshot(next, stillWanted)
    const answers = this.answers
    if (answers !== null && stillWanted()) await answers.warm(next, stillWanted)
  }

  /** Warms the answers too from now on; the returned function stops that. */
  attach(answers: AnswersWarm): () => void {
    this.answers = answers
    return () => {
      if (this.answers === answers) this.answers = null
    }
  }
}
