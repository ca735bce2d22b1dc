/**
 * Seeded pseudo-random numbers (mulberry32). Only integer operations, `+`, `*` and `sqrt` are used
 * downstream, so the same seed gives the same numbers, bit for bit, on every machine.
 */
export interface Prng {
  /** Uniform in [0, 1). */
  readonly next: () => number
  /** Uniform integer in [lo, hi]. */
  readonly int: (lo: number, hi: number) => number
  /** Approximately standard normal (Irwin–Hall: sum of 12 uniforms − 6, so within ±6). */
  readonly normal: () => number
  readonly pick: <A>(items: ReadonlyArray<A>) => A
  /** True with probability p. */
  readonly chance: (p: number) => boolean
}

export const makePrng = (seed: number): Prng => {
  let state = seed >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1))
  const normal = (): number => {
    let sum = 0
    for (let i = 0; i < 12; i++) sum += next()
    return sum - 6
  }
  const pick = <A>(items: ReadonlyArray<A>): A => {
    if (items.length === 0) throw new Error("pick from an empty list")
    return items[int(0, items.length - 1)]!
  }
  return { next, int, normal, pick, chance: (p) => next() < p }
}
