import type { Code, Root } from 'mdast';
import { parseYamlBlock, pointerSegment } from './yamlBlock.ts';
import { FRONT_MATTER_FIELDS, sectionForTitle } from '../schema/sections.ts';
import type { SectionModel } from '../model/types.ts';
import { Builder } from './builder.ts';

/** Builds the front matter's data from the preamble's `yaml` node. */
export function buildFrontMatter(b: Builder, tree: Root): SectionModel['frontMatter'] {
  const node = tree.children[0];
  if (!node || node.type !== 'yaml') return undefined;
  const block = parseYamlBlock(node.value, 'yaml');
  // The YAML node starts on the `---` line and its content on the next, as a fence's does.
  const asFence: Code = { type: 'code', value: node.value, ...(node.position ? { position: node.position } : {}) };
  const fm = new Builder(b.loc);
  fm.addBlock(block, asFence, '');
  for (const f of fm.findings) b.findings.push(f);
  const value = block.value && typeof block.value === 'object' && !Array.isArray(block.value) ? (block.value as Record<string, unknown>) : {};
  // Front matter that does not parse contributes nothing but its `contract:` marker, so that a
  // typo elsewhere in it does not silently turn a contract into a free-form file.
  const marker = block.value === undefined ? /^contract:[ \t]*(true|false)[ \t]*$/m.exec(node.value) : null;
  if (marker) value['contract'] = marker[1] === 'true';
  if (block.value !== null && block.value !== undefined && value !== block.value) {
    b.findings.push({ code: 'schema', range: b.loc.nodeRange(node), variant: 'frontMatter' });
  }
  for (const k of Object.keys(value)) {
    if (!FRONT_MATTER_FIELDS.some((f) => f.key === k) && !sectionForTitle(k)) {
      const s = fm.map.get(`/${pointerSegment(k)}`);
      // Unknown front-matter keys are common (tools of other agents' formats): warn, keep going.
      b.findings.push({ code: 'unknown-field', range: s?.key ?? b.loc.nodeRange(node), args: { label: k }, variant: 'frontMatter' });
    }
  }
  return { value, map: fm.map, range: b.loc.nodeRange(node) };
}

