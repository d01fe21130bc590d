/**
 * The scale of property tests: `n` runs times FC_RUNS_SCALE (at least one run). `npm test`
 * (test/quick.ts) runs them at 0.25, `npm run test:all` at 1; FC_RUNS_SCALE=10 hunts longer (e.g.
 * before a release). Thresholds on how often a case
 * occurred are proportional to the runs (`RUNS(400) / 8`), so they hold at every scale.
 */
export const RUNS = (n: number): number => Math.max(1, Math.round(n * Number(process.env['FC_RUNS_SCALE'] ?? 1)));
