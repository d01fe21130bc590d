// Property tests of the incremental edit path (docs/performance.md):
//  1. for generated contracts and random edits (lines or characters inserted, deleted or replaced
//     anywhere, including inside fences, tables and front matter, and edits that add or remove
//     H2 headings, setext underlines or fence markers), the model built incrementally,
//     `parseContract(edited, previous)`, equals the model built from scratch, `parseContract(edited)`,
//     and so do the validation diagnostics;
//  2. on generated (realistic) contracts the section boundaries found by the line scanner are the
//     top-level depth-2 headings (ATX and setext) that remark finds in the whole text.
// Constructs where the scanner differs from CommonMark on purpose are tested (and documented) at the end.
// Run: node --import tsx --test test/incremental.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Root, Table } from 'mdast';
import { createLanguageService, parseContract, validateContract, type ParsedContract } from '../server/src/service/index.ts';
import { scanSections } from '../server/src/service/parse/scanSections.ts';
import { parseMarkdown } from '../server/src/service/parse/markdown.ts';
import { parseWork } from '../server/src/service/parse/work.ts';
import { blockPool, parseBlocks } from '../server/src/service/parse/blocks.ts';
import { fencedBlock } from '../server/src/service/parse/fencedBlock.ts';
import { tableAt, tableByRows } from '../server/src/service/parse/tableRows.ts';
import { LineIndex } from '../server/src/service/text/lineIndex.ts';
import { generateContract } from '../bench/generate.ts';
import { RUNS } from './helpers/properties.ts';

/** Everything observable in a model except the remark trees (relative to each slice) and spec objects. */
function snapshot(m: ParsedContract): unknown {
  const entries = (map: ReadonlyMap<string, unknown>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    text: m.text,
    lineCount: m.lineCount,
    kind: m.kind,
    data: m.data,
    findings: m.findings,
    owners: [...m.owners.entries()].map(([k, s]) => [k, s.kind, s.startLine]),
    sections: m.sections.map((s) => ({
      kind: s.kind,
      startLine: s.startLine,
      endLine: s.endLine,
      text: s.text,
      bom: s.bom,
      title: s.title,
      titleRange: s.titleRange,
      range: s.range,
      spec: s.spec?.key,
      value: s.value,
      map: entries(s.map),
      frontMatter: s.frontMatter ? { value: s.frontMatter.value, map: entries(s.frontMatter.map), range: s.frontMatter.range } : undefined,
      findings: s.findings,
      headings: s.headings,
      prose: s.prose,
      comments: s.comments,
      fences: s.fences,
    })),
  };
}

function diagnostics(m: ParsedContract): unknown {
  return validateContract(m).map((d) => ({ code: d.code, severity: d.severity, range: d.range, message: d.message, related: d.related }));
}

// ---------------------------------------------------------------------------------------------
// Edits
// ---------------------------------------------------------------------------------------------

/** Lines that change the block structure when inserted, deleted or typed over. */
const STRUCTURAL_LINES = [
  '',
  '## TOOLS',
  '## BUDGETS',
  '## New Section',
  '##',
  '## AGENT_IDENTITY',
  '# Title',
  '### check_inventory_1',
  'TOOLS',
  'Budgets',
  '---',
  '-',
  '===',
  '***',
  '...',
  '```',
  '```yaml',
  '````',
  '~~~',
  '  ```',
  '    ```json',
  '   ~~~',
  '1. step',
  '- item',
  '| Scenario | Trigger Condition | Required Action | SLA |',
  '|---|---|---|---|',
  '| a | b |',
  '- **Max Steps**: 7',
  '- **Name**: x',
  '  - nested',
  '<!--',
  '-->',
  '<!-- agents-md-disable -->',
  '<div>',
  '</div>',
  '<pre>',
  '</pre>',
  '> ## quoted',
  '- ## in a list',
  '    indented code',
  '\t## tab',
  'intent_patterns: [a, b]',
  'key: [unclosed',
  '  - pool: x',
  '\uFEFF---',
  'contract: true',
  'Para\r',
];

const CHARS = ['|', '`', '#', '-', '\n', '\r', '\r\n', ' ', '\t', '>', '*', ':', 'a', '中', '\\', '{', '}', '~', '<', '=', '_', '\uFEFF', '\uD800', '😀'];

type Edit =
  | { kind: 'insertLine' | 'replaceLine'; at: number; content: string }
  | { kind: 'deleteLine'; at: number }
  | { kind: 'insertText'; at: number; content: string }
  | { kind: 'deleteText'; at: number; length: number }
  | { kind: 'replaceText'; at: number; length: number; content: string }
  | { kind: 'targeted'; target: 'fence' | 'table' | 'heading' | 'frontMatter' | 'setext'; pick: number; op: 'delete' | 'duplicate' | 'underline' | 'typeChar'; content: string };

const lineContent = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...STRUCTURAL_LINES) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
const textContent = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...CHARS) }, { weight: 1, arbitrary: fc.constantFrom(...STRUCTURAL_LINES).map((l) => `${l}\n`) }, { weight: 1, arbitrary: fc.string({ maxLength: 6, unit: 'grapheme' }) });

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constantFrom('insertLine' as const, 'replaceLine' as const), at: fc.nat(), content: lineContent }),
  fc.record({ kind: fc.constant('deleteLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insertText' as const), at: fc.nat(), content: textContent }),
  fc.record({ kind: fc.constant('deleteText' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('replaceText' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 3 }), content: textContent }),
  fc.record({
    kind: fc.constant('targeted' as const),
    target: fc.constantFrom('fence' as const, 'table' as const, 'heading' as const, 'frontMatter' as const, 'setext' as const),
    pick: fc.nat(),
    op: fc.constantFrom('delete' as const, 'duplicate' as const, 'underline' as const, 'typeChar' as const),
    content: fc.constantFrom(...CHARS),
  }),
);

const TARGETS: Record<string, RegExp> = {
  fence: /^\s*(```|~~~)/,
  table: /^\|/,
  heading: /^#{1,3} /,
  frontMatter: /^(---|[a-z_]+:)/,
  setext: /^[A-Za-z][^|]*$/,
};

function applyEdit(text: string, e: Edit): string {
  const lines = text.split('\n');
  const lineAt = (n: number) => n % (lines.length + 1);
  switch (e.kind) {
    case 'insertLine':
      lines.splice(lineAt(e.at), 0, e.content);
      return lines.join('\n');
    case 'replaceLine':
      lines.splice(e.at % lines.length, 1, e.content);
      return lines.join('\n');
    case 'deleteLine':
      lines.splice(e.at % lines.length, 1);
      return lines.join('\n');
    case 'insertText': {
      const at = e.at % (text.length + 1);
      return text.slice(0, at) + e.content + text.slice(at);
    }
    case 'deleteText': {
      const at = e.at % (text.length + 1);
      return text.slice(0, at) + text.slice(at + e.length);
    }
    case 'replaceText': {
      const at = e.at % (text.length + 1);
      return text.slice(0, at) + e.content + text.slice(at + e.length);
    }
    case 'targeted': {
      const candidates = lines.flatMap((l, i) => (TARGETS[e.target]!.test(l) ? [i] : []));
      if (candidates.length === 0) return text;
      const i = candidates[e.pick % candidates.length]!;
      const line = lines[i]!;
      if (e.op === 'delete') lines.splice(i, 1);
      else if (e.op === 'duplicate') lines.splice(i, 0, line);
      else if (e.op === 'underline') lines.splice(i + 1, 0, '---');
      else lines[i] = line.slice(0, e.pick % (line.length + 1)) + e.content + line.slice(e.pick % (line.length + 1));
      return lines.join('\n');
    }
  }
}

const contractArb = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  lines: fc.integer({ min: 0, max: 160 }),
  crlf: fc.boolean(),
  bom: fc.boolean(),
});

function contractOf(c: { seed: number; lines: number; crlf: boolean; bom: boolean }): string {
  let t = generateContract(c.lines, c.seed);
  if (c.crlf) t = t.replace(/\n/g, '\r\n');
  return c.bom ? `\uFEFF${t}` : t;
}

// ---------------------------------------------------------------------------------------------
// Property 1: incremental = from scratch
// ---------------------------------------------------------------------------------------------

test('a model built incrementally after random edits equals the model built from scratch', () => {
  fc.assert(
    fc.property(contractArb, fc.array(editArb, { minLength: 1, maxLength: 3 }), (c, edits) => {
      let text = contractOf(c);
      let previous = parseContract(text);
      for (const e of edits) {
        text = applyEdit(text, e);
        const incremental = parseContract(text, previous);
        const scratch = parseContract(text);
        assert.deepStrictEqual(snapshot(incremental), snapshot(scratch));
        assert.deepStrictEqual(diagnostics(incremental), diagnostics(scratch));
        previous = incremental; // chain: the next edit reuses the incremental model
      }
    }),
    { numRuns: RUNS(70) },
  );
});

test('the scan of an edited version, resumed from the last version\'s around the change, equals a scan from scratch', () => {
  let resumed = 0;
  fc.assert(
    fc.property(contractArb, fc.array(editArb, { minLength: 1, maxLength: 4 }), (c, edits) => {
      let text = contractOf(c).replace(/^\uFEFF/, '');
      let previous = scanSections(text);
      for (const e of edits) {
        text = applyEdit(text, e).replace(/^\uFEFF/, '');
        const before = parseWork.scannedChars;
        const again = scanSections(text, undefined, previous);
        if (parseWork.scannedChars - before < text.length) resumed++;
        assert.deepStrictEqual(again, scanSections(text));
        previous = again;
      }
    }),
    { numRuns: RUNS(300) },
  );
  // Most edits scan a few lines: the property is about resumed scans, not full ones.
  assert.ok(resumed > RUNS(300) / 2, `resumed scans: ${resumed}`);
});

test('a parse or validation in steps abandoned half way (the document was edited) leaves the next version equal to a fresh one', () => {
  fc.assert(
    fc.property(contractArb, fc.array(fc.tuple(editArb, fc.nat(12), fc.nat(40)), { minLength: 1, maxLength: 3 }), (c, edits) => {
      const service = createLanguageService();
      const uri = 'file:///w/AGENTS.md';
      let text = contractOf(c);
      for (const [e, parseSteps, ruleSteps] of edits) {
        // The analysis of this version stops after some sections, or after some rules.
        const parsing = service.parseSteps(uri, text);
        let r = parsing.next();
        for (let i = 0; i < parseSteps && !r.done; i++) r = parsing.next();
        if (r.done) {
          const validating = service.validateSteps(r.value);
          for (let i = 0; i < ruleSteps && !validating.next().done; i++);
          validating.return([]);
        } else parsing.return(parseContract(''));
        text = applyEdit(text, e);
        const next = service.parse(uri, text);
        const scratch = parseContract(text);
        assert.deepStrictEqual(snapshot(next), snapshot(scratch));
        assert.deepStrictEqual(service.validate(next), validateContract(scratch));
      }
    }),
    { numRuns: RUNS(40) },
  );
});

test('incremental parsing: a one-line edit reuses every section it did not touch', () => {
  const text = generateContract(600, 3);
  const previous = parseContract(text);
  const lines = text.split('\n');
  const target = previous.sections[Math.floor(previous.sections.length / 2)]!;
  const at = target.startLine + 2;
  lines.splice(at, 0, 'A new line of prose.');
  const edited = parseContract(lines.join('\n'), previous);
  for (const s of edited.sections) {
    const old = previous.sections.find((p) => p.text === s.text && p.kind === s.kind);
    if (s.startLine <= at && s.endLine > at) assert.equal(old, undefined, 'the edited section is re-parsed');
    else {
      assert.ok(old, `section at ${s.startLine} is reused`);
      assert.equal(s.blocks, old.blocks, 'its remark trees are the same objects');
    }
  }
  assert.deepStrictEqual(snapshot(edited), snapshot(parseContract(lines.join('\n'))));
});

/** Line of the first `### ` heading at or after line `from` (an H3 item of TOOLS or MEMORY_POOLS). */
const h3After = (lines: readonly string[], from: number): number => lines.findIndex((l, i) => i >= from && l.startsWith('### '));

test('incremental parsing below the section: an edit inside TOOLS re-parses only the block it touched', () => {
  const text = generateContract(2000, 1);
  const previous = parseContract(text);
  const tools = previous.sections.find((s) => s.spec?.key === 'tools')!;
  const lines = text.split('\n');
  const at = h3After(lines, tools.startLine + Math.floor((tools.endLine - tools.startLine) / 2)) + 3;
  lines[at] = `${lines[at]} edited`;
  const edited = parseContract(lines.join('\n'), previous);
  const after = edited.sections.find((s) => s.spec?.key === 'tools')!;
  const reused = after.blocks.filter((b) => tools.blocks.includes(b)).length;
  assert.ok(tools.blocks.length > 20, `TOOLS is cut into blocks (${tools.blocks.length})`);
  assert.equal(reused, after.blocks.length - 1, 'every block but the edited one is the same object');
  assert.deepStrictEqual(snapshot(edited), snapshot(parseContract(lines.join('\n'))));
});

test('tools as the unit of reuse: an edit inside one tool builds that tool only; the other tools are the same objects, moved when lines were added above', () => {
  const text = generateContract(2000, 1);
  const previous = parseContract(text);
  const tools = () => previous.sections.find((s) => s.spec?.key === 'tools')!;
  const before = tools().value as object[];
  assert.ok(before.length > 10, `TOOLS has heading tools (${before.length})`);
  const lines = text.split('\n');
  const at = h3After(lines, tools().startLine + Math.floor((tools().endLine - tools().startLine) / 2)) + 3;
  lines.splice(at, 1, `${lines[at]} edited`, '- **Notes**: a line added inside the tool');
  const edited = parseContract(lines.join('\n'), previous);
  const after = edited.sections.find((s) => s.spec?.key === 'tools')!.value as object[];
  assert.equal(after.length, before.length);
  const same = after.filter((t, i) => t === before[i]).length;
  assert.equal(same, after.length - 1, 'every tool but the edited one is the previous object');
  assert.deepStrictEqual(snapshot(edited), snapshot(parseContract(lines.join('\n'))));
});

test('HITL rows as the unit of reuse: an edit in one row builds that row only; rows above a row added stay the same objects, and rows below are read again under their header', () => {
  const text = generateContract(2000, 1);
  const previous = parseContract(text);
  const rows = (m: ParsedContract) => m.data['human_in_the_loop'] as object[];
  const before = rows(previous);
  assert.ok(before.length > 10, `HUMAN_IN_THE_LOOP has rows (${before.length})`);
  const lines = text.split('\n');
  const first = lines.findIndex((l, i) => /^\|[- |]+\|$/.test(lines[i - 1] === undefined ? '' : l) && /^## .*(HUMAN|Human|人工)/.test(lines.slice(0, i).reverse().find((x) => x.startsWith('## ')) ?? '')) + 1;
  const at = first + Math.floor(before.length / 2);
  lines[at] = lines[at]!.replace(/\| ([^|]*?) \|$/, '| escalate |');
  const edited = parseContract(lines.join('\n'), previous);
  assert.equal(rows(edited).filter((r, i) => r === before[i]).length, before.length - 1, 'every row but the edited one is the previous object');
  assert.deepStrictEqual(snapshot(edited), snapshot(parseContract(lines.join('\n'))));
  lines.splice(at, 0, '| Added row | `amount > 5` | Lead approves | 1h | reject |');
  const added = parseContract(lines.join('\n'), edited);
  assert.equal(rows(added).slice(0, at - first).filter((r, i) => r === rows(edited)[i]).length, at - first, 'the rows above the added one are the previous objects');
  assert.deepStrictEqual(snapshot(added), snapshot(parseContract(lines.join('\n'))));
});

// Edits inside TOOLS that change, add, copy and move tools: a tool copied (two items of the same
// text), a tool renamed to its neighbour's name, lines added or removed above tools (they move).
const toolEditArb = fc.record({ pick: fc.nat(), op: fc.constantFrom('copyTool' as const, 'rename' as const, 'insert' as const, 'delete' as const, 'replace' as const), content: fc.constantFrom('', '- **Description**: changed', '### `copied_tool`', 'prose [ref]: x', '#### Notes', '```yaml', '- **Timeout**: 30s') });

function applyToolEdit(text: string, e: { pick: number; op: string; content: string }): string {
  const lines = text.split('\n');
  const heads = lines.flatMap((l, i) => (l.startsWith('### ') ? [i] : []));
  if (heads.length < 2) return text;
  const h = heads[e.pick % heads.length]!;
  const next = heads.find((x) => x > h) ?? Math.min(lines.length, h + 12);
  if (e.op === 'copyTool') lines.splice(next, 0, ...lines.slice(h, next));
  else if (e.op === 'rename') lines[h] = lines[heads[(e.pick + 1) % heads.length]!]!;
  else if (e.op === 'insert') lines.splice(h - 1, 0, e.content);
  else if (e.op === 'delete') lines.splice(h + 1 + (e.pick % 3), 1);
  else lines[h + 1 + (e.pick % 3)] = e.content;
  return lines.join('\n');
}

test('property: after random edits to tools (copied, renamed, moved, changed) the incremental model and diagnostics equal a fresh analysis', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.array(toolEditArb, { minLength: 1, maxLength: 5 }), (seed, edits) => {
      let text = generateContract(300, seed);
      let previous = parseContract(text);
      for (const e of edits) {
        text = applyToolEdit(text, e);
        const incremental = parseContract(text, previous);
        const scratch = parseContract(text);
        assert.deepStrictEqual(snapshot(incremental), snapshot(scratch));
        assert.deepStrictEqual(diagnostics(incremental), diagnostics(scratch));
        previous = incremental;
      }
    }),
    { numRuns: RUNS(25) },
  );
});

// Edits at the places where one block ends and the next starts: blank lines removed or added,
// a heading or fence marker typed at the start of a block, a line of a block moved into the next.
const BOUNDARY_EDITS = ['', 'text', '- item', '  continued', '```', '### next_tool', '| a | b |', '<!--', '> quote', '---', '[ref]: https://example.com', '- [^1]: a note', 'see [ref] and [^1]', '    code'];
const boundaryEditArb = fc.record({ pick: fc.nat(), op: fc.constantFrom('delete' as const, 'insert' as const, 'replace' as const, 'joinNext' as const), content: fc.constantFrom(...BOUNDARY_EDITS) });

/** Lines where a block starts (as the scanner cuts) and the lines just before them. */
function boundaryLines(text: string): number[] {
  return scanSections(text).flatMap((s) => s.blockStarts.flatMap((l) => [l - 1, l]));
}

function applyBoundaryEdit(text: string, e: { pick: number; op: 'delete' | 'insert' | 'replace' | 'joinNext'; content: string }): string {
  const at = boundaryLines(text);
  if (at.length === 0) return text;
  const lines = text.split('\n');
  const i = at[e.pick % at.length]!;
  if (e.op === 'delete') lines.splice(i, 1);
  else if (e.op === 'insert') lines.splice(i, 0, e.content);
  else if (e.op === 'replace') lines[i] = e.content;
  else lines.splice(i, 2, `${lines[i]} ${lines[i + 1] ?? ''}`);
  return lines.join('\n');
}

test('edits inside large sections and across block boundaries: incremental = from scratch, and block by block = remark on the whole slice', () => {
  fc.assert(
    fc.property(
      fc.record({ seed: fc.integer({ min: 1, max: 1_000_000 }), lines: fc.integer({ min: 200, max: 600 }), crlf: fc.boolean(), bom: fc.constant(false) }),
      fc.array(fc.oneof(boundaryEditArb.map((b) => ({ boundary: b })), editArb.map((e) => ({ edit: e }))), { minLength: 1, maxLength: 4 }),
      (c, edits) => {
        let text = contractOf(c);
        let previous = parseContract(text);
        for (const e of edits) {
          text = 'boundary' in e ? applyBoundaryEdit(text, e.boundary) : applyEdit(text, e.edit);
          const incremental = parseContract(text, previous);
          assert.deepStrictEqual(snapshot(incremental), snapshot(parseContract(text)));
          assert.deepStrictEqual(diagnostics(incremental), diagnostics(parseContract(text)));
          assertBlocksEqualWhole(text);
          previous = incremental;
        }
      },
    ),
    {
      numRuns: RUNS(12),
      examples: [
        [{ seed: 3, lines: 201, crlf: false, bom: false }, [{ boundary: { pick: 1560093212, op: 'joinNext', content: '' } }]],
        // Two items joined into one line at a cut of a list read in parts.
        [{ seed: 1, lines: 200, crlf: false, bom: false }, [{ boundary: { pick: 10, op: 'joinNext', content: '' } }]],
      ],
    },
  );
});

/** Each slice parsed block by block gives exactly the tree remark gives for the slice's whole text. */
function assertBlocksEqualWhole(text: string): void {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (const slice of scanSections(body)) {
    const index = new LineIndex(slice.text);
    const offsets = (lines: readonly number[]) => lines.map((l) => index.lineStart(l - slice.startLine));
    assert.deepStrictEqual(parseBlocks(slice.text, offsets(slice.blockStarts), undefined, offsets(slice.itemStarts)).tree, parseMarkdown(slice.text), `slice at line ${slice.startLine}`);
  }
}

test('a link reference definition in one block turns `[ref]` in another into a link, as remark reads the whole slice', () => {
  // The property's counterexample (CI, seed -1349383769): a definition, and `[ref]` in a paragraph blocks away.
  let text = contractOf({ seed: 3, lines: 385, crlf: false, bom: false });
  for (const pick of [1892027941, 78149632]) text = applyBoundaryEdit(text, { pick, op: 'replace', content: '[ref]: https://example.com' });
  assertBlocksEqualWhole(text);
});

test('a stray BOM at the start of a block (a line inserted above a BOM) is read as remark reads the whole slice', () => {
  // The property's counterexample: micromark drops a U+FEFF only at the start of its input.
  assertBlocksEqualWhole(applyEdit(contractOf({ seed: 1, lines: 8, crlf: false, bom: true }), { kind: 'insertLine', at: 0, content: '' }));
});

/** Lines that make or break a list read in parts: items of three markers, lazy and indented lines, code in items, blank lines, what ends a list. */
const LIST_LINES = [
  '- **Name**: a', '- b', '* c', '+ d', '-', '- ', '- - -', '1. one', '2. two', '  - nested', '    - deeper', '  continued', 'lazy text', '',
  '  ```json', '  {', '  ```', '```', '~~~', '  <div>', '<div>', '> quote', '### tool', '---', '| a | b |', '|---|---|', '    code', '- [ ] task', '- [x] done',
  '[ref]: https://example.com', 'see [ref]', '\uFEFF- bom', '- item\r', '  - `x`', '- \u2028 sep',
];

test('lists of every shape read in parts (a tight list cut at its items, each part joining the list above) as they read whole', () => {
  // Against the block-by-block parse without item cuts (which equals remark's but for the scanner's documented differences).
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...LIST_LINES), { maxLength: 40 }), (lines) => {
      const text = ['## TOOLS', '', '### `t`', '', ...lines, '', '### `u`', '', ...lines.slice().reverse()].join('\n');
      for (const slice of scanSections(text)) {
        const index = new LineIndex(slice.text);
        const offsets = (ls: readonly number[]) => ls.map((l) => index.lineStart(l - slice.startLine));
        assert.deepStrictEqual(parseBlocks(slice.text, offsets(slice.blockStarts), undefined, offsets(slice.itemStarts)).tree, parseBlocks(slice.text, offsets(slice.blockStarts)).tree);
      }
    }),
    { numRuns: RUNS(400) },
  );
  // A tight list with code in an item is cut into parts of at least six lines, each at an item (scanSections.ts, MIN_PART_LINES).
  const cut = ['## TOOLS', '', '- a', '- b', '  ```json', '  {}', '  ```', '- c', '- d', '- e', '- f', '- g', '- h', '- i', '- j', '', '### x'].join('\n');
  assert.deepStrictEqual(scanSections(cut)[1]!.itemStarts, [8, 14]);
  assertBlocksEqualWhole(cut);
});

test('an edit in one item of a long tight list re-parses the part of six items that holds it only', () => {
  const items = Array.from({ length: 40 }, (_, i) => `- **Field ${i}**: value ${i}`);
  const text = ['## TOOLS', '', '### `t`', '', ...items, '- **Input Schema**:', '  ```json', '  {"type": "object"}', '  ```', '- **Last**: x', ''].join('\n');
  const previous = parseContract(text);
  const edited = text.replace('value 20', 'value twenty');
  const model = parseContract(edited, previous);
  const before = new Set(previous.sections.flatMap((s) => s.blocks));
  const fresh = model.sections.flatMap((s) => s.blocks).filter((b) => !before.has(b));
  assert.deepStrictEqual(fresh.map((b) => b.text), [items.slice(18, 24).map((l) => `${l.replace('value 20', 'value twenty')}\n`).join('')]);
  assert.deepStrictEqual(snapshot(model), snapshot(parseContract(edited)));
  assertBlocksEqualWhole(edited);
});

test('on generated contracts every slice parsed block by block equals remark on the whole slice', () => {
  fc.assert(
    fc.property(contractArb, fc.array(editArb, { maxLength: 2 }), (c, edits) => {
      let text = contractOf(c);
      for (const e of edits) text = applyEdit(text, e);
      assertBlocksEqualWhole(text);
    }),
    { numRuns: RUNS(60) },
  );
  assertBlocksEqualWhole(generateContract(2000, 1));
});

// Deterministic regressions: edits that change the structure around a section boundary.
const REGRESSIONS: [string, string, string][] = [
  ['remove a fence closer (the rest becomes code)', '## TRIGGER\n\n```yaml\na: 1\n```\n\n## TOOLS\n\n### x\n', '## TRIGGER\n\n```yaml\na: 1\n\n## TOOLS\n\n### x\n'],
  ['add a fence opener above a heading', '## A\n\ntext\n\n## B\n\n- x\n', '## A\n\n```\ntext\n\n## B\n\n- x\n'],
  ['turn a paragraph into a setext heading', '## A\n\nTOOLS\n\n- x\n', '## A\n\nTOOLS\n---\n\n- x\n'],
  ['break front matter', '---\nname: x\n---\n\n## TOOLS\n', '---\nname: x\n\n## TOOLS\n'],
  ['BOM added', '---\nname: x\n---\n\n## TOOLS\n', '\uFEFF---\nname: x\n---\n\n## TOOLS\n'],
  ['an identical section moves', '## A\n\n- x\n\n## A\n\n- x\n', '\n## A\n\n- x\n\n## A\n\n- x\n'],
  ['CR line ends appear', '## A\n\n- x\n\n## B\n', '## A\r\n\r\n- x\r\n\r\n## B\r\n'],
];
for (const [name, before, after] of REGRESSIONS) {
  test(`incremental parsing: ${name}`, () => {
    const incremental = parseContract(after, parseContract(before));
    const scratch = parseContract(after);
    assert.deepStrictEqual(snapshot(incremental), snapshot(scratch));
    assert.deepStrictEqual(diagnostics(incremental), diagnostics(scratch));
  });
}

// Blocks read without remark on the whole block: a fenced block built by hand, a table re-parsed
// row by row against its previous version. Each is undefined or exactly remark's tree.
const FENCE_LINES = ['', 'a: 1', '  - x: `y`', '\t- tab', '```', '~~~', '   ```', '    ```', '````', '```yaml', '~~~~  ', '``` ', 'text ```', '## TOOLS', '| a |', '<!-- c -->', '\\`'];
const fenceArb = fc.record({
  marker: fc.constantFrom('```', '~~~', '````', '~~~~~'),
  lang: fc.constantFrom('', 'yaml', 'json', 'c++', 'objective-c', 'yaml {x}', ' yaml', 'a\\b', 'a&amp;b', 'x`y'),
  body: fc.array(fc.constantFrom(...FENCE_LINES), { maxLength: 8 }),
  closer: fc.constantFrom('same', 'longer', 'spaces', 'indented', 'none', 'other'),
  blank: fc.integer({ min: 0, max: 2 }),
});

test('a fenced block built without remark is exactly the tree remark gives for it', () => {
  fc.assert(
    fc.property(fenceArb, ({ marker, lang, body, closer, blank }) => {
      const close = { same: marker, longer: `${marker}${marker[0]}`, spaces: `${marker}  `, indented: `  ${marker}`, none: '', other: marker[0] === '`' ? '~~~' : '```' }[closer];
      const text = [`${marker}${lang}`, ...body, ...(closer === 'none' ? [] : [close])].join('\n') + '\n'.repeat(blank);
      const tree = fencedBlock(text);
      if (tree) assert.deepStrictEqual(tree, parseMarkdown(text), JSON.stringify(text));
    }),
    { numRuns: RUNS(400) },
  );
  // The fast path is taken for plain fences (checked by name: how often the generator makes one varies).
  assert.ok(fencedBlock('```yaml\na: 1\n```\n'), 'a plain YAML fence');
  assert.ok(fencedBlock('~~~~json\n{"a": 1}\n\n~~~~~\n'), 'a tilde fence closed by a longer one');
  assert.ok(fencedBlock('```\nplain text\n```\n'), 'a fence without a language');
  assert.equal(fencedBlock('```yaml\na: 1\n```\nmore text\n'), undefined, 'text after the closing fence: remark');
});

const ROWS = ['| a | b |', '| *x* | `y` |', '| a \\| b | c |', '| `a|b` | c |', '| one |', '| 1 | 2 | 3 | 4 |', '|', '| --- | --- |', '|a|b|', '| [l](http://x) | <b>h</b> |', '| ✅ 中文 | ❌ |'];
const NOT_ROWS = ['', 'not a row', '> quote', '- item', '  | indented |', '```', '## H2'];
const tableArb = fc.record({
  header: fc.constantFrom('| A | B |', '| Scenario | Trigger | Action |', '| A |', 'A | B'),
  rows: fc.array(fc.constantFrom(...ROWS), { minLength: 1, maxLength: 10 }),
  edit: fc.record({ at: fc.nat(), kind: fc.constantFrom('replace', 'insert', 'delete'), line: fc.constantFrom(...ROWS, ...NOT_ROWS) }),
  blank: fc.integer({ min: 0, max: 2 }),
});

test('a table re-parsed row by row after an edit is exactly the tree remark gives for the edited table', () => {
  let reused = 0;
  fc.assert(
    fc.property(tableArb, ({ header, rows, edit, blank }) => {
      const delimiter = header.split('|').filter((c, i, all) => (header.startsWith('|') ? i > 0 && i < all.length - 1 : true)).map(() => '---').join(' | ');
      const make = (rs: string[]) => [header, `| ${delimiter} |`, ...rs].join('\n') + '\n'.repeat(blank);
      const before = make(rows);
      const at = edit.at % rows.length;
      const after = [...rows];
      if (edit.kind === 'replace') after[at] = edit.line;
      else if (edit.kind === 'insert') after.splice(at, 0, edit.line);
      else after.splice(at, 1);
      const text = make(after);
      const tree = tableByRows(text, { text: before, tree: parseMarkdown(before) });
      if (tree) reused++;
      // Its rows are the ones parsed, each moved where tableAt places it.
      if (tree) assert.deepStrictEqual({ ...tree, children: [tableAt(tree.children[0] as Table, 0, 0)] }, parseMarkdown(text), JSON.stringify({ before, text }));
    }),
    { numRuns: RUNS(400) },
  );
  assert.ok(reused > RUNS(400) / 4, `rows are reused for most edits (${reused} of ${RUNS(400)})`);
});

test('a table edited several times in a row, each version parsed from the one before: every slice tree is remark\'s (rows moved twice or more)', () => {
  const editArb = fc.record({ at: fc.nat(), kind: fc.constantFrom('replace', 'insert', 'delete'), line: fc.constantFrom(...ROWS) });
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...ROWS), { minLength: 1, maxLength: 8 }), fc.array(editArb, { minLength: 1, maxLength: 6 }), fc.constantFrom('', 'Intro.\n\n'), (rows, edits, intro) => {
      const make = (rs: string[]) => `${intro}| A | B |\n| --- | --- |\n${rs.join('\n')}\n\nAfter.\n`;
      const starts = (text: string) => [text.indexOf('| A | B |'), text.indexOf('After.')].filter((o) => o > 0);
      let current = [...rows];
      let parsed = parseBlocks(make(current), starts(make(current)));
      for (const edit of edits) {
        const at = edit.at % Math.max(current.length, 1);
        if (edit.kind === 'replace' && current.length > 0) current[at] = edit.line;
        else if (edit.kind === 'insert' || current.length === 0) current.splice(at, 0, edit.line);
        else if (current.length > 1) current.splice(at, 1);
        const text = make(current);
        parsed = parseBlocks(text, starts(text), blockPool([{ blocks: parsed.blocks }]));
        assert.deepStrictEqual(parsed.tree, parseMarkdown(text), JSON.stringify({ rows, edits, text }));
      }
    }),
    { numRuns: RUNS(300) },
  );
});

test('sections reordered (a text pasted over the whole document): every section of the same text is reused, none parsed again, and the model is a fresh one', () => {
  const sections = Array.from({ length: 120 }, (_, k) => `## Notes ${k}\n\nProse ${'x'.repeat(k % 7)} about \`item_${k}\`.\n\n`);
  const text = `# Agent\n\n${sections.join('')}`;
  const previous = parseContract(text);
  const reordered = `# Agent\n\n${[...sections].reverse().join('')}`;
  const calls = parseWork.markdownCalls;
  const model = parseContract(reordered, previous);
  assert.equal(parseWork.markdownCalls - calls, 0, 'no section was parsed again');
  assert.deepStrictEqual(snapshot(model), snapshot(parseContract(reordered)));
});

test('a table edited in one row below a paragraph: the rows above the edit are the nodes they were, not copies; the tree is remark\'s', () => {
  const rows = Array.from({ length: 40 }, (_, i) => `| Scenario ${i} | \`amount > ${i}\` | Lead approves | 4h |`);
  const make = (rs: string[]) => `Rows below.\n\n| Scenario | Trigger Condition | Required Action | SLA |\n|---|---|---|---|\n${rs.join('\n')}\n`;
  const starts = (text: string) => [text.indexOf('| Scenario |')];
  const first = parseBlocks(make(rows), starts(make(rows)));
  const edited = [...rows];
  edited[20] = '| Scenario 20 | `amount > 2000` | Finance approves | 8h |';
  const text = make(edited);
  const second = parseBlocks(text, starts(text), blockPool([{ blocks: first.blocks }]));
  assert.deepStrictEqual(second.tree, parseMarkdown(text));
  const tableRows = (t: Root) => (t.children[1] as { children: object[] }).children;
  const same = tableRows(second.tree).filter((r, i) => r === tableRows(first.tree)[i]).length;
  assert.equal(same, 21, 'the header and the 20 rows above the edited one are the previous nodes');
});

// ---------------------------------------------------------------------------------------------
// Property 2: scanner boundaries = remark's top-level H2s
// ---------------------------------------------------------------------------------------------

/** 0-based start lines of the top-level depth-2 headings remark finds in the whole text. */
function remarkH2Lines(text: string): number[] {
  const tree: Root = parseMarkdown(text);
  return tree.children.filter((n) => n.type === 'heading' && n.depth === 2).map((n) => n.position!.start.line - 1);
}

/** 0-based start lines of the H2 sections the scanner finds (as `parseContract` runs it, BOM removed). */
function scannerH2Lines(text: string): number[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return scanSections(body)
    .filter((s) => s.kind === 'section')
    .map((s) => s.startLine);
}

test('on generated contracts the scanner splits exactly at the top-level H2s that remark finds', () => {
  fc.assert(
    fc.property(contractArb, (c) => {
      const text = contractOf(c);
      assert.deepStrictEqual(scannerH2Lines(text), remarkH2Lines(text));
    }),
    { numRuns: RUNS(60) },
  );
});

test('the 2,000-line benchmark contract: scanner sections = remark H2s, and it has a setext H2', () => {
  const text = generateContract(2000, 1);
  assert.deepStrictEqual(scannerH2Lines(text), remarkH2Lines(text));
  const tree = parseMarkdown(text);
  const lines = text.split('\n');
  const setext = tree.children.filter((n) => n.type === 'heading' && n.depth === 2 && !lines[n.position!.start.line - 1]!.startsWith('#'));
  // Not every seed draws one (the generator uses setext for one small section half the time); seed 1 does.
  assert.ok(setext.length >= 1, 'a setext H2');
  assert.deepEqual(scannerH2Lines(text).filter((l) => !lines[l]!.startsWith('#')), setext.map((n) => n.position!.start.line - 1));
});

test('scanner = remark on constructs that realistic contracts use', () => {
  const cases = [
    'Title\n---\n\ntext\n',
    'para\nmore para\n---\n',
    '- item\n---\n',
    '- item\n\n  para in item\n---\n',
    '> quote\n---\n',
    '```\n## not a heading\n```\n## heading\n',
    '~~~yaml\n## comment\n~~~\n\n## H\n',
    '````md\n```\n## still code\n```\n````\n## H\n',
    '<!--\n## commented out\n-->\n## H\n',
    '<div>\n## inside html\n\n## H\n',
    '<pre>\n## inside pre\n</pre>\n## H\n',
    '---\ntitle: x\n---\n## H\n',
    '---\n## H\n',
    '| a | b |\n|---|---|\n| 1 | 2 |\n\n## H\n',
    // A heading ends the table above it: the paragraph under it can be a setext H2.
    '| a | b |\n|---|---|\n| 1 | 2 |\n## H\ntext\n---\nmore\n',
    // A heading ends the list above it: the line indented by four is code, and the paragraph under it a setext H2.
    '- item\n### H\n    indented\ntext\n---\n',
    '- **Input Schema**:\n  ```json\n  {"## x": 1}\n  ```\n## H\n',
    'text\n    ## indented code continuation\n## H\n',
    '    ## indented code\n\n## H\n',
    '## ATX closed ##\n',
    '##\n',
    '  ## indented two\n',
    '## 🤖 智能体身份\n',
    'setext with trailing spaces\n---   \n',
    'A\n-\n',
    '<!-- a --> text\n## H\n',
    '[ref]: /url\n## H\n',
    '> ```\n## H\n',
  ];
  for (const c of cases) assert.deepStrictEqual(scannerH2Lines(c), remarkH2Lines(c), JSON.stringify(c));
});

// Constructs the scanner once got wrong: they now agree with remark.
const AGREEMENTS: [string, string][] = [
  ['a table directly followed by `---`', '| a | b |\n|---|---|\n| 1 | 2 |\n---\n'],
  ['a setext H1 directly followed by `---`', 'Title\n=====\n---\n'],
  ['an indented code block directly followed by `---`', '    code\n---\n'],
  ['front matter closed by `...`', '---\ntitle: x\n...\n## H\n---\n'],
  ['HTML block type 3 (processing instruction)', '<?php\n## H\n?>\n'],
  ['HTML block type 4 (declaration)', '<!DOCTYPE html\n## H\n>\n'],
  ['HTML block type 5 (CDATA)', '<![CDATA[\n## H\n]]>\n'],
  ['a link reference definition followed by `---`', '[ref]: /url\n---\n'],
  ['an unclosed fence inside a list item ends with the item', '- item\n  ```\n## H\n'],
  ['a fence inside an item ends at the next item; a later fence is not its closer', '- a\n  ```\n- b\n\nText\n  ```\n## in code\n  ```\n## H\n'],
  ['a fence indented less than the item content ends the list', '1. item\n  ```\n## in code\n```\n## H\n'],
  ['a fence after a nested list belongs to the outer item (tester)', '- **Input Schema**:\n  1. step one\n  ```json\n## CONSTRAINTS\n'],
  ['the same with a blank line before the fence', '- a\n  1. step one\n\n  ```json\n  {}\n\n## H\n'],
  ['the same under a bullet sub-list and an ordered parent', '1. a\n   - step\n   ```json\n## H\n'],
  ['a fence under a nested item, indented to it', '- a\n  1. step\n     ```\n     ## in code\n  ```\n## H\n'],
  ['a nested item indented 4 or more', '- a\n  - b\n    - c\n      ```\n## H\n'],
  ['a list item whose text holds a line separator', '- a\u2028b\n  ```\n## H\n'],
  ['a closer indented from the item content column', '- a\n  ```\n  ## in code\n     ```\n## H\n'],
];
for (const [name, text] of AGREEMENTS) {
  test(`scanner vs remark: ${name}`, () => {
    assert.deepStrictEqual(scannerH2Lines(text), remarkH2Lines(text), JSON.stringify(text));
  });
}

// Where the scanner differs from CommonMark, as docs/contract-format.md ("Sections") says: it
// tracks a list item only for the fences in it, so a `## ` line indented inside an item still
// starts a section, and an HTML comment opened inside an item runs until it is closed, past the
// item's end. Contracts put H2s at the start of a line and close their comments.
const LIMITATIONS: [string, string, number[]][] = [
  ['an H2 indented inside a list item', '- item\n  ## heading inside the item\n', [1]],
  ['an HTML comment opened inside a list item', '- item\n  <!--\n## H\n-->\n', []],
];
for (const [name, text, lines] of LIMITATIONS) {
  test(`scanner, documented difference from CommonMark: ${name}`, () => {
    assert.deepStrictEqual(scannerH2Lines(text), lines);
    assert.notDeepStrictEqual(remarkH2Lines(text), lines, 'remark reads it differently; if it now agrees, move this case to AGREEMENTS');
  });
}
