/**
 * Work asked for during one turn of the event loop, done together once the turn's I/O has been
 * read (setImmediate): every caller's fiber waits, then each is resumed with its own outcome
 * (`run` answers one effect per item, in order).
 */
import { Effect } from "effect"

export const perTurn = <I, A, E>(
  run: (batch: ReadonlyArray<I>) => ReadonlyArray<Effect.Effect<A, E>>,
): ((item: I) => Effect.Effect<A, E>) => {
  let items: Array<I> = []
  let waiting: Array<(outcome: Effect.Effect<A, E>) => void> = []
  const flush = () => {
    const batch = items
    const resumes = waiting
    items = []
    waiting = []
    let outcomes: ReadonlyArray<Effect.Effect<A, E>>
    try {
      outcomes = run(batch)
    } catch (defect) {
      // never leave a caller waiting: a throw in `run` ends each of them as a defect
      outcomes = batch.map(() => Effect.die(defect))
    }
    for (let i = 0; i < resumes.length; i++) resumes[i]!(outcomes[i] ?? Effect.die(new Error("perTurn: no outcome")))
  }
  return (item) =>
    Effect.callback<A, E>((resume) => {
      if (items.length === 0) setImmediate(flush)
      items.push(item)
      waiting.push(resume)
    })
}
