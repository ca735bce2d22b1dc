/** Every computation, in the order they run (a later one may read an earlier one's tables). */
import type { Computation } from "./Computation.ts"

export const COMPUTATIONS: ReadonlyArray<Computation> = []
