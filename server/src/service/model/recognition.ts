import type { ParsedContract, SectionModel } from './types.ts';
import { normaliseLabel } from '../schema/normalise.ts';

/**
 * How a recognised section counts towards recognising the file as a contract
 * (docs/contract-format.md §1). `strong`: its title is written in the contract's ALL_CAPS style
 * (`## HUMAN_IN_THE_LOOP`, `## VERSIONING & AUDIT`) or in Chinese. `weak`: it is the canonical
 * title of a section only contracts have, in another case (`## Memory Contract`,
 * `## Failure Protocol`: `x-section.anyCase`); two of those make a contract, one alone does not
 * make a partial one. Ordinary AGENTS.md files use titles such as `## Error Handling`,
 * `## Changelog` or `## Role`, which are aliases of contract sections but do not count; such
 * sections are still read once the file is a contract.
 */
export function recognitionOf(s: Pick<SectionModel, 'spec' | 'title'>): 'strong' | 'weak' | undefined {
  if (!s.spec) return undefined;
  const t = s.title ?? '';
  if ((/[A-Z]/.test(t) && t === t.toUpperCase()) || /\p{Script=Han}/u.test(t)) return 'strong';
  return s.spec.anyCase && normaliseLabel(t) === normaliseLabel(s.spec.title) ? 'weak' : undefined;
}

/**
 * The first heading of a free-form file that looks like a contract section: a title only
 * contracts use, in another case, over content written in the section's contract form (a table of
 * memory layers, `**If …**` failure entries), not prose (docs/contract-format.md §1). Undefined
 * for contracts, for files marked `contract: false`, and for ordinary AGENTS.md files, whose
 * `## Compliance` holds a sentence.
 */
export function contractLikeSection(model: ParsedContract): SectionModel | undefined {
  if (model.kind !== 'freeform' || model.sections[0]?.frontMatter?.value?.['contract'] === false) return undefined;
  return model.sections.find((s) => recognitionOf(s) === 'weak' && hasContent(s.value));
}

function hasContent(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  return !!v && typeof v === 'object' && Object.keys(v).length > 0;
}
