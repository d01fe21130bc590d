import { arr, obj, type Obj } from './util.ts';

/** Levels of nesting and properties a walk reads: user schemas are hostile (ARCHITECTURE.md). */
const MAX_DEPTH = 12;
const MAX_PROPERTIES = 5000;

/** One property of a schema, anywhere in it: its name, its schema, and the name of the property that holds it. */
export interface SchemaProperty {
  readonly name: string;
  readonly schema: Obj | undefined;
  readonly parent?: string;
}

/**
 * Every property a JSON Schema declares, at any depth: under `properties`, inside `items`
 * (`lines[].line_id`), `additionalProperties` and the `allOf`/`anyOf`/`oneOf` branches. Bounded.
 */
export function schemaProperties(schema: unknown): SchemaProperty[] {
  const out: SchemaProperty[] = [];
  const visit = (s: unknown, parent: string | undefined, depth: number): void => {
    const o = obj(s);
    if (!o || depth > MAX_DEPTH || out.length >= MAX_PROPERTIES) return;
    for (const [name, sub] of Object.entries(obj(o['properties']) ?? {})) {
      if (out.length >= MAX_PROPERTIES) return;
      out.push({ name, schema: obj(sub), ...(parent ? { parent } : {}) });
      visit(sub, name, depth + 1);
    }
    const items = o['items'];
    for (const i of Array.isArray(items) ? items : [items]) visit(i, parent, depth + 1);
    visit(o['additionalProperties'], parent, depth + 1);
    for (const k of ['allOf', 'anyOf', 'oneOf']) for (const b of arr(o[k])) visit(b, parent, depth + 1);
  };
  visit(schema, undefined, 0);
  return out;
}

/** The schemas a contract declares for the values it handles: every tool's output schema and OUTPUT_SCHEMA. */
export function declaredOutputs(data: Readonly<Obj>): { readonly tool?: number; readonly schema: unknown }[] {
  const tools = arr(data['tools']).map((t) => obj(t) ?? {});
  return [...tools.map((t, tool) => ({ tool, schema: t['output_schema'] })), { schema: data['output_schema'] }];
}
