import type { ParsedContract, PointerSpan } from './types.ts';

/**
 * Finds the source of an absolute JSON Pointer into the contract data (`/tools/0/input_schema`):
 * the owning section's map entry for the pointer, or for its nearest ancestor that has one
 * (ajv reports a missing property at its parent object), unless `exact`. Undefined when no
 * owner is known.
 */
export function locate(model: ParsedContract, pointer: string, exact = false): PointerSpan | undefined {
  // Called for every declaration and finding of every validation: no splitting and joining.
  const first = pointer.indexOf('/');
  if (first < 0) return undefined;
  const slash = pointer.indexOf('/', first + 1);
  const key = slash < 0 ? pointer.slice(first + 1) : pointer.slice(first + 1, slash);
  const decoded = key.includes('~') ? key.replace(/~1/g, '/').replace(/~0/g, '~') : key;
  const owner = model.owners.get(decoded);
  if (!owner) return undefined;
  const fromFrontMatter = owner.kind === 'preamble';
  const map = fromFrontMatter ? owner.frontMatter?.map : owner.map;
  if (!map) return undefined;
  let rest = fromFrontMatter ? pointer : slash < 0 ? '/' : pointer.slice(slash);
  if (rest === '/') rest = '';
  for (;;) {
    const hit = map.get(rest);
    if (hit) return hit;
    if (exact) return undefined;
    if (rest === '' || (fromFrontMatter && rest.split('/').length <= 2)) break;
    rest = rest.slice(0, rest.lastIndexOf('/'));
  }
  if (fromFrontMatter) return map.get(`/${key}`) ?? (owner.frontMatter ? { value: owner.frontMatter.range } : undefined);
  return owner.titleRange ? { value: owner.titleRange } : { value: owner.range };
}

