/**
 * Work asked for during one turn of the event loop, done together once the turn's I/O has been
 * read (setImmediate): every caller's fiber waits, then each is resumed with its own outcome
 * (`run` answers one effect per item, in order). A caller interrupted while it waits (a client
 * that went away) is left out of the batch: its work is not done.
 */
import { Effect } from "effect"

interface Waiting<I, A, E> {
  readonly item: I
  readonly resume: (outcome: Effect.Effect<A, E>) => void
  cancelled: boolean
}

export const perTurn = <I, A, E>(
  run: (batch: ReadonlyArray<I>) => ReadonlyArray<Effect.Effect<A, E>>,
): ((item: I) => Effect.Effect<A, E>) => {
  let waiting: Array<Waiting<I, A, E>> = []
  const flush = () => {
    const turn = waiting.filter((w) => !w.cancelled)
    waiting = []
    if (turn.length === 0) return
    let outcomes: ReadonlyArray<Effect.Effect<A, E>>
    try {
      outcomes = run(turn.map((w) => w.item))
    } catch (defect) {
      // never leave a caller waiting: a throw in `run` ends each of them as a defect
      outcomes = turn.map(() => Effect.die(defect))
    }
    // Resuming runs each fiber on; a throw out of one (an observer's) must not strand the rest.
    let thrown: { readonly error: unknown } | undefined
    for (let i = 0; i < turn.length; i++) {
      try {
        turn[i]!.resume(outcomes[i] ?? Effect.die(new Error("perTurn: no outcome")))
      } catch (error) {
        thrown ??= { error }
      }
    }
    if (thrown !== undefined) {
      const { error } = thrown
      queueMicrotask(() => {
        throw error
      })
    }
  }
  return (item) =>
    Effect.callback<A, E>((resume) => {
      if (waiting.length === 0) setImmediate(flush)
      const entry: Waiting<I, A, E> = { item, resume, cancelled: false }
      waiting.push(entry)
      return Effect.sync(() => {
        entry.cancelled = true
      })
    })
}
