/**
 * `agents-md eval --format junit` (docs/dry-run.md, "JUnit output"): the eval report as JUnit XML
 * for CI dashboards. One `testsuite` per snapshot, one `testcase` per query (classname: the
 * snapshot, name: the query id), a `failure` per query that missed an expectation with each
 * mismatch on a line, and the trace path as the test case's output.
 */
import type { QueryReport } from '../../service/index.ts';

/** Text and attribute values escaped for XML 1.0 (characters XML cannot hold are dropped). */
export function xmlEscape(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The JUnit XML of an eval run; `mismatch` words one mismatch in the display language. */
export function junitXml(runId: string, reports: readonly QueryReport[], mismatch: (m: QueryReport['mismatches'][number]) => string): string {
  const suites = new Map<string, QueryReport[]>();
  for (const r of reports) suites.set(r.snapshot, [...(suites.get(r.snapshot) ?? []), r]);
  const failures = reports.filter((r) => r.mismatches.length > 0).length;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="agents-md eval ${xmlEscape(runId)}" tests="${reports.length}" failures="${failures}">`];
  for (const [snapshot, rs] of suites) {
    out.push(`  <testsuite name="${xmlEscape(snapshot)}" tests="${rs.length}" failures="${rs.filter((r) => r.mismatches.length > 0).length}">`);
    for (const r of rs) {
      // Repeated runs of a query are told apart: `refund`, `refund #2`, `refund #3`.
      const name = (r.attempt ?? 1) > 1 ? `${r.query} #${r.attempt}` : r.query;
      out.push(`    <testcase classname="${xmlEscape(snapshot)}" name="${xmlEscape(name)}">`);
      if (r.mismatches.length > 0) {
        const lines = r.mismatches.map(mismatch);
        out.push(`      <failure message="${xmlEscape(lines[0]!)}" type="${xmlEscape(r.mismatches[0]!.field)}">${xmlEscape(`${r.status} ${r.code}\n${lines.join('\n')}`)}</failure>`);
      }
      if (r.trace) out.push(`      <system-out>${xmlEscape(`trace: ${r.trace}`)}</system-out>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
