/** Unit fixes staging applies (units in column names: `_percent` in, fraction out). */

/**
 * A percentage as a decimal fraction, exact to the published digits: 1.32 → 0.0132 (a plain
 * division gives 0.013200000000000002). CMF publishes at most 4–6 decimals of percent.
 */
export const percentToFraction = (percent: number): number => Number((percent / 100).toFixed(12))
