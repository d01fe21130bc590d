import type { FixTarget, RuleFix } from '../rule.ts';
import type { ParsedContract } from '../../parse/parseContract.ts';
import { referencesOf } from '../../model/references.ts';
import { lineIndexOf } from '../../model/text.ts';
import { closest } from '../../schema/normalise.ts';
import { SECTIONS } from '../../schema/sections.ts';
import { appendSection, at, endOfContent, lineAfter, pos } from '../fixText.ts';

// The fixes of `undeclared-tool` the message names: declare the tool in TOOLS, in the form the
// contract's TOOLS already uses, or change the name to a declared tool one edit away.

/** A declared tool in the heading form (docs/contract-format.md, TOOLS), with its schemas to fill in. */
export const toolDeclaration = (name: string): string =>
  `### \`${name}\`\n\n- **Description**: <what it does>\n- **Side Effects**: none\n\n\`\`\`yaml\ninput_schema:\n  type: object\n  properties: {}\noutput_schema:\n  type: object\n  properties: {}\n\`\`\``;

/** The example fixture's text after "Declare `inventory_api` in TOOLS". */
export const DECLARED = `${toolDeclaration('inventory_api')}\n`;

/** "Change to `check_inventory`": the name as written, replaced by a declared tool's one edit away. */
export function nearToolFix(d: FixTarget, model: ParsedContract): RuleFix | undefined {
  const name = String(d.args?.['name'] ?? '');
  const near = name ? closest(name, referencesOf(model).names.get('tool')?.keys() ?? [], 1) : undefined;
  if (!near) return undefined;
  const idx = lineIndexOf(model);
  const line = idx.lineText(d.range.start.line);
  const start = line.indexOf(name, d.range.start.character);
  if (start < 0) return undefined;
  return { titleId: 'action.changeToTool', titleArgs: { tool: near }, edits: [{ range: { start: pos(d.range.start.line, start), end: pos(d.range.start.line, start + name.length) }, newText: near }], safe: false };
}

/**
 * "Declare `x` in TOOLS": a tool with its schemas after the last one of a TOOLS written with
 * headings, a row of a TOOLS table, or a new TOOLS section.
 */
export function declareToolFix(d: FixTarget, model: ParsedContract): RuleFix | undefined {
  const name = String(d.args?.['name'] ?? '');
  if (!name) return undefined;
  const fix = (edit: { range: RuleFix['edits'][number]['range']; newText: string }): RuleFix => ({ titleId: 'action.declareTool', titleArgs: { tool: name }, edits: [edit], safe: false });
  const section = model.sections.find((s) => s.kind === 'section' && s.spec?.key === 'tools');
  if (!section) {
    const spec = SECTIONS.find((s) => s.key === 'tools');
    return spec ? fix(appendSection(model, spec, toolDeclaration(name))) : undefined;
  }
  const headed = section.headings.some((h) => h.depth === 3);
  const table = section.tables[0];
  if (table && !headed) {
    const header = lineIndexOf(model).lineText(table.start.line);
    const columns = header.split('|').map((c) => c.trim()).filter((c, i, all) => c !== '' || (i > 0 && i < all.length - 1)).length;
    const cells = [`\`${name}\``, ...Array.from({ length: Math.max(0, columns - 1) }, () => '<…>')];
    return fix(lineAfter(model, table.end.line, `| ${cells.join(' | ')} |`));
  }
  const end = endOfContent(model, section);
  return fix({ range: at(end), newText: `\n\n${toolDeclaration(name)}` });
}
