/** Median, 95th percentile and minimum of a sample (ms or s), as every bench table prints them. */
export function percentiles(xs: readonly number[]): { median: number; p95: number; min: number; n: number } {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return { median: Number.NaN, p95: Number.NaN, min: Number.NaN, n: 0 };
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { median, p95: s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]!, min: s[0]!, n: s.length };
}
