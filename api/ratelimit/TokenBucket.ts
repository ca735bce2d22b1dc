/**
 * Token buckets, one per client address: each holds up to `burst` tokens, starts full and refills
 * at `perSecond` (golang.org/x/time/rate's model: 10/s with burst 20 is "10 requests a second,
 * bursts up to 20"). Time is passed in, so tests need no sleeping. Memory stays bounded: full
 * buckets carry no information and are dropped first when the table grows.
 */
interface Bucket {
  tokens: number
  updatedMs: number
}

export interface TokenBucketOptions {
  readonly perSecond: number
  readonly burst: number
  /** Most addresses tracked at once (default 100,000). */
  readonly maxEntries?: number
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>()
  private readonly perMs: number
  private readonly burst: number
  private readonly maxEntries: number

  constructor(options: TokenBucketOptions) {
    this.perMs = options.perSecond / 1000
    this.burst = options.burst
    this.maxEntries = options.maxEntries ?? 100_000
  }

  /** Takes one token for `key` at `nowMs`; false when its bucket is empty. */
  take(key: string, nowMs: number): boolean {
    let bucket = this.buckets.get(key)
    if (bucket === undefined) {
      if (this.buckets.size >= this.maxEntries) this.sweep(nowMs)
      bucket = { tokens: this.burst, updatedMs: nowMs }
      this.buckets.set(key, bucket)
    } else if (nowMs > bucket.updatedMs) {
      bucket.tokens = Math.min(this.burst, bucket.tokens + (nowMs - bucket.updatedMs) * this.perMs)
      bucket.updatedMs = nowMs
    }
    if (bucket.tokens < 1) return false
    bucket.tokens -= 1
    return true
  }

  /** Tokens `key` holds at `nowMs` (for tests and diagnostics). */
  tokens(key: string, nowMs: number): number {
    const bucket = this.buckets.get(key)
    if (bucket === undefined) return this.burst
    return Math.min(this.burst, bucket.tokens + Math.max(0, nowMs - bucket.updatedMs) * this.perMs)
  }

  get size(): number {
    return this.buckets.size
  }

  private sweep(nowMs: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (nowMs - bucket.updatedMs) * this.perMs >= this.burst) this.buckets.delete(key)
    }
    // Still full of busy addresses: forget the oldest half (they start again with a full bucket).
    if (this.buckets.size >= this.maxEntries) {
      let drop = Math.ceil(this.buckets.size / 2)
      for (const key of this.buckets.keys()) {
        if (drop-- <= 0) break
        this.buckets.delete(key)
      }
    }
  }
}
