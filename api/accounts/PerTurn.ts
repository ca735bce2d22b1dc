/**
 * Work asked for during one turn of the event loop, done together once the turn's I/O has been
 * read (setImmediate): every caller's fiber waits, then each is resumed with its own outcome.
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
    const outcomes = run(batch)
    for (let i = 0; i < resumes.length; i++) resumes[i]!(outcomes[i]!)
  }
  return (item) =>
    Effect.callback<A, E>((resume) => {
      if (items.length === 0) setImmediate(flush)
      items.push(item)
      waiting.push(resume)
    })
}
