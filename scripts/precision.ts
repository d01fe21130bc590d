/**
 * `npm run precision`: lints the independent corpus (test/corpus/independent/) with the
 * `recommended` preset and prints, per rule, false findings on clean contracts and planted defects
 * found and missed, then every false finding and every missed defect. `--write` also stores the
 * figures in test/corpus/independent/precision.json, from which `npm run generate` writes the
 * precision column of docs/rules.md (test/precisionCorpus.test.ts fails when they drift).
 * `--preset strict` measures the strict preset instead (printed only).
 */
import { writeFileSync } from 'node:fs';
import { adjudication, measure, storedFigures, CORPUS_DIR } from './precisionCorpus.ts';

const args = process.argv.slice(2);
const preset = args.includes('--preset') ? (args[args.indexOf('--preset') + 1] as 'recommended' | 'strict') : 'recommended';

const pct = (x: number | undefined) => (x === undefined ? '—' : `${Math.round(x * 100)} %`);

const m = await measure(preset);
const out: string[] = [];
out.push(`Independent corpus, preset ${m.preset}: ${m.contracts} clean contracts (${m.lines} lines), ${m.planted.length} planted defects (${m.withdrawn.length} more withdrawn, adjudication.json).`);
out.push('');
out.push('rule                          false  found  missed  precision');
for (const r of m.rules.filter((x) => x.falseFindings + x.found + x.missed > 0)) {
  out.push(`${r.code.padEnd(30)}${String(r.falseFindings).padStart(5)}${String(r.found).padStart(7)}${String(r.missed).padStart(8)}  ${pct(r.precision).padStart(9)}`);
}
const errors = m.clean.filter((f) => f.severity === 'error').length;
const found = m.planted.filter((p) => p.found).length;
out.push('');
out.push(`False findings on clean contracts: ${m.clean.length} (${errors} errors), ${(m.clean.length / m.contracts).toFixed(2)} per contract.`);
out.push(`Planted defects found: ${found} of ${m.planted.length} (${pct(found / m.planted.length)}).`);
const remaining = adjudication().remainingFalse;
for (const f of m.clean) {
  const why = remaining.find((r) => r.file === f.file && r.line === f.line && r.rule === f.code);
  out.push(`  false  ${f.file}:${f.line} ${f.severity} ${f.code}: ${f.message}${why ? `\n         stays: ${why.why}${why.owner ? ` (${why.owner})` : ''}` : ''}`);
}
for (const p of m.planted.filter((x) => !x.found)) out.push(`  missed ${p.file}:${p.line} ${p.expectedRule}: ${p.defect}`);
console.log(out.join('\n'));

if (args.includes('--write')) {
  if (preset !== 'recommended') throw new Error('--write stores the recommended preset only');
  writeFileSync(new URL('precision.json', CORPUS_DIR), `${JSON.stringify(storedFigures(m), null, 2)}\n`);
  console.log('wrote test/corpus/independent/precision.json');
}
