// A quantile of a sorted sample, by rank (no interpolation): the figure a benchmark reports.

/** The value at rank ⌊q·n⌋ of the ascending sample (q in 0..1; the last one for q = 1). */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
