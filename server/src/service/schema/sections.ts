import { contractSchema, schemaById, type JsonSchema } from './schemas.ts';
import { normaliseLabel } from './normalise.ts';

/** The model key of a section (docs/schema-conventions.md, "The model keys"). */
export type SectionKey =
  | 'identity' | 'memory_contract' | 'memory_policy' | 'memory_freshness' | 'memory_pools'
  | 'memory_requirements' | 'trigger' | 'tools' | 'constraints' | 'output_schema' | 'failure_protocol'
  | 'human_in_the_loop' | 'budgets' | 'task' | 'versioning' | 'compliance' | 'resources'
  | 'semantic_anchors' | 'user_stories';

/** What kind of name a field declares or refers to (`x-declares` / `x-reference`). */
export type NameKind = 'tool' | 'pool' | 'role' | 'entity' | 'scenario' | 'resource' | 'layer';

/** One field of a section (object sections) or of a section's items (array sections). */
export interface FieldSpec {
  readonly key: string;
  /** Normalised labels that name this field: its key and its `x-aliases`. */
  readonly labels: readonly string[];
  /** JSON types the schema allows (`type`), empty when unconstrained. */
  readonly types: readonly string[];
  readonly schema: JsonSchema;
  readonly declares?: NameKind;
  readonly reference?: NameKind;
  /** `x-list-separators`: what else splits an inline list that has no comma (`A > B > C`). */
  readonly listSeparators?: RegExp;
}

/** How bullets become items in an array section (`x-bullets`). */
export type BulletForm = 'string' | 'labelled' | 'failure-entry' | 'freshness';

/** A section as the parser and validator see it, derived from the schemas. */
export interface SectionSpec {
  readonly key: SectionKey;
  /** Canonical title, e.g. `HUMAN_IN_THE_LOOP`. */
  readonly title: string;
  /** Normalised titles that name this section. */
  readonly titles: readonly string[];
  /** The aliases as written in the schema (`x-section.aliases`), English and Chinese. */
  readonly aliases: readonly string[];
  readonly required: boolean;
  /**
   * `x-section.anyCase`: the canonical title is one only a contract uses (`Memory Contract`,
   * `Failure Protocol`), so it marks a contract whatever its case (docs/contract-format.md §1).
   */
  readonly anyCase: boolean;
  /** `object`: fields; `array`: a list of items; `schema`: a free JSON Schema (OUTPUT_SCHEMA). */
  readonly shape: 'object' | 'array' | 'schema';
  readonly schema: JsonSchema;
  /** Object sections: the section's fields; array sections: the fields of each item. */
  readonly fields: readonly FieldSpec[];
  readonly bullets?: BulletForm;
  readonly headingItems: boolean;
}

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    let node: unknown = root;
    for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown> | undefined)?.[part];
    if (node && typeof node === 'object') return { ...(node as JsonSchema), ...schema, $ref: undefined };
  }
  return schema;
}

function typesOf(schema: JsonSchema): string[] {
  const t = schema['type'];
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  for (const k of ['oneOf', 'anyOf'] as const) {
    const alts = schema[k];
    if (Array.isArray(alts)) return alts.flatMap((a) => typesOf(a as JsonSchema));
  }
  return [];
}

function fieldsOf(schema: JsonSchema, root: JsonSchema): FieldSpec[] {
  const props = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  return Object.entries(props).map(([key, raw]) => {
    const s = resolve(raw, root);
    const aliases = Array.isArray(s['x-aliases']) ? (s['x-aliases'] as string[]) : [];
    const labels = [...new Set([normaliseLabel(key), ...aliases.map(normaliseLabel)])].filter(Boolean);
    const items = s['items'] && typeof s['items'] === 'object' ? resolve(s['items'] as JsonSchema, root) : undefined;
    const declares = (s['x-declares'] ?? items?.['x-declares']) as NameKind | undefined;
    const reference = (s['x-reference'] ?? items?.['x-reference']) as NameKind | undefined;
    const seps = Array.isArray(s['x-list-separators']) ? (s['x-list-separators'] as string[]) : [];
    const listSeparators = seps.length > 0 ? new RegExp(seps.map((c) => c.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&')).join('|')) : undefined;
    return { key, labels, types: typesOf(s), schema: s, ...(declares ? { declares } : {}), ...(reference ? { reference } : {}), ...(listSeparators ? { listSeparators } : {}) };
  });
}

function buildSpecs(): SectionSpec[] {
  const props = (contractSchema['properties'] ?? {}) as Record<string, JsonSchema>;
  const specs: SectionSpec[] = [];
  for (const [key, prop] of Object.entries(props)) {
    const meta = prop['x-section'] as { title: string; aliases?: string[]; required?: boolean; anyCase?: boolean } | undefined;
    if (!meta) continue;
    const ref = (prop['$ref'] ?? (prop['allOf'] as JsonSchema[] | undefined)?.[0]?.['$ref']) as string | undefined;
    const schema = (ref && schemaById(ref)) || prop;
    const isArray = typesOf(schema).includes('array');
    const shape = key === 'output_schema' ? 'schema' : isArray ? 'array' : 'object';
    const itemSchema = isArray && schema['items'] ? resolve(schema['items'] as JsonSchema, schema) : undefined;
    const fields = shape === 'object' ? fieldsOf(schema, schema) : itemSchema ? fieldsOf(itemSchema, schema) : [];
    const titles = [...new Set([meta.title, key, ...(meta.aliases ?? [])].map(normaliseLabel))];
    specs.push({
      key: key as SectionKey,
      title: meta.title,
      titles,
      aliases: meta.aliases ?? [],
      required: meta.required === true,
      anyCase: meta.anyCase === true,
      shape,
      schema,
      fields,
      ...(typeof schema['x-bullets'] === 'string' ? { bullets: schema['x-bullets'] as BulletForm } : {}),
      headingItems: schema['x-heading-items'] === true,
    });
  }
  return specs;
}

/** Every known section, in the contract schema's order. */
export const SECTIONS: readonly SectionSpec[] = buildSpecs();

const byTitle = new Map<string, SectionSpec>();
for (const spec of SECTIONS) for (const t of spec.titles) if (!byTitle.has(t)) byTitle.set(t, spec);

/** The section a heading names, if any (after normalisation). */
export function sectionForTitle(title: string): SectionSpec | undefined {
  return byTitle.get(normaliseLabel(title));
}

/** The section with this model key. */
export function sectionByKey(key: string): SectionSpec | undefined {
  return SECTIONS.find((s) => s.key === key);
}

/** All normalised section titles, for "did you mean" suggestions. */
export function allSectionTitles(): IterableIterator<string> {
  return byTitle.keys();
}

/** The field of `fields` a label names, if any. */
export function fieldForLabel(fields: readonly FieldSpec[], label: string): FieldSpec | undefined {
  const n = normaliseLabel(label);
  return fields.find((f) => f.labels.includes(n));
}

/** The front-matter fields (top-level non-section properties of the contract schema). */
export const FRONT_MATTER_FIELDS: readonly FieldSpec[] = fieldsOf(
  {
    properties: Object.fromEntries(
      Object.entries((contractSchema['properties'] ?? {}) as Record<string, JsonSchema>).filter(([, p]) => !p['x-section']),
    ),
  },
  contractSchema,
);
