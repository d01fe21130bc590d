// "Bad input is normal input": the language service returns sane results, quickly and without
// throwing, on whatever a file may contain (docs/robustness.md). Deterministic cases first, then a
// fast-check property over arbitrary strings and mutated real contracts.
// Cases that currently fail because of a known, reported bug are `todo` (they run, show the
// failure and do not fail the suite); the ones that would take minutes are `skip`ped with their
// measured cost in the reason.
// Run: node --import tsx --test test/robustness.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkSync } from 'recheck';
import { readFileSync } from 'node:fs';
import { createLanguageService, parseContract, Workspace, type FileSystem, validateContract, type ContractDiagnostic, type ParsedContract, type Range } from '../server/src/service/index.ts';
import { generateContract } from '../bench/generate.ts';
import { RUNS } from './helpers/properties.ts';
import { memoryFs } from './helpers/memoryFs.ts';
import { SUMMARY_CACHE_SIZE, WORKSPACE_CACHE_SIZE } from '../server/src/service/workspace/resolveFacts.ts';
import { WALK_LIMITS } from '../server/src/node/nodeFileSystem.ts';
import { parseWork, type ParseWork } from '../server/src/service/parse/work.ts';
import { MAX_NODES } from '../server/src/service/parse/yamlBlock.ts';
import { TABLE_DELIMITER } from '../server/src/service/parse/lineSyntax.ts';
import { MAX_LINE_LENGTH } from '../server/src/service/parse/buildSection.ts';

const URI = 'file:///work/AGENTS.md';
const FM = '---\ncontract: true\nname: robust\nversion: 1.0.0\n---\n\n';

/** LSP lines (line breaks `\r\n`, `\n`, `\r`), computed independently of the service. */
const lspLines = (text: string): string[] => text.split(/\r\n|\r|\n/);

function problemsOf(text: string, r: Range, what: string): string[] {
  const lines = lspLines(text);
  const out: string[] = [];
  for (const [name, p] of [['start', r.start], ['end', r.end]] as const) {
    if (!Number.isInteger(p.line) || p.line < 0 || p.line >= lines.length) out.push(`${what}: ${name} line ${p.line} outside 0..${lines.length - 1}`);
    else if (!Number.isInteger(p.character) || p.character < 0 || p.character > lines[p.line]!.length) out.push(`${what}: ${name} character ${p.character} outside 0..${lines[p.line]!.length} on line ${p.line}`);
  }
  if (r.start.line > r.end.line || (r.start.line === r.end.line && r.start.character > r.end.character)) out.push(`${what}: start after end ${JSON.stringify(r)}`);
  return out;
}

/** Every diagnostic range and related range inside the document; no unfilled message placeholder. */
function checkDiagnostics(text: string, diagnostics: readonly ContractDiagnostic[]): string[] {
  const out: string[] = [];
  for (const d of diagnostics) {
    out.push(...problemsOf(text, d.range, d.code));
    for (const r of d.related ?? []) out.push(...problemsOf(text, r.range, `${d.code} (related)`));
    const hole = /(?<!\{)\{[A-Za-z_]+\}(?!\})/.exec(d.message);
    if (hole && !text.includes(hole[0])) out.push(`${d.code}: unfilled placeholder ${hole[0]} in "${d.message}"`);
    if (d.code === 'internal-error') out.push(`internal-error: ${d.message}`);
  }
  return out;
}

/** Every range the model exposes (sections, titles, source maps, findings) inside the document. */
function checkModel(text: string, m: ParsedContract): string[] {
  const out: string[] = [];
  for (const s of m.sections) {
    const where = `section ${s.title ?? s.kind}@${s.startLine}`;
    out.push(...problemsOf(text, s.range, `${where} range`));
    if (s.titleRange) out.push(...problemsOf(text, s.titleRange, `${where} titleRange`));
    for (const [p, span] of s.map) {
      out.push(...problemsOf(text, span.value, `${where} map ${p} value`));
      if (span.key) out.push(...problemsOf(text, span.key, `${where} map ${p} key`));
    }
    for (const [p, span] of s.frontMatter?.map ?? []) out.push(...problemsOf(text, span.value, `front matter ${p}`));
  }
  return out;
}

function lint(text: string): { model: ParsedContract; diagnostics: ContractDiagnostic[] } {
  const model = parseContract(text);
  const diagnostics = validateContract(model);
  return { model, diagnostics };
}

type Work = { -readonly [K in keyof ParseWork]: number };

/**
 * The parser's work while `f` runs (parse/work.ts): no test here times anything (a loaded machine
 * makes timings flaky), they bound the work instead. A count past its ceiling throws where it is
 * counted, before the work it counts, so that a bound removed fails the test at once instead of
 * running for minutes; `over` names the counts that passed their ceilings.
 */
function workOf<T>(f: () => T, ceilings: Partial<Work> = {}): { value: T | undefined; work: Work; over: string[] } {
  const base = { ...parseWork };
  const over: string[] = [];
  const keys = Object.keys(ceilings) as (keyof Work)[];
  for (const k of keys) {
    let v = parseWork[k];
    Object.defineProperty(parseWork, k, {
      configurable: true,
      enumerable: true,
      get: () => v,
      set: (n: number) => {
        v = n;
        if (n - base[k] > ceilings[k]!) {
          over.push(`${k} past ${ceilings[k]}`);
          throw new Error(`work ceiling: ${k} past ${ceilings[k]}`);
        }
      },
    });
  }
  let value: T | undefined;
  try {
    value = f();
  } catch (e) {
    if (over.length === 0) throw e;
  } finally {
    for (const k of keys) Object.defineProperty(parseWork, k, { configurable: true, enumerable: true, writable: true, value: parseWork[k] });
  }
  const work = Object.fromEntries(Object.entries(parseWork).map(([k, v]) => [k, v - base[k as keyof Work]])) as Work;
  return { value, work, over: [...new Set(over)] };
}

/** `lint` within ceilings: the result, and the work it took; fails the test when a ceiling was passed. */
function lintBounded(text: string, ceilings: Partial<Work>): ReturnType<typeof lint> & { work: Work } {
  const { value, work, over } = workOf(() => lint(text), ceilings);
  assert.deepEqual(over, [], `work past its bound: ${JSON.stringify(work)}`);
  return { ...value!, work };
}

function assertSane(text: string, r: { model: ParsedContract; diagnostics: readonly ContractDiagnostic[] }): void {
  assert.equal(r.model.lineCount, lspLines(text).length, 'lineCount');
  assert.deepEqual(checkDiagnostics(text, r.diagnostics), []);
  assert.deepEqual(checkModel(text, r.model), []);
}

const codes = (ds: readonly ContractDiagnostic[]): string[] => ds.map((d) => d.code);
const only = (ds: readonly ContractDiagnostic[], code: string): ContractDiagnostic[] => ds.filter((d) => d.code === code);

// ---------------------------------------------------------------------------------------------
// Files that are not contracts at all
// ---------------------------------------------------------------------------------------------

test('empty file: a free-form file with no diagnostics', () => {
  const r = lint('');
  assert.equal(r.model.kind, 'freeform');
  assert.deepEqual(r.diagnostics, []);
  assertSane('', r);
});

test('a file that is only `AGENTS.md` (a symlink blob): free-form, no diagnostics', () => {
  for (const text of ['AGENTS.md', 'AGENTS.md\n', '../AGENTS.md']) {
    const r = lint(text);
    assert.equal(r.model.kind, 'freeform');
    assert.deepEqual(r.diagnostics, []);
    assertSane(text, r);
  }
});

test('binary bytes: `file-not-text` from lintBytes, nothing else', async () => {
  const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0xfe]);
  const r = await createLanguageService().lintBytes(URI, bytes);
  assert.deepEqual(codes(r.diagnostics), ['file-not-text']);
});

test('10 MB of text: `file-too-large` from its size, not a character scanned or parsed', async () => {
  const bytes = new Uint8Array(10 * 1024 * 1024).fill(0x61);
  for (let i = 80; i < bytes.length; i += 81) bytes[i] = 0x0a;
  const before = { ...parseWork };
  const r = await createLanguageService().lintBytes(URI, bytes);
  assert.deepEqual(codes(r.diagnostics), ['file-too-large']);
  // Decided from the size: not a character scanned or parsed.
  assert.equal(parseWork.scannedChars - before.scannedChars, 0);
  assert.equal(parseWork.markdownChars - before.markdownChars, 0);
});

test('invalid UTF-8: `invalid-utf8` at the first bad byte (LSP position, UTF-16 characters)', async () => {
  const enc = new TextEncoder();
  // `- 中` is 3 UTF-16 characters; 0xC3 0x28 is an invalid two-byte sequence.
  const bytes = new Uint8Array([...enc.encode(`${FM}## BUDGETS\n\n- 中`), 0xc3, 0x28, 0x0a]);
  const r = await createLanguageService().lintBytes(URI, bytes);
  const bad = only(r.diagnostics, 'invalid-utf8');
  assert.equal(bad.length, 1);
  assert.deepEqual(bad[0]!.range, { start: { line: 8, character: 3 }, end: { line: 8, character: 4 } });
  // A lone continuation byte on the first line.
  const r2 = await createLanguageService().lintBytes(URI, new Uint8Array([0x61, 0x80, 0x62]));
  assert.deepEqual(only(r2.diagnostics, 'invalid-utf8').map((d) => d.range.start), [{ line: 0, character: 1 }]);
});

test('invalid UTF-8 after a real U+FFFD character: reported at the bad byte, not at the U+FFFD', async () => {
  const bytes = new Uint8Array([...new TextEncoder().encode('\uFFFD ok\n'), 0xff, 0x0a]);
  const r = await createLanguageService().lintBytes(URI, bytes);
  assert.deepEqual(only(r.diagnostics, 'invalid-utf8').map((d) => d.range.start), [{ line: 1, character: 0 }]);
});

// ---------------------------------------------------------------------------------------------
// Encodings and whitespace
// ---------------------------------------------------------------------------------------------

test('a BOM before front matter: front matter recognised, positions on line 0 shifted by one', () => {
  // A front matter that is a list (not a mapping) is reported on its first line.
  const body = '---\n- a\n- b\n---\n\n## AGENT_IDENTITY\n\n- **Name**: x\n\n## BUDGETS\n\n- **Max Steps**: 3\n';
  const plain = lint(body);
  const bom = lint(`\uFEFF${body}`);
  assertSane(`\uFEFF${body}`, bom);
  assert.ok(bom.model.sections[0]!.frontMatter, 'front matter recognised');
  assert.deepEqual(bom.model.sections[0]!.frontMatter!.range.start, { line: 0, character: 1 });
  const shift = (d: ContractDiagnostic) => {
    const p = (x: { line: number; character: number }) => (x.line === 0 ? { line: 0, character: x.character + 1 } : x);
    return { code: d.code, range: { start: p(d.range.start), end: p(d.range.end) } };
  };
  assert.ok(plain.diagnostics.some((d) => d.range.start.line === 0), 'the test needs a diagnostic on line 0');
  assert.deepEqual(bom.diagnostics.map((d) => ({ code: d.code, range: d.range })), plain.diagnostics.map(shift));

  // The same with a mapping front matter: its values are read.
  const fm = lint(`\uFEFF${FM}## AGENT_IDENTITY\n\n- **Name**: x\n`);
  assert.equal(fm.model.kind, 'contract');
  assert.equal(fm.model.data['name'], 'robust');
  assert.equal(fm.model.sections[0]!.frontMatter!.map.get('/name')!.key!.start.line, 2);
});

test('a BOM directly before an H2 on line 0: the title range is shifted by one', () => {
  const text = '\uFEFF## AGENT_IDENTITY\n\n- **Name**: x\n\n## BUDGETS\n';
  const m = parseContract(text);
  const s = m.sections.find((x) => x.title === 'AGENT_IDENTITY')!;
  assert.deepEqual(s.titleRange, { start: { line: 0, character: 4 }, end: { line: 0, character: 18 } });
});

test('CRLF line endings: the same diagnostics, ranges identical in line/character', () => {
  const lf = generateContract(400, 11);
  const crlf = lf.replace(/\n/g, '\r\n');
  const a = lint(lf);
  const b = lint(crlf);
  assertSane(crlf, b);
  assert.equal(b.model.kind, a.model.kind);
  assert.deepEqual(b.model.data, JSON.parse(JSON.stringify(a.model.data).replace(/\\n/g, '\\r\\n')));
  const lfLines = lspLines(lf);
  // Ranges are the same, except an end that sits past a line's last character (on its line end).
  const norm = (text: string[], p: { line: number; character: number }) => ({ line: p.line, character: Math.min(p.character, text[p.line]?.length ?? 0) });
  const view = (ds: ContractDiagnostic[]) => ds.map((d) => ({ code: d.code, start: norm(lfLines, d.range.start), end: norm(lfLines, d.range.end) }));
  assert.deepEqual(view(b.diagnostics), view(a.diagnostics));
});

test('CRLF: a YAML error at the end of a line is not placed between the CR and the LF', () => {
  // Found by the hunt below; fixed in LineIndex.positionAt (clamped to the line end).
  const text = '## TRIGGER\r\n```yaml\r\nkey: "unterminated\r\na: &a [1]\r\n  {"type": "object"}\r\n```\r\n';
  const r = lint(text);
  assertSane(text, r);
  assert.ok(only(r.diagnostics, 'yaml-syntax').length >= 1);
});

// Lone CRs are line ends for LSP and remark; the `yaml` package only splits at \n (fixed in yamlBlock.ts).
test('lone CR line endings (classic Mac): the same diagnostics as LF', () => {
  const lf = generateContract(400, 11);
  const cr = lf.replace(/\n/g, '\r');
  const a = lint(lf);
  const c = lint(cr);
  assertSane(cr, c);
  const view = (ds: ContractDiagnostic[]) => ds.map((d) => ({ code: d.code, range: d.range }));
  assert.deepEqual(view(c.diagnostics), view(a.diagnostics));
});

test('tabs: tab-indented bullets and nested lists are read', () => {
  const text = `${FM}## BUDGETS\n\n-\t**Max Steps**:\t3\n-\t**Token Budget**:\t100\n-\t**Tool Timeouts**:\n\t-\t\`check_inventory\`: 10s\n`;
  const r = lint(text);
  assertSane(text, r);
  const budgets = r.model.data['budgets'] as Record<string, unknown>;
  assert.equal(budgets['max_steps'], 3);
  assert.equal(budgets['token_budget'], 100);
});

// ---------------------------------------------------------------------------------------------
// Broken structure
// ---------------------------------------------------------------------------------------------

test('an unclosed fence: `unclosed-fence` at the fence line', () => {
  const text = `${FM}## TRIGGER\n\n~~~~yaml\nintent_patterns: [a]\n\`\`\`\n\n## TOOLS\n`;
  const r = lint(text);
  assertSane(text, r);
  const d = only(r.diagnostics, 'unclosed-fence');
  assert.equal(d.length, 1);
  assert.equal(d[0]!.range.start.line, 8);
  assert.equal(r.model.sections.filter((s) => s.kind === 'section').length, 1, 'the H2 inside the unclosed fence is code');
});

test('invalid YAML in front matter: `yaml-syntax` on the bad line', () => {
  const text = '---\ncontract: true\nname: a: b\nversion: 1.0.0\n---\n\n## BUDGETS\n\n- **Max Steps**: 3\n';
  const r = lint(text);
  assertSane(text, r);
  const d = only(r.diagnostics, 'yaml-syntax');
  assert.ok(d.length >= 1);
  assert.equal(d[0]!.range.start.line, 2);
});

test('invalid YAML in a fenced block (top level and inside a list item): `yaml-syntax` on the bad line', () => {
  const top = `${FM}## TRIGGER\n\n\`\`\`yaml\nintent_patterns:\n  - a\nrequired_entities: a: b\n\`\`\`\n`;
  const r = lint(top);
  assertSane(top, r);
  assert.deepEqual(only(r.diagnostics, 'yaml-syntax').map((d) => d.range.start.line), [11]);
  const nested = `${FM}## TOOLS\n\n### get_x\n\n- **Input Schema**:\n  \`\`\`yaml\n  type: object\n  properties: a: b\n  \`\`\`\n`;
  const r2 = lint(nested);
  assertSane(nested, r2);
  assert.deepEqual(only(r2.diagnostics, 'yaml-syntax').map((d) => d.range.start), [{ line: 13, character: 14 }]);
});

test('duplicate sections: `duplicate-section` on the second, related to the first', () => {
  const text = `${FM}## BUDGETS\n\n- **Max Steps**: 3\n\n## Budgets\n\n- **Max Steps**: 4\n`;
  const r = lint(text);
  assertSane(text, r);
  const d = only(r.diagnostics, 'duplicate-section');
  assert.equal(d.length, 1);
  assert.equal(d[0]!.range.start.line, 10);
  assert.equal(d[0]!.related?.[0]?.range.start.line, 6);
  assert.equal((r.model.data['budgets'] as Record<string, unknown>)['max_steps'], 3, 'the first one is used');
});

test('duplicate bullet labels: `duplicate-key` on the second', () => {
  const text = `${FM}## BUDGETS\n\n- **Max Steps**: 3\n- **Max Steps**: 4\n`;
  const r = lint(text);
  assertSane(text, r);
  const d = only(r.diagnostics, 'duplicate-key');
  assert.equal(d.length, 1);
  assert.equal(d[0]!.range.start.line, 9);
  assert.match(d[0]!.message, /Max Steps/);
});

test('duplicate YAML keys: `duplicate-key` on the second key', () => {
  const text = `${FM}## TRIGGER\n\n\`\`\`yaml\nintent_patterns: [a]\nintent_patterns: [b]\n\`\`\`\n`;
  const r = lint(text);
  const d = only(r.diagnostics, 'duplicate-key');
  assert.equal(d.length, 1);
  assert.equal(d[0]!.range.start.line, 10);
});

test('duplicate YAML keys: the message names the key', () => {
  const text = `${FM}## TRIGGER\n\n\`\`\`yaml\nintent_patterns: [a]\nintent_patterns: [b]\n\`\`\`\n`;
  const r = lint(text);
  assertSane(text, r);
  assert.match(only(r.diagnostics, 'duplicate-key')[0]!.message, /intent_patterns/);
});

test('ragged tables: `table-shape` on each short or long row', () => {
  const text = `${FM}## HUMAN_IN_THE_LOOP\n\n| Scenario | Trigger Condition | Required Action | SLA |\n|---|---|---|---|\n| a | b | c |\n| d | e | f | 4h | extra |\n| g | h | i | 2h |\n`;
  const r = lint(text);
  assertSane(text, r);
  assert.deepEqual(only(r.diagnostics, 'table-shape').map((d) => d.range.start.line), [10, 11]);
});

test('escaped pipes in table cells and in inline code in cells', () => {
  const text = `${FM}## HUMAN_IN_THE_LOOP\n\n| Scenario | Trigger Condition | Required Action | SLA |\n|---|---|---|---|\n| read \\| write | \`x \\| y\` | \`grep 'a\\|b'\` | 4h |\n`;
  const r = lint(text);
  assertSane(text, r);
  assert.deepEqual(only(r.diagnostics, 'table-shape'), []);
  const rows = r.model.data['human_in_the_loop'] as Record<string, unknown>[];
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!['scenario'], 'read | write');
  assert.equal(rows[0]!['trigger_condition'], 'x | y');
  assert.equal(rows[0]!['sla'], '4h');
  const map = r.model.sections.find((s) => s.spec?.key === 'human_in_the_loop')!.map;
  assert.deepEqual(map.get('/0/scenario')!.value, { start: { line: 10, character: 2 }, end: { line: 10, character: 15 } });
});

// ---------------------------------------------------------------------------------------------
// Hostile input
// ---------------------------------------------------------------------------------------------

const BILLION_LAUGHS = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
  'h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]',
  'i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]',
].join('\n');

// 9⁹ = 387,420,489 nodes expanded; the conversion stops at MAX_NODES (without that bound, minutes and gigabytes).
// The ceiling leaves room for the front matter's few nodes (not counted when an earlier test cached it).
const BOMB_CEILING = { yamlNodes: MAX_NODES + 100 };
const spentBudget = (w: Work): boolean => w.yamlNodes >= MAX_NODES && w.yamlNodes <= MAX_NODES + 100;

test('a YAML alias bomb in a fenced block: at most MAX_NODES nodes converted, `yaml-syntax`', () => {
  const text = `${FM}## TRIGGER\n\n\`\`\`yaml\n${BILLION_LAUGHS}\n\`\`\`\n`;
  const r = lintBounded(text, BOMB_CEILING);
  assertSane(text, r);
  assert.ok(spentBudget(r.work), `the budget is spent, not more: ${r.work.yamlNodes}`);
  assert.ok(only(r.diagnostics, 'yaml-syntax').length >= 1);
});

test('an unresolved alias in a json block is one JSON syntax error, in JSON’s words (found by the property below)', () => {
  const text = '## HUMAN_IN_THE_LOOP\n```json\nb: *zz';
  const r = lint(text);
  assertSane(text, r);
  assert.deepEqual(only(r.diagnostics, 'json-syntax').map((d) => d.message), ['Invalid JSON: unexpected character here (names and strings take double quotes).']);
});

test('a YAML alias bomb in front matter: at most MAX_NODES nodes converted', () => {
  // Not the text of the block above: parsed blocks are cached by text, and a cached block costs nothing.
  const text = `---\n# front matter\n${BILLION_LAUGHS}\n---\n\n## BUDGETS\n`;
  const r = lintBounded(text, BOMB_CEILING);
  assertSane(text, r);
  assert.ok(spentBudget(r.work), `the budget is spent, not more: ${r.work.yamlNodes}`);
});

test('a YAML alias bomb after 2,000 or 4,000 ordinary keys: each alias costs the anchors, not the document', () => {
  // The yaml package walks the whole document to resolve one alias: 2,000 keys × 200,000 aliases.
  const bomb = (keys: number): Work => {
    const pad = Array.from({ length: keys }, (_, i) => `p${i}: ${i}`).join('\n');
    const text = `${FM}## TRIGGER\n\n\`\`\`yaml\n${pad}\n${BILLION_LAUGHS}\n\`\`\`\n`;
    return lintBounded(text, BOMB_CEILING).work;
  };
  const small = bomb(2000);
  assert.ok(small.yamlAliases > 1000, `aliases resolved by the anchor list: ${small.yamlAliases}`);
  assert.ok(small.yamlAnchorChecks <= 9 * small.yamlAliases, 'nine anchors compared per alias at most');
  const large = bomb(4000);
  assert.ok(large.yamlAnchorChecks <= small.yamlAnchorChecks, `twice the keys, no more work per alias: ${small.yamlAnchorChecks} → ${large.yamlAnchorChecks}`);
});

/** Ceiling on remark's input: the document but `skipped`, which must not reach remark. */
const remarkOutside = (text: string, skipped: string): Partial<Work> => ({ markdownChars: text.length - skipped.length });

test('deeply nested block quotes (5,000 levels of `>`): reported as too complex, not given to remark, no exception', () => {
  const hostile = `${'>'.repeat(5000)} x\n`;
  const text = `${FM}## TOOLS\n\n${hostile}`;
  const r = lintBounded(text, remarkOutside(text, hostile));
  assertSane(text, r);
  assert.ok(r.diagnostics.some((d) => d.code === 'content-too-complex'));
});

test(
  'deeply nested lists (5,000 levels of `-`): reported as too complex (remark would take ~22 s, then overflow its stack), not given to remark',
  () => {
    const hostile = `${'- '.repeat(5000)}x\n`;
    const text = `${FM}## TOOLS\n\n${hostile}`;
    const r = lintBounded(text, remarkOutside(text, hostile));
    assertSane(text, r);
    assert.ok(r.diagnostics.some((d) => d.code === 'content-too-complex'));
  },
);

test('nested lists and quotes (1,000 levels on one line, 200 levels by indentation): read without exception, each character given to remark once at most', () => {
  for (const text of [`${FM}## TOOLS\n\n${'- '.repeat(1000)}x\n`, `${FM}## TOOLS\n\n${'>'.repeat(1000)} x\n`, `${FM}## TOOLS\n\n${Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}- x`).join('\n')}\n`]) {
    const r = lintBounded(text, { markdownChars: text.length, scannedChars: text.length });
    assertSane(text, r);
  }
});

test('the scanner\'s table-delimiter pattern cannot backtrack super-linearly (recheck\'s automaton checker, no time limit)', () => {
  // The pattern before (a delimiter-like line with 300,000 spaces took a minute) is found vulnerable, so the check can tell.
  const before = String.raw`^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$`;
  const check = (source: string): { status: string; complexity?: { type: string } } => checkSync(source, '', { checker: 'automaton', timeout: null });
  assert.equal(check(before).status, 'vulnerable');
  const now = check(TABLE_DELIMITER.source);
  assert.deepEqual([now.status, now.complexity?.type], ['safe', 'linear']);
});

test('a line that starts like a table delimiter row and runs on in 300,000 spaces: reported as too long, no hang', () => {
  // The scanner's delimiter pattern backtracked quadratically on it (about a minute for this line).
  const text = `${FM}## USER_STORIES\n\nA paragraph\n|-${' '.repeat(300_000)}x\n\n## BUDGETS\n\n- **Max Steps**: 3\n`;
  const r = lintBounded(text, { markdownChars: text.length - 300_000, scannedChars: text.length });
  assertSane(text, r);
  assert.ok(r.diagnostics.some((d) => d.code === 'content-too-complex'));
  assert.equal((r.model.data['budgets'] as Record<string, unknown>)['max_steps'], 3);
});

test('a clean contract with one section not analysed: that warning alone, no cross-section check guessing at its content (tester)', () => {
  const clean = readFileSync(new URL('./corpus/clean/fleet-maintenance.agents.md', import.meta.url), 'utf8');
  assert.deepEqual(lint(clean).diagnostics.map((d) => d.code), [], 'the corpus contract is clean');
  // A 30,000-character line in FAILURE_PROTOCOL: HUMAN_IN_THE_LOOP's fallbacks there cannot be read.
  const text = clean.replace(/^## FAILURE_PROTOCOL.*$/m, (h) => `${h}\n\n${'x'.repeat(30_000)}\n`);
  assert.notEqual(text, clean);
  const r = lint(text);
  assertSane(text, r);
  assert.deepEqual(r.diagnostics.map((d) => d.code), ['content-too-complex'], 'not missing-section, not hitl-needs-fallback');
});

test('front matter too complex to analyse is reported as that, not as a front matter never closed (tester)', () => {
  const clean = readFileSync(new URL('./corpus/clean/fleet-maintenance.agents.md', import.meta.url), 'utf8');
  assert.match(clean, /^---\n/);
  for (const line of [`x: ${'['.repeat(200_000)}${']'.repeat(200_000)}`, `x: ${'['.repeat(2_000)}${']'.repeat(2_000)}`]) {
    const text = clean.replace(/^---\n/, `---\n${line}\n`);
    const r = lint(text);
    assertSane(text, r);
    const codes = r.diagnostics.map((d) => d.code);
    assert.ok(codes.includes('content-too-complex'), codes.join(', '));
    assert.ok(!codes.includes('yaml-syntax'), `the front matter is closed: ${codes.join(', ')}`);
    // Never closed as well: both said (tester20).
    const unclosed = text.replace(/^---\n(?:(?!---\n)[\s\S])*?---\n/, (fm) => fm.slice(0, -4));
    assert.notEqual(unclosed, text);
    const u = lint(unclosed).diagnostics.map((d) => d.code);
    assert.ok(u.includes('content-too-complex') && u.includes('yaml-syntax'), u.join(', '));
  }
  // A partial contract (contract: true in a front matter not analysed): the warning is kept (tester20).
  const partial = `---\ncontract: true\nname: fmclosed\nversion: 1.0.0\nx: ${'['.repeat(3_000)}${']'.repeat(3_000)}\n---\n\n# FmClosed\n\n## AGENT_IDENTITY\n\n- **Name**: \`FmClosed\`\n- **Core Mandate**: "Answer questions."\n`;
  const p = lint(partial).diagnostics.map((d) => d.code);
  assert.ok(p.includes('content-too-complex'), p.join(', '));
});

test('a 19,000-character single line of prose is analysed; a 200,000-character one is reported and skipped', () => {
  const words = ['approval', 'budget', '**vendor**', '`tool_x`', 'https://example.com/a', '供应商', '😀', 'a_b', 'x.', 'and'];
  let line = '';
  for (let i = 0; line.length < 19_000; i++) line += `${words[i % words.length]} `;
  const long = `${FM}## USER_STORIES\n\n- ${line}\n`;
  const ok = lint(long);
  assertSane(long, ok);
  assert.equal((ok.model.data['user_stories'] as unknown[]).length, 1);
  while (line.length < 200_000) line += line;
  const text = `${FM}## USER_STORIES\n\n- ${line}\n\n## BUDGETS\n\n- **Max Steps**: 3\n`;
  const r = lintBounded(text, remarkOutside(text, line));
  assertSane(text, r);
  assert.ok(r.diagnostics.some((d) => d.code === 'content-too-complex'));
  assert.equal((r.model.data['budgets'] as Record<string, unknown>)['max_steps'], 3);
});

test(
  'a 200,000-character single line that remark parses in quadratic time: the section is skipped, the rest analysed',
  () => {
    const hostile = 'a|`b` '.repeat(33_000);
    assert.ok(hostile.length > MAX_LINE_LENGTH);
    const text = `${FM}## USER_STORIES\n\n${hostile}\n\n## BUDGETS\n\n- **Max Steps**: 3\n`;
    const r = lintBounded(text, remarkOutside(text, hostile));
    assertSane(text, r);
    assert.ok(r.diagnostics.some((d) => d.code === 'content-too-complex'));
    assert.equal((r.model.data['budgets'] as Record<string, unknown>)['max_steps'], 3);
  },
);

test(
  'a large JSON list in a fenced block (20,000 items on 20,000 lines)',
  () => {
    const json = JSON.stringify(Array.from({ length: 20000 }, (_, i) => ({ k: i })), null, 0).replace(/},/g, '},\n');
    const text = `${FM}## USER_STORIES\n\n\`\`\`json\n${json}\n\`\`\`\n`;
    // The fence is read without remark, its text parsed once, each of its 40,001 nodes converted once.
    const r = lintBounded(text, { markdownChars: text.length - json.length, yamlChars: json.length, yamlNodes: 40_001 });
    assert.equal(r.work.yamlNodes, 40_001);
  },
);

test('emoji and CJK in headings: sections recognised, title ranges in UTF-16 characters', () => {
  const text = `${FM}## 🤖 智能体身份\n\n- **名称**: 😀 bot\n\n## 1. 预算 🧮\n\n- **最大步数**: 5\n`;
  const r = lint(text);
  assertSane(text, r);
  const identity = r.model.sections.find((s) => s.spec?.key === 'identity');
  assert.ok(identity, 'identity recognised');
  assert.deepEqual(identity.titleRange, { start: { line: 6, character: 3 }, end: { line: 6, character: 11 } });
  assert.equal((r.model.data['identity'] as Record<string, unknown>)['name'], '😀 bot');
  assert.equal((r.model.data['budgets'] as Record<string, unknown>)['max_steps'], 5);
});

test('setext H2 headings are sections', () => {
  const text = `${FM}AGENT_IDENTITY\n--------------\n\n- **Name**: x\n\nBudgets\n---\n\n- **Max Steps**: 3\n`;
  const r = lint(text);
  assertSane(text, r);
  assert.deepEqual(
    r.model.sections.filter((s) => s.kind === 'section').map((s) => [s.spec?.key, s.startLine, s.titleRange?.start.line]),
    [
      ['identity', 6, 6],
      ['budgets', 11, 11],
    ],
  );
  assert.equal((r.model.data['budgets'] as Record<string, unknown>)['max_steps'], 3);
});

// ---------------------------------------------------------------------------------------------
// Property: arbitrary strings and mutated contracts
// ---------------------------------------------------------------------------------------------

const NASTY = ['|', '`', '```', '#', '## ', '---', '{{', '}}', '\r', '\n', '\r\n', '\t', '\uFEFF', '\uD800', '\uDC00', '\uDBFF\uDFFF', '\u0000', '>', '- ', '**', '\\', '<!--', '-->', '<div>', ':', '：', '→', '&a ', '*a', '😀', '中', '\u200D', '\u2028'];

const arbitraryText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.array(fc.oneof(fc.constantFrom(...NASTY), fc.string({ maxLength: 8 })), { maxLength: 80 }).map((xs) => xs.join('')),
);

const mutatedContract = fc
  .record({
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    lines: fc.integer({ min: 0, max: 120 }),
    insertions: fc.array(fc.record({ at: fc.nat(), s: fc.constantFrom(...NASTY) }), { minLength: 1, maxLength: 12 }),
  })
  .map(({ seed, lines, insertions }) => {
    let t = generateContract(lines, seed);
    for (const { at, s } of insertions) {
      const i = at % (t.length + 1);
      t = t.slice(0, i) + s + t.slice(i);
    }
    return t;
  });

/** Lines that make structure (headings, fences, tables, labelled bullets, YAML), shuffled, with any line end. */
const SOUP_LINES = [
  '', '## TOOLS', '## BUDGETS', '## HUMAN_IN_THE_LOOP', '## TRIGGER', '## FAILURE_PROTOCOL', '## AGENT_IDENTITY', '## OUTPUT_SCHEMA', '### tool_a', '### `pool_b`',
  'TOOLS', '---', '===', '```', '```yaml', '```json', '~~~', '  ```yaml', '    ```', '| Scenario | Trigger Condition | Required Action | SLA |', '|---|---|---|---|',
  '| a | b | c | 4h |', '| a \\| b | `x \\| y` |', '|', '- **Max Steps**: 7', '- **Name**: x', '- **If x fails**: → Halt → Return error_code `E001`', '  - **Scenario**: a',
  '- **Input Schema**:', '  ```json', '  {"type": "object"}', 'type: object', 'intent_patterns: [a, "(b"]', '- pool: x', '      value: "{{extracted_x[:3]}}"', 'value: {{x}}',
  '<!--', '-->', '<!-- agents-md-disable-next-line -->', '<div>', '> ## q', '- ## l', '\t## t', 'contract: true', 'version: 1.0.0', 'a: &a [1]', 'b: *zz', 'key: "unterminated',
  '中文 **标签**：值', '- **Hard Boundaries**:', '  - ❌ Never use `tool_a`',
];
const soup = fc
  .record({ lines: fc.array(fc.constantFrom(...SOUP_LINES), { maxLength: 50 }), eol: fc.constantFrom('\n', '\r\n', '\r'), bom: fc.boolean(), fm: fc.boolean() })
  .map(({ lines, eol, bom, fm }) => (bom ? '\uFEFF' : '') + [...(fm ? ['---', 'contract: true', '---'] : []), ...lines].join(eol));

test('property: parse and validate never throw, bound their work, and every range lies inside the document', () => {
  fc.assert(
    fc.property(fc.oneof(arbitraryText, mutatedContract, soup), (text) => {
      // Each character scanned once and given to remark once at most; YAML expansions within their budget.
      const r = lintBounded(text, { scannedChars: text.length, markdownChars: text.length, yamlChars: text.length, yamlNodes: MAX_NODES });
      assert.equal(r.model.lineCount, lspLines(text).length, 'lineCount');
      assert.deepEqual(checkDiagnostics(text, r.diagnostics), []);
      assert.deepEqual(checkModel(text, r.model), []);
    }),
    { numRuns: RUNS(300) },
  );
});

test('a UTF-16LE file with a BOM (PowerShell 5) is read, with a note to re-save it as UTF-8', async () => {
  const text = `${FM}## BUDGETS\n\n- **Max Steps**: twenty\n`;
  const bytes = new Uint8Array([0xff, 0xfe, ...new Uint8Array(new Uint16Array([...text].map((c) => c.charCodeAt(0))).buffer)]);
  const r = await createLanguageService().lintBytes('file:///u.agents.md', bytes);
  assert.ok(r.diagnostics.some((d) => d.code === 'invalid-utf8' && /UTF-16/.test(d.message)));
  assert.ok(r.diagnostics.some((d) => d.code === 'schema' && d.range.start.line === 8), r.diagnostics.map((d) => `${d.code}@${d.range.start.line}`).join(', '));
});

test('the workspace caches are bounded: past their size, the least recently used contract is read again', async () => {
  const reads: string[] = [];
  const fs: FileSystem = {
    readFile: async (uri) => (reads.push(uri), new TextEncoder().encode('---\ncontract: true\nname: x\n---\n')),
    stat: async () => ({ type: 'file', size: 30 }),
    findFiles: async () => [],
  };
  const uris = ['file:///w/a.md', 'file:///w/b.md', 'file:///w/c.md'];
  const bounded = new Workspace({ fs, roots: ['file:///w'], cacheSize: 2 });
  for (const u of [...uris, uris[0]!]) await bounded.summaryOf(u);
  assert.deepEqual(reads, [...uris, uris[0]], 'a.md was evicted by c.md and read again');
  reads.length = 0;
  const large = new Workspace({ fs, roots: ['file:///w'] });
  for (const u of [...uris, uris[0]!]) await large.summaryOf(u);
  assert.deepEqual(reads, uris, 'within the default size every contract is read once');
});

test('a workspace of 4,200 contracts (more than the other caches hold): linting two contracts reads each other contract once', async () => {
  // Each lint reads every other contract's summary in the same order: an LRU cache smaller than the
  // workspace missed on every read, and each lint parsed the whole workspace again (5,000 contracts: a pass never ended).
  const n = WORKSPACE_CACHE_SIZE + 104;
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`file:///w/c${i}/AGENTS.md`] = `---\ncontract: true\nname: agent-${i}\nversion: 1.0.0\n---\n`;
  const base = memoryFs(files);
  const reads = new Map<string, number>();
  const fs: FileSystem = { ...base, readFile: (uri) => (reads.set(uri, (reads.get(uri) ?? 0) + 1), base.readFile(uri)) };
  const ws = new Workspace({ fs, roots: ['file:///w'] });
  for (const uri of ['file:///w/c0/AGENTS.md', 'file:///w/c1/AGENTS.md']) await ws.facts(uri, parseContract(files[uri]!), false);
  assert.equal(reads.size, n);
  assert.equal([...reads.values()].filter((k) => k > 1).length, 0, 'no contract read twice');
  assert.ok(SUMMARY_CACHE_SIZE >= WALK_LIMITS.files, 'every contract a walk lists fits');
});

test('a 2,000-row table with code spans in every row is read (markers counted per row); many markers in one row, or lines of markers under a delimiter that makes no table, are still refused', () => {
  const rows = Array.from({ length: 2000 }, (_, i) => `| scenario_${i} | \`amount > ${1000 + i}\` | Finance approves the \\| split | ${1 + (i % 48)}h | reject |`);
  const table = `${FM}## HUMAN_IN_THE_LOOP\n\n| Scenario | Trigger Condition | Required Action | SLA | On Timeout |\n|---|---|---|---|---|\n${rows.join('\n')}\n`;
  const ok = lint(table);
  assertSane(table, ok);
  assert.ok(!ok.diagnostics.some((d) => d.code === 'content-too-complex'), 'a long table of ordinary rows is not "too complex"');
  assert.equal((ok.model.data['human_in_the_loop'] as unknown[]).length, 2000);
  // One row with 3,000 emphasis markers: its cell alone would be parsed in quadratic time.
  const heavy = `${FM}## HUMAN_IN_THE_LOOP\n\n| Scenario | SLA |\n|---|---|\n| ${'*a_'.repeat(1500)} | 4h |\n`;
  assert.ok(lint(heavy).diagnostics.some((d) => d.code === 'content-too-complex'));
  // `a | b` over `---` is a heading, not a table (one cell against two): the lines below are one paragraph.
  const fake = `${FM}## USER_STORIES\n\na | b\n---\n${Array.from({ length: 800 }, () => '| *a_ *a_ |').join('\n')}\n`;
  assert.ok(lint(fake).diagnostics.some((d) => d.code === 'content-too-complex'));
});
