/**
 * What a snapshot builds before it is swapped in (SnapshotStore's `warm`): the compare and
 * screener rows of its universe, read in steps between which the event loop serves requests on
 * the snapshot still current. Without it, the first compare or screener request after each swap
 * read them in one piece (~0.3 s at full size), and every request behind it waited.
 */
import { dateToInt } from "../../schemas/Dates.ts"
import { batchInfo, warmCompareRows } from "../market/MarketCompareRows.ts"
import type { WarmSnapshot } from "./SnapshotHandle.ts"

export const warmSnapshot = ({ reader, file, contentHash }: WarmSnapshot, stillWanted: () => boolean): Promise<void> =>
  warmCompareRows(reader.db, dateToInt(reader.batchDate), batchInfo(file, contentHash, reader.batchDate), stillWanted)
