import type { Rule, RuleFix } from '../rule.ts';
import type { ParsedContract } from '../../parse/parseContract.ts';
import { allSectionTitles, SECTIONS } from '../../schema/sections.ts';
import { closest, normaliseLabel } from '../../schema/normalise.ts';
import { FM } from './util.ts';
import { Lru } from '../../util/lru.ts';
import { innerRange, lineIndexOf, textAt } from '../../model/text.ts';
import { schema } from './schema.ts';
import { appendSection, at, endOfContent, lineAfter, pos, sectionSkeleton } from '../fixText.ts';
import type { SectionModel } from '../../model/types.ts';

/**
 * Rules about the document as a whole: how it parses, which sections it has and whether the
 * data matches the schemas. Most findings here come from the parser (parse/); the rules below
 * carry their docs and the checks that need the whole model.
 */


export const yamlSyntax: Rule = {
  code: 'yaml-syntax',
  severity: 'error',
  summary: 'Front matter and fenced `yaml` blocks must be valid YAML.',
  description: 'A YAML block that does not parse leaves its section without data, so every check of that section is blind. The message is the YAML parser\'s own, placed at the offending character.',
  source: 'docs/contract-format.md §4.3 and §7.2 (an unquoted `{{…}}` is not valid YAML)',
  messages: {
    default: 'Invalid YAML: {detail}.',
    unclosedFrontMatter: 'The front matter opened here is never closed: add a `---` line after it.',
    unresolvedAlias: 'Invalid YAML: the alias *{alias} refers to no anchor.',
    tooManyNodes: 'This YAML block expands to more than {limit} nodes (alias expansion); it is not read.',
  },
  examples: {
    bad: `${FM}\n## TRIGGER\n\n\`\`\`yaml\nintent_patterns: [定位.*故障\nrequired_entities: [device_id]\n\`\`\`\n`,
    good: `${FM}\n## TRIGGER\n\n\`\`\`yaml\nintent_patterns: ["定位.*故障"]\nrequired_entities: [device_id]\n\`\`\`\n`,
    at: `⟦r⟧equired_entities: [device_id]`,
  },
};

export const jsonSyntax: Rule = {
  code: 'json-syntax',
  severity: 'error',
  summary: 'Fenced `json` blocks must be valid JSON.',
  description: 'JSON blocks are read strictly: trailing commas, comments and single quotes are errors, because the runtime that loads the contract will reject them too.',
  source: 'docs/contract-format.md §4.3 (fenced json blocks)',
  messages: {
    default: 'Invalid JSON: {detail}.',
    tooManyNodes: 'This JSON block has more than {limit} nodes; it is not read.',
    tooDeep: 'This JSON block nests more than {limit} levels deep; it is not read.',
    // JSON's own first error, in words (the parser's names, e.g. `CommaExpected`, are not).
    invalidSymbol: 'Invalid JSON: unexpected character here (names and strings take double quotes).',
    invalidNumberFormat: 'Invalid JSON: not a valid number.',
    propertyNameExpected: 'Invalid JSON: a property name in double quotes is expected here (no trailing comma).',
    valueExpected: 'Invalid JSON: a value is expected here.',
    colonExpected: 'Invalid JSON: a colon is expected here.',
    commaExpected: 'Invalid JSON: a comma is expected here.',
    closeBraceExpected: 'Invalid JSON: a closing `}` is expected here.',
    closeBracketExpected: 'Invalid JSON: a closing `]` is expected here.',
    endOfFileExpected: 'Invalid JSON: nothing may follow the value.',
    invalidCommentToken: 'Invalid JSON: comments are not allowed in JSON.',
    unexpectedEndOfString: 'Invalid JSON: this string is not closed.',
  },
  examples: {
    bad: `${FM}\n## OUTPUT_SCHEMA\n\n\`\`\`json\n{ "type": "object", }\n\`\`\`\n`,
    good: `${FM}\n## OUTPUT_SCHEMA\n\n\`\`\`json\n{ "type": "object" }\n\`\`\`\n`,
    at: `⟦}⟧`,
  },
};

export const templateUnquoted: Rule = {
  code: 'template-unquoted',
  severity: 'error',
  fixKind: 'safe',
  summary: 'A `{{template}}` used as a YAML value must be quoted.',
  description: 'YAML reads `value: {{extracted_device_id}}` as a nested flow mapping, not as text, so the filter silently gets a map. Quote it: `value: "{{extracted_device_id}}"`.',
  source: 'docs/contract-format.md §7.2 (in YAML a template must be quoted)',
  messages: { default: 'Quote this template: YAML reads {text} as a mapping, not as text. Write "{text}".' },
  examples: {
    bad: `${FM}\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n- pool: device_log\n  filters:\n    - field: device_id\n      value: {{extracted_device_id}}\n\`\`\`\n`,
    good: `${FM}\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n- pool: device_log\n  filters:\n    - field: device_id\n      value: "{{extracted_device_id}}"\n\`\`\`\n`,
    at: `⟦{{extracted_device_id}}⟧`,
    fixed: true,
  },  fix: (d, model) => ({ titleId: 'action.quoteTemplate', edits: [{ range: d.range, newText: JSON.stringify(textAt(model, d.range)) }], safe: true }),
};

export const duplicateSection: Rule = {
  code: 'duplicate-section',
  severity: 'error',
  summary: 'Each section appears once (as an H2 or as a front-matter key, not both).',
  description: 'When a section is written twice, only the first is used and edits to the second have no effect. Merge the two.',
  source: 'docs/contract-format.md §2 (file layout)',
  messages: { default: 'Section {section} is defined more than once; only the first definition is used. Merge them.' },
  examples: {
    bad: `${FM}\n## BUDGETS\n\n- **Max Steps**: 20\n\n## BUDGETS\n\n- **Token Budget**: 10000\n`,
    good: `${FM}\n## BUDGETS\n\n- **Max Steps**: 20\n- **Token Budget**: 10000\n`,
    at: `- **Max Steps**: 20\n\n## ⟦BUDGETS⟧`,
  },
};

export const duplicateKey: Rule = {
  code: 'duplicate-key',
  severity: 'error',
  summary: 'A field or YAML key is set once per object.',
  description: 'Two `**Max Steps**:` bullets, or a YAML mapping with the same key twice, leave the reader guessing which one applies. The first is kept; remove the other.',
  source: 'docs/contract-format.md §4; YAML 1.2 (keys are unique)',
  messages: { default: '"{key}" is set more than once here; the first value is kept.' },
  examples: {
    bad: `${FM}\n## BUDGETS\n\n- **Max Steps**: 20\n- **Max Steps**: 50\n`,
    good: `${FM}\n## BUDGETS\n\n- **Max Steps**: 20\n`,
    at: `- ⟦**Max Steps**⟧: 50`,
  },
};

/**
 * The known section title nearest to a normalised title, if one is near enough. Kept per title:
 * the rule reads every section on every keystroke, and the comparison with every known title took
 * a quarter of a millisecond of each in a 2,000-line contract (docs/performance.md).
 */
const nearest = new Lru<string, string | null>(500);
function nearestTitle(title: string): string | undefined {
  let near = nearest.get(title);
  if (near === undefined) nearest.set(title, (near = closest(title, [...allSectionTitles()]) ?? null));
  return near ?? undefined;
}

export const unknownSection: Rule = {
  code: 'unknown-section',
  severity: 'warning',
  fixKind: 'safe',
  scope: 'document',
  summary: 'H2 titles in a contract name a known section (or are clearly prose).',
  description: 'A misspelt title (`MEMROY_POLICY`) silently drops a whole section from validation and from the dry run, so it is a warning, with a fix to the title it is close to. The rule only reports titles that are close to a known one, so free prose sections such as `## Background` stay quiet.',
  source: 'docs/contract-format.md §3 (sections recognised by title)',
  messages: { default: '"{title}" is not a contract section. Did you mean {suggestion}?' },
  examples: {
    bad: `${FM}\n## MEMROY_POLICY\n\n- **Write Admission**: verified sources only\n`,
    good: `${FM}\n## MEMORY_POLICY\n\n- **Write Admission**: verified sources only\n`,
    at: `⟦MEMROY_POLICY⟧`,
    fixed: true,
  },
  *check({ model }) {
    for (const s of model.sections) {
      if (s.kind !== 'section' || s.spec || !s.title) continue;
      const near = nearestTitle(normaliseLabel(s.title));
      if (!near) continue;
      const spec = SECTIONS.find((x) => x.titles.includes(near));
      if (spec) yield { code: 'unknown-section', range: s.titleRange ?? s.range, args: { title: s.title, suggestion: spec.title } };
    }
  },
  fix: (d, model) => {
    const title = d.args?.['suggestion'];
    if (!title) return undefined;
    // The section it names is already there: a rename would make a second one (duplicate-section),
    // so the content moves into it instead, and that needs the author's eye.
    const target = model.sections.find((s) => s.kind === 'section' && s.spec?.title === title);
    const own = model.sections.find((s) => s.kind === 'section' && s.startLine === d.range.start.line);
    if (target && own) return mergeInto(model, own, target, String(title));
    return { titleId: 'action.changeTitle', titleArgs: { title: String(title) }, edits: [{ range: d.range, newText: String(title) }], safe: true };
  },
};

/** Moves a section's body (below its heading) to the end of `target`'s content and removes the section. */
function mergeInto(model: ParsedContract, own: SectionModel, target: SectionModel, title: string): RuleFix {
  const idx = lineIndexOf(model);
  const body: string[] = [];
  for (let l = own.startLine + 1; l < own.endLine; l++) body.push(idx.lineText(l));
  const text = body.join('\n').trim();
  const end = endOfContent(model, target);
  const last = own.endLine >= idx.lineCount;
  const removal = last ? { start: endOfContent(model, { startLine: 0, endLine: own.startLine }), end: pos(idx.lineCount - 1, idx.lineText(idx.lineCount - 1).length) } : { start: pos(own.startLine, 0), end: pos(own.endLine, 0) };
  // Removing the last section up to the end of the file takes the final newline with it: put it back.
  const tail = last && model.text.endsWith('\n') ? '\n' : '';
  return {
    titleId: 'action.mergeSection',
    titleArgs: { from: own.title ?? '', title },
    edits: [...(text ? [{ range: at(end), newText: `\n\n${text}` }] : []), { range: removal, newText: tail }],
    safe: false,
  };
}

export const missingSection: Rule = {
  code: 'missing-section',
  severity: 'error',
  fixKind: 'quickfix',
  scope: 'document',
  summary: 'A contract has every required section.',
  description: 'A full contract has seven mandatory sections: AGENT_IDENTITY, MEMORY_CONTRACT, FAILURE_PROTOCOL, HUMAN_IN_THE_LOOP, VERSIONING & AUDIT, COMPLIANCE and BUDGETS (every new agent ships with a budget). Which sections are required is set in the contract schema (`x-section.required`). The quick fix inserts a skeleton.',
  source: 'docs/contract-format.md §1 (full contracts)',
  messages: { default: 'The contract has no {section} section. Add "## {section}".' },
  examples: {
    bad: `${FM}\n## AGENT_IDENTITY\n\n- **Name**: \`demo\`\n`,
    good: `${FM}\n## AGENT_IDENTITY\n\n- **Name**: \`demo\`\n\n## MEMORY_CONTRACT\n\n| Layer | Read By | Write By | Retention |\n|---|---|---|---|\n| Raw Log | demo | System | 90 days |\n\n## FAILURE_PROTOCOL\n\n- **If the model returns non-JSON**: → Fall back to a template → Return error_code \`E001\`\n\n## HUMAN_IN_THE_LOOP\n\n| Scenario | Trigger Condition | Required Action | SLA |\n|---|---|---|---|\n\n## BUDGETS\n\n- **Max Steps**: 20\n- **Token Budget**: 10000\n- **Timeout**: 5m\n\n## VERSIONING & AUDIT\n\n| Version | Date | Changed By | Key Changes |\n|---|---|---|---|\n| 1.0.0 | 2026-01-01 | @me | First version |\n\n## COMPLIANCE\n\n- **Data Residency**: eu-west-1\n`,
    at: `⟦AGENT_IDENTITY⟧`,
    fixed: `${FM}\n## AGENT_IDENTITY\n\n- **Name**: \`demo\`\n\n## MEMORY_CONTRACT\n\n| Layer | Read By | Write By | Retention |\n|---|---|---|---|\n\n`,
  },
  *check({ model }) {
    const anchor = model.sections.find((s) => s.titleRange)?.titleRange ?? model.sections[0]!.frontMatter?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    for (const spec of SECTIONS) {
      if (spec.required && !model.owners.has(spec.key)) yield { code: 'missing-section', range: anchor, args: { section: spec.title } };
    }
  },
  fix: (d, model, { today }) => {
    // A skeleton of the section at the end of the document, in the form docs/contract-format.md recommends.
    const spec = SECTIONS.find((x) => x.title === d.args?.['section']);
    const version = model.data['version'] === undefined ? undefined : String(model.data['version']);
    return spec ? { titleId: 'action.addSection', titleArgs: { section: spec.title }, edits: [appendSection(model, spec, sectionSkeleton(spec, { ...(version ? { version } : {}), today }))], safe: false } : undefined;
  },
};

export const unknownField: Rule = {
  code: 'unknown-field',
  severity: 'warning',
  fixKind: 'safe',
  summary: 'Bullet labels, table headers and YAML keys name fields of their section.',
  description: 'A label the section does not know (`**Core Mandat**`) is ignored by every check and by the dry run. Use a field name or one of its aliases (see docs/contract-format.md); hover a section title to see its fields. A near miss (`requires_aproval`) or another format\'s spelling (`timeout_s`, `approval_required`) gets a "did you mean" and a fix that renames the label (`timeout_s: 60` becomes `timeout: 60s`); the rules about a missing field then stay quiet. Keys of YAML list items (a tool in a `tools:` list, a CONSTRAINTS entry) are checked the same way.',
  source: 'docs/contract-format.md §3 and §9 (labels and fields)',
  messages: {
    default: '"{label}" is not a field of {section}; it is ignored.',
    suggest: '"{label}" is not a field of {section}; it is ignored. Did you mean "{suggestion}"?',
    suggestUnit: '"{label}" is not a field of {section}; it is ignored. Did you mean "{suggestion}", with the unit in the value (`90{unit}`)?',
    frontMatter: '"{label}" is not a front-matter field; it is ignored.',
  },
  examples: {
    bad: `${FM}\n## AGENT_IDENTITY\n\n- **Name**: \`demo\`\n- **Core Mandat**: "Answer questions"\n`,
    good: `${FM}\n## AGENT_IDENTITY\n\n- **Name**: \`demo\`\n- **Core Mandate**: "Answer questions"\n`,
    at: `⟦**Core Mandat**⟧`,
    fixed: true,
  },  fix: (d, model) => {
    const suggestion = d.args?.['suggestion'];
    const label = d.args?.['label'];
    if (!suggestion || !label) return undefined;
    // Only the label's own text is replaced (not the `**` around it), and only when it is unambiguous.
    const text = textAt(model, d.range);
    const at = text.indexOf(String(label));
    if (at < 0 || text.lastIndexOf(String(label)) !== at) return undefined;
    const range = innerRange(model, d.range, at, at + String(label).length);
    const edits = [{ range, newText: String(suggestion) }];
    // `timeout_s: 60` → `timeout: 60s`: the unit moves from the key to a bare number value on the same line.
    const unit = d.args?.['unit'];
    if (unit) {
      const line = lineIndexOf(model).lineText(d.range.end.line);
      const m = /^(\**\s*[:：]\s*)(\d+(?:\.\d+)?)\s*$/.exec(line.slice(d.range.end.character));
      if (!m) return undefined;
      const end = { line: d.range.end.line, character: d.range.end.character + m[1]!.length + m[2]!.length };
      edits.push({ range: { start: end, end }, newText: String(unit) });
    }
    return { titleId: 'action.renameField', titleArgs: { label: String(suggestion) }, edits, safe: true };
  },
};

export const tableShape: Rule = {
  code: 'table-shape',
  severity: 'warning',
  summary: 'Every table row has as many cells as the header.',
  description: 'A row with a missing or extra cell shifts values into the wrong column, usually because of an unescaped `|` inside a cell. Escape it as `\\|` or put it in inline code with the pipe escaped.',
  source: 'docs/contract-format.md §4.2 (ragged tables, escaped pipes)',
  messages: { default: 'This row has {cells} cells but the header has {columns}.' },
  examples: {
    bad: `${FM}\n## HUMAN_IN_THE_LOOP\n\n| Scenario | Trigger Condition | Required Action | SLA |\n|---|---|---|---|\n| Large payment | amount > 50000 | Finance Lead approves |\n`,
    good: `${FM}\n## HUMAN_IN_THE_LOOP\n\n| Scenario | Trigger Condition | Required Action | SLA |\n|---|---|---|---|\n| Large payment | amount > 50000 | Finance Lead approves | 4h |\n`,
    at: `⟦| Large payment | amount > 50000 | Finance Lead approves |⟧`,
  },
};

export const unclosedFence: Rule = {
  code: 'unclosed-fence',
  severity: 'error',
  fixKind: 'quickfix',
  summary: 'Every fenced code block is closed.',
  description: 'An unclosed ``` fence turns the rest of the file into code: every section after it disappears from the contract. The quick fix closes it before the next H2 heading it swallowed (or at the end of the file).',
  source: 'CommonMark §4.5; docs/contract-format.md §4.3',
  messages: { default: 'This code fence is never closed, so the rest of the file is read as code. Close it with a matching fence.' },
  examples: {
    bad: `${FM}\n## OUTPUT_SCHEMA\n\n\`\`\`yaml\ntype: object\n\n## BUDGETS\n\n- **Max Steps**: 20\n- **Token Budget**: 10000\n- **Timeout**: 5m\n`,
    good: `${FM}\n## OUTPUT_SCHEMA\n\n\`\`\`yaml\ntype: object\n\`\`\`\n\n## BUDGETS\n\n- **Max Steps**: 20\n- **Token Budget**: 10000\n- **Timeout**: 5m\n`,
    at: `⟦\`\`\`yaml⟧`,
    fixed: true,
  },
  fix: (d, model) => {
    // The fence most likely ends before the next H2 heading it swallowed (a `#` line may be a YAML
    // comment), else at the end of the file; the marker goes after the last non-blank line.
    const idx = lineIndexOf(model);
    const open = idx.lineText(d.range.start.line);
    const marker = /^(\s*)(`{3,}|~{3,})/.exec(open);
    if (!marker) return undefined;
    let heading = d.range.start.line + 1;
    while (heading < idx.lineCount && !/^##\s/.test(idx.lineText(heading))) heading++;
    let last = heading - 1;
    while (last > d.range.start.line && !idx.lineText(last).trim()) last--;
    const title = heading < idx.lineCount ? { titleId: 'action.closeFence', titleArgs: { line: idx.lineText(heading).trim() } } : { titleId: 'action.closeFenceAtEnd' };
    return { ...title, edits: [lineAfter(model, last, `${marker[1]}${marker[2]}`)], safe: false };
  },
};

export const unrecognisedContent: Rule = {
  code: 'unrecognised-content',
  severity: 'warning',
  summary: 'Bullets in list sections follow the section\'s form.',
  description: 'In FAILURE_PROTOCOL each bullet is `- **If <condition>**: → action → action`; in MEMORY_FRESHNESS `- **source**: Must be updated before \\`05:00 UTC\\`. Stale after \\`07:00 UTC\\`.`; in TOOLS and MEMORY_POOLS items are H3 sub-headings, table rows or YAML. A bullet that fits no form is ignored. A quoted note (`> …`) right above table rows takes the rows into the quote (Markdown continues a quote on the next line), so they are no table: reported too.',
  source: 'docs/contract-format.md',
  messages: {
    default: 'This item is not in a form {section} understands; it is ignored. See docs/contract-format.md.',
    quotedRows: 'These table rows continue the quote above them, so {section} does not read them; they are ignored. Leave a blank line between the quote and the rows, or move the note out of the table.',
  },
  examples: {
    bad: `${FM}\n## FAILURE_PROTOCOL\n\n- Retry a few times and then give up\n`,
    good: `${FM}\n## FAILURE_PROTOCOL\n\n- **If the tool call fails three times**: → Halt processing → Return error_code \`TOOL001\`\n`,
    at: `⟦Retry a few times and then give up⟧`,
  },
};

export const partialContract: Rule = {
  code: 'partial-contract',
  severity: 'info',
  fixKind: 'quickfix',
  summary: 'A file with a single contract section is checked only in that section.',
  description: 'Files that carry one contract section (an agent file with an `## AGENT_IDENTITY`, say) are common. The rest of the contract rules stay quiet until the file has a second section or declares `contract: true` in its front matter.',
  source: 'docs/contract-format.md §1 (partial contracts)',
  messages: { default: 'Only {section} is recognised as a contract section, so only it is checked. Add `contract: true` to the front matter to check the whole file as a contract.' },
  examples: {
    bad: `# My agent\n\n## AGENT_IDENTITY\n\n- **Name**: \`demo\`\n`,
    good: `---\ncontract: true\n---\n# My agent\n\n## AGENT_IDENTITY\n\n- **Name**: \`demo\`\n`,
    at: `⟦AGENT_IDENTITY⟧`,
    fixed: true,
  },  fix: (_d, model) => markContract(model),
};

/** `contract: true` after the opening `---` of the front matter, or a new front matter at the top. */
function markContract(model: ParsedContract): RuleFix {
  const fm = model.sections[0]?.frontMatter;
  const at = fm ? { line: fm.range.start.line + 1, character: 0 } : { line: 0, character: 0 };
  return { titleId: 'action.markContract', edits: [{ range: { start: at, end: at }, newText: fm ? 'contract: true\n' : '---\ncontract: true\n---\n' }], safe: false };
}

export const contractNotRecognised: Rule = {
  code: 'contract-not-recognised',
  severity: 'info',
  fixKind: 'quickfix',
  summary: 'A free-form file whose headings look like contract sections says so once.',
  description: 'A file is read as a contract when it has two contract sections (docs/contract-format.md §1). One title only contracts use, written in another case (`## Memory Contract`) over content in the section\'s contract form, is not enough on its own; the file stays free-form and none of its contract checks run. This note on the first such heading says so; its quick fix adds `contract: true` to the front matter. `agents-md run` and `agents-md diff` say the same. A heading over prose (`## Compliance` with a sentence) gets no note.',
  source: 'docs/contract-format.md §1',
  messages: { default: 'This file is read as free-form, so "{title}" is not checked as a contract section. Add `contract: true` to the front matter to check the whole file as a contract.' },
  examples: {
    bad: `# Refund agent\n\n## Memory Contract\n\n| Layer | Read By | Write By | Retention |\n|---|---|---|---|\n| Order history | LLM | System | 90d |\n`,
    good: `# Refund agent\n\n## Memory Contract\n\nWe keep order history for 90 days.\n`,
    at: `⟦Memory Contract⟧`,
    fixed: `---\ncontract: true\n---\n# Refund agent\n\n## Memory Contract\n\n| Layer | Read By | Write By | Retention |\n|---|---|---|---|\n| Order history | LLM | System | 90d |\n`,
  },
  fix: (_d, model) => markContract(model),
};

export const internalError: Rule = {
  code: 'internal-error',
  severity: 'error',
  summary: 'A rule failed on this document (a bug in agents-md, not in the contract).',
  description: 'A check threw an exception. The other checks still ran. Please report it with the file that caused it.',
  source: 'docs/robustness.md (bad input is normal input)',
  messages: { default: 'Rule {rule} failed on this document: {detail}. This is a bug in agents-md; the other rules still ran.' },
  examples: { bad: '', good: '' },
};

export const contentTooComplex: Rule = {
  code: 'content-too-complex',
  severity: 'warning',
  summary: 'A section is not analysed when its Markdown is too deep or its lines too long.',
  description: 'Markdown parsers slow down sharply on thousands of nested block quotes or list items and on lines of hundreds of thousands of characters. A section with a line over 20,000 characters, more than 100 nested levels, a paragraph with more than 2,000 emphasis, code and link markers (`*`, `_`, backticks, brackets), a paragraph, list or block quote of more than 1,000 lines, or a table of more than 2,000 rows is skipped so that the editor stays responsive; split the line or the paragraph, or flatten the nesting. While a section is skipped, the checks that compare sections with each other (such as missing-section and hitl-needs-fallback) do not run: they would guess at what it holds.',
  source: 'docs/robustness.md, "Parsing limits"',
  messages: {
    default: 'This section is not analysed: the Markdown parser failed ({detail}).',
    longLine: 'This section is not analysed: it has a line of {size} characters (the limit is {limit}).',
    nesting: 'This section is not analysed: it nests {size} block quotes or list items (the limit is {limit}).',
    inline: 'This section is not analysed: a paragraph has {size} emphasis, code or link markers (the limit is {limit}).',
    block: 'This section is not analysed: a paragraph or list runs over {size} lines (the limit is {limit}); split it.',
    table: 'This section is not analysed: a table runs over {size} rows (the limit is {limit}); split it.',
  },
  examples: { bad: '', good: '' },
};

export const fileNotText: Rule = {
  code: 'file-not-text',
  severity: 'warning',
  summary: 'A contract file is text.',
  description: 'A file with NUL bytes is not a Markdown file (perhaps a binary committed under the name AGENTS.md). It is not analysed.',
  source: 'docs/robustness.md, "Reads: one bounded reader"',
  messages: { default: 'This file looks binary (it contains NUL bytes); it is not analysed.' },
  examples: { bad: '', good: '' },
};

export const invalidUtf8: Rule = {
  code: 'invalid-utf8',
  severity: 'warning',
  summary: 'A contract file is valid UTF-8.',
  description: 'Bytes that are not UTF-8 are shown as U+FFFD (�); the text around them is probably not what the author wrote. Re-save the file as UTF-8.',
  source: 'docs/robustness.md, "Reads: one bounded reader"',
  messages: {
    default: 'The file is not valid UTF-8 here; the bytes were replaced with U+FFFD. Re-save it as UTF-8.',
    utf16: 'The file is UTF-16; it was read as such, but other tools expect UTF-8. Re-save it as UTF-8.',
  },
  examples: { bad: '', good: '' },
};

export const fileTooLarge: Rule = {
  code: 'file-too-large',
  severity: 'warning',
  summary: 'Contracts above the size limit are not analysed.',
  description: 'Files larger than the limit (4 MiB by default, `maxFileBytes` in the service options) are skipped so that the editor stays responsive. Real contracts are far smaller; a file this size is usually generated or misnamed.',
  source: 'docs/robustness.md, "Reads: one bounded reader"',
  messages: { default: 'This file is {size} bytes, over the {limit}-byte limit; it is not analysed.' },
  examples: { bad: '', good: '' },
};

export const DOCUMENT_RULES: readonly Rule[] = [
  yamlSyntax, jsonSyntax, templateUnquoted, duplicateSection, duplicateKey, unknownSection, missingSection, unknownField,
  tableShape, unclosedFence, unrecognisedContent, partialContract, contractNotRecognised, schema, contentTooComplex, fileNotText, invalidUtf8, fileTooLarge, internalError,
];
