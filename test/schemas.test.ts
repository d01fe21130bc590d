// Checks the JSON Schemas in schemas/ against docs/schema-conventions.md, and the complete example in
// docs/contract-format.md against the golden model in contract.schema.json (examples[0]).
// Run: node --import tsx --test test/schemas.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

type Schema = Record<string, unknown>;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const schemaDir = join(root, 'schemas');
const DRAFT = 'https://json-schema.org/draft/2020-12/schema';
const URN = 'urn:agents-md:schema:';

const ANNOTATIONS = [
  'x-section', 'x-aliases', 'x-bullets', 'x-heading-items', 'x-reference', 'x-declares', 'x-l10n', 'x-list-separators',
  'markdownDescription', 'enumDescriptions', 'defaultSnippets',
];
const REFERENCE_KINDS = ['tool', 'pool', 'role', 'entity', 'scenario', 'resource', 'layer'];
const BULLET_FORMS = ['string', 'labelled', 'failure-entry', 'freshness'];

/** Model keys and canonical section titles from docs/schema-conventions.md. */
const SECTIONS: Record<string, string> = {
  identity: 'AGENT_IDENTITY',
  memory_contract: 'MEMORY_CONTRACT',
  memory_policy: 'MEMORY_POLICY',
  memory_freshness: 'MEMORY_FRESHNESS',
  memory_pools: 'MEMORY_POOLS',
  memory_requirements: 'MEMORY_REQUIREMENTS',
  trigger: 'TRIGGER',
  tools: 'TOOLS',
  constraints: 'CONSTRAINTS',
  output_schema: 'OUTPUT_SCHEMA',
  failure_protocol: 'FAILURE_PROTOCOL',
  human_in_the_loop: 'HUMAN_IN_THE_LOOP',
  budgets: 'BUDGETS',
  task: 'TASK',
  versioning: 'VERSIONING & AUDIT',
  compliance: 'COMPLIANCE',
  resources: 'RESOURCES',
  semantic_anchors: 'SEMANTIC_ANCHORS',
  user_stories: 'USER_STORIES',
};
const FRONT_MATTER_KEYS = ['contract', 'name', 'version', 'description'];

interface SchemaFile {
  path: string;
  stem: string;
  text: string;
  schema: Schema;
}

function loadSchemas(): SchemaFile[] {
  const files: string[] = [];
  for (const f of readdirSync(schemaDir)) if (f.endsWith('.schema.json')) files.push(join(schemaDir, f));
  for (const f of readdirSync(join(schemaDir, 'sections'))) {
    if (f.endsWith('.schema.json')) files.push(join(schemaDir, 'sections', f));
  }
  return files.sort().map((path) => {
    const text = readFileSync(path, 'utf8');
    return { path, stem: basename(path, '.schema.json'), text, schema: JSON.parse(text) as Schema };
  });
}

const files = loadSchemas();
const byStem = new Map(files.map((f) => [f.stem, f]));

function isObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function must<T>(v: T | undefined, what: string): T {
  assert.ok(v !== undefined, `missing ${what}`);
  return v;
}

function makeAjv(): InstanceType<typeof Ajv2020> {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addVocabulary(ANNOTATIONS);
  for (const f of files) ajv.addSchema(f.schema);
  return ajv;
}

/**
 * Label normalisation of docs/contract-format.md section 3, made stricter on purpose: spaces are
 * removed rather than collapsed, so every alias collision the parser could meet is found here.
 */
function normalise(title: string): string {
  let t = title.normalize('NFKC').replace(/[`*]/g, '').replace(/[\p{Extended_Pictographic}\uFE0F\u200D]/gu, '').trim();
  t = t.replace(/^(?:\d+(?:\.\d+)*[.)、]?|[-–—•])\s*/u, '');
  t = t.replace(/\s+[-–—]\s+.*$/u, '').replace(/\s*[(（].*$/u, '').replace(/\s*[:：].*$/u, '');
  return t.toLowerCase().replace(/[_&/-]+/g, ' ').replace(/\band\b/g, ' ').replace(/\s+/g, '');
}

interface Site {
  file: SchemaFile;
  pointer: string; // JSON pointer inside the file
  name: string; // property name
  schema: Schema;
  parent: Schema;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Visit every subschema; report every entry of every `properties` map as a property site. */
function walk(
  file: SchemaFile,
  schema: unknown,
  pointer: string,
  onSchema: (s: Schema, pointer: string, conditional: boolean) => void,
  onProperty: (site: Site, conditional: boolean) => void,
  conditional = false,
): void {
  if (!isObject(schema)) return;
  onSchema(schema, pointer, conditional);
  const props = schema['properties'];
  if (isObject(props)) {
    for (const [name, sub] of Object.entries(props)) {
      const p = `${pointer}/properties/${escapePointer(name)}`;
      if (isObject(sub)) onProperty({ file, pointer: p, name, schema: sub, parent: schema }, conditional);
      else assert.ok(conditional && sub === true, `${file.stem}${p}: boolean property schemas only in if/then/else`);
      walk(file, sub, p, onSchema, onProperty, conditional);
    }
  }
  for (const key of ['items', 'additionalProperties', 'propertyNames', 'not', 'contains']) {
    if (isObject(schema[key])) walk(file, schema[key], `${pointer}/${key}`, onSchema, onProperty, conditional);
  }
  for (const key of ['if', 'then', 'else']) {
    if (isObject(schema[key])) walk(file, schema[key], `${pointer}/${key}`, onSchema, onProperty, true);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const list = schema[key];
    if (Array.isArray(list)) {
      list.forEach((sub, i) => walk(file, sub, `${pointer}/${key}/${i}`, onSchema, onProperty, conditional));
    }
  }
  const defs = schema['$defs'];
  if (isObject(defs)) {
    for (const [name, sub] of Object.entries(defs)) {
      walk(file, sub, `${pointer}/$defs/${escapePointer(name)}`, onSchema, onProperty, conditional);
    }
  }
}

function allSites(): { schemas: { file: SchemaFile; schema: Schema; pointer: string; conditional: boolean }[]; props: Site[] } {
  const schemas: { file: SchemaFile; schema: Schema; pointer: string; conditional: boolean }[] = [];
  const props: Site[] = [];
  for (const file of files) {
    walk(
      file,
      file.schema,
      '',
      (schema, pointer, conditional) => schemas.push({ file, schema, pointer, conditional }),
      (site, conditional) => {
        if (!conditional) props.push(site);
      },
    );
  }
  return { schemas, props };
}

const { schemas: allSubschemas, props: allProps } = allSites();

function refFor(file: SchemaFile, pointer: string): string {
  const id = file.schema['$id'] as string;
  return `${id}#${pointer.split('/').map(encodeURIComponent).join('/')}`;
}

function l10n(s: Schema): Schema | undefined {
  const x = s['x-l10n'];
  if (!isObject(x)) return undefined;
  const zh = x['zh-cn'];
  return isObject(zh) ? zh : undefined;
}

const CJK = /[\u4e00-\u9fff]/u;

// ------------------------------------------------------------------------------------------------

test('every schema file is 2-space JSON with the 2020-12 $schema and a urn $id', () => {
  assert.ok(files.length >= 3 + Object.keys(SECTIONS).length - 1, 'schema files found');
  for (const f of files) {
    assert.equal(f.text, `${JSON.stringify(f.schema, null, 2)}\n`, `${f.stem}: not 2-space formatted JSON`);
    assert.equal(f.schema['$schema'], DRAFT, `${f.stem}: $schema`);
    assert.equal(f.schema['$id'], `${URN}${f.stem}`, `${f.stem}: $id`);
  }
});

test('there is one section schema per model key, and nothing else', () => {
  const sectionStems = files.filter((f) => f.path.includes(`${join('schemas', 'sections')}`)).map((f) => f.stem);
  assert.deepEqual(sectionStems.sort(), Object.keys(SECTIONS).map((k) => k.replace(/_/g, '-')).sort());
  assert.ok(byStem.has('contract'), 'contract.schema.json');
  assert.ok(byStem.has('config'), 'config.schema.json');
});

test('every schema compiles with ajv in strict mode and is valid against the 2020-12 meta-schema', () => {
  const ajv = makeAjv();
  for (const f of files) {
    assert.equal(ajv.validateSchema(f.schema), true, `${f.stem}: ${ajv.errorsText(ajv.errors)}`);
    const validate = ajv.getSchema(f.schema['$id'] as string);
    assert.ok(validate, `${f.stem}: compiles`);
  }
});

test('every property has title, markdownDescription, examples and a Chinese x-l10n', () => {
  assert.ok(allProps.length > 100, `found ${allProps.length} properties`);
  for (const site of allProps) {
    const where = `${site.file.stem}${site.pointer}`;
    const s = site.schema;
    assert.equal(typeof s['title'], 'string', `${where}: title`);
    assert.equal(typeof s['markdownDescription'], 'string', `${where}: markdownDescription`);
    assert.ok((s['markdownDescription'] as string).length >= 10, `${where}: markdownDescription too short`);
    assert.ok(Array.isArray(s['examples']) && s['examples'].length > 0, `${where}: examples`);
    const zh = l10n(s);
    assert.ok(zh, `${where}: x-l10n.zh-cn`);
    assert.equal(typeof zh['title'], 'string', `${where}: x-l10n title`);
    assert.equal(typeof zh['markdownDescription'], 'string', `${where}: x-l10n markdownDescription`);
    assert.match(`${zh['title'] as string}${zh['markdownDescription'] as string}`, CJK, `${where}: zh-cn is Chinese`);
  }
});

test('section roots, item schemas and the contract/config roots are documented in both languages', () => {
  for (const { file, schema, pointer, conditional } of allSubschemas) {
    if (conditional) continue;
    const isRoot = pointer === '';
    const isItem = pointer.endsWith('/items') && isObject(schema['properties']);
    if (!isRoot && !isItem) continue;
    const where = `${file.stem}${pointer || '/'}`;
    assert.equal(typeof schema['title'], 'string', `${where}: title`);
    assert.equal(typeof schema['markdownDescription'], 'string', `${where}: markdownDescription`);
    const zh = l10n(schema);
    assert.ok(zh && typeof zh['title'] === 'string' && typeof zh['markdownDescription'] === 'string', `${where}: x-l10n`);
    assert.match(zh['markdownDescription'] as string, CJK, `${where}: zh-cn is Chinese`);
    if (isRoot) assert.ok(Array.isArray(schema['examples']) && schema['examples'].length > 0, `${where}: examples`);
  }
});

test('every enum has enumDescriptions of the same length (and so does its Chinese translation)', () => {
  let enums = 0;
  for (const { file, schema, pointer } of allSubschemas) {
    const values = schema['enum'];
    if (!Array.isArray(values)) continue;
    enums++;
    const where = `${file.stem}${pointer}`;
    const desc = schema['enumDescriptions'];
    assert.ok(Array.isArray(desc) && desc.length === values.length, `${where}: enumDescriptions`);
    // The rule-code list is generated from the rule catalogue (scripts/generated.ts), whose
    // English summaries are its descriptions; its Chinese texts come with the catalogue's.
    if (file.stem === 'config' && pointer === '/properties/rules/propertyNames') continue;
    const zh = isObject(schema['x-l10n']) ? (schema['x-l10n'] as Schema)['zh-cn'] : undefined;
    assert.ok(isObject(zh), `${where}: x-l10n`);
    const zhDesc = zh['enumDescriptions'];
    assert.ok(Array.isArray(zhDesc) && zhDesc.length === values.length, `${where}: zh-cn enumDescriptions`);
  }
  assert.ok(enums >= 8, `found ${enums} enums`);
});

test('the examples of every property, section and root validate against their own schema', () => {
  const ajv = makeAjv();
  let checked = 0;
  const check = (file: SchemaFile, pointer: string, examples: unknown): void => {
    if (!Array.isArray(examples)) return;
    const validate = ajv.compile({ $ref: refFor(file, pointer) });
    examples.forEach((example, i) => {
      checked++;
      assert.ok(
        validate(example),
        `${file.stem}${pointer || '/'} examples[${i}]: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(example)}`,
      );
    });
  };
  for (const site of allProps) check(site.file, site.pointer, site.schema['examples']);
  for (const { file, schema, pointer, conditional } of allSubschemas) {
    if (!conditional && (pointer === '' || pointer.endsWith('/items'))) check(file, pointer, schema['examples']);
  }
  assert.ok(checked > 150, `checked ${checked} examples`);
});

test('objects whose keys users write as labels are closed; holes are plain objects', () => {
  for (const { file, schema, pointer } of allSubschemas) {
    if (!isObject(schema['properties']) || pointer.includes('/if') || pointer.includes('/then')) continue;
    assert.equal(schema['additionalProperties'], false, `${file.stem}${pointer || '/'}: additionalProperties false`);
  }
  const holes = [
    ['tools', '/items/properties/input_schema'],
    ['tools', '/items/properties/output_schema'],
    ['constraints', '/items/properties/schema'],
    ['output-schema', ''],
  ] as const;
  for (const [stem, pointer] of holes) {
    const file = must(byStem.get(stem), stem);
    const s = allSubschemas.find((x) => x.file === file && x.pointer === pointer);
    assert.ok(s, `${stem}${pointer}`);
    assert.equal(s.schema['type'], 'object', `${stem}${pointer}: type object`);
    assert.equal(s.schema['properties'], undefined, `${stem}${pointer}: no properties`);
    assert.equal(s.schema['additionalProperties'], undefined, `${stem}${pointer}: open`);
  }
});

test('custom keywords have the values the conventions allow', () => {
  for (const { file, schema, pointer } of allSubschemas) {
    const where = `${file.stem}${pointer || '/'}`;
    for (const key of ['x-reference', 'x-declares']) {
      const kind = schema[key];
      if (kind === undefined) continue;
      assert.ok(REFERENCE_KINDS.includes(kind as string), `${where}: ${key} ${String(kind)}`);
      const type = schema['type'];
      const items = isObject(schema['items']) ? schema['items'] : undefined;
      const ok = type === 'string' || (type === 'array' && items !== undefined);
      assert.ok(ok, `${where}: ${key} only on strings or lists`);
    }
    if (schema['x-bullets'] !== undefined) {
      assert.ok(BULLET_FORMS.includes(schema['x-bullets'] as string), `${where}: x-bullets`);
      assert.equal(schema['type'], 'array', `${where}: x-bullets on an array`);
    }
    if (schema['x-heading-items'] !== undefined) {
      assert.equal(schema['x-heading-items'], true, `${where}: x-heading-items`);
      const items = schema['items'];
      assert.ok(isObject(items) && isObject(items['properties']) && 'name' in items['properties'], `${where}: items have a name`);
    }
    const aliases = schema['x-aliases'];
    if (aliases !== undefined) {
      assert.ok(Array.isArray(aliases) && aliases.length > 0, `${where}: x-aliases is a list`);
      for (const a of aliases) {
        assert.ok(typeof a === 'string' && normalise(a).length > 0, `${where}: alias ${String(a)}`);
      }
    }
  }
});

test('labels are unambiguous: no alias names two fields of the same object', () => {
  for (const { file, schema, pointer } of allSubschemas) {
    const props = schema['properties'];
    if (!isObject(props)) continue;
    const owner = new Map<string, string>();
    for (const [name, sub] of Object.entries(props)) {
      if (!isObject(sub)) continue;
      const labels = [name, ...((sub['x-aliases'] as string[] | undefined) ?? [])];
      for (const label of new Set(labels.map(normalise))) {
        const prev = owner.get(label);
        assert.ok(prev === undefined || prev === name, `${file.stem}${pointer}: "${label}" names ${prev} and ${name}`);
        owner.set(label, name);
      }
    }
  }
});

// Snapshots (schemas/snapshot.schema.json) are YAML/JSON files, not Markdown: their keys have no label aliases.
test('bullet-label fields in Markdown-written objects all carry x-aliases with a Chinese label', () => {
  const markdownWritten = allProps.filter(
    (p) => p.file.stem !== 'config' && p.file.stem !== 'contract' && p.file.stem !== 'snapshot' && !p.pointer.includes('/then/'),
  );
  for (const site of markdownWritten) {
    const aliases = site.schema['x-aliases'];
    assert.ok(Array.isArray(aliases), `${site.file.stem}${site.pointer}: x-aliases`);
    assert.ok(
      aliases.some((a) => typeof a === 'string' && CJK.test(a)),
      `${site.file.stem}${site.pointer}: a Chinese alias`,
    );
  }
});

test('contract.schema.json has the front matter keys and one $ref + x-section per model key', () => {
  const contract = must(byStem.get('contract'), 'contract').schema;
  const props = contract['properties'] as Record<string, Schema>;
  assert.deepEqual(Object.keys(props).sort(), [...FRONT_MATTER_KEYS, ...Object.keys(SECTIONS)].sort());
  for (const key of FRONT_MATTER_KEYS) assert.equal(must(props[key], key)['x-section'], undefined, key);
  const seen = new Map<string, string>();
  for (const [key, title] of Object.entries(SECTIONS)) {
    const p = must(props[key], key);
    assert.equal(p['$ref'], `${URN}${key.replace(/_/g, '-')}`, `${key}: $ref`);
    const section = p['x-section'];
    assert.ok(isObject(section), `${key}: x-section`);
    assert.equal(section['title'], title, `${key}: canonical title`);
    assert.equal(typeof section['required'], 'boolean', `${key}: x-section.required`);
    const aliases = section['aliases'];
    assert.ok(Array.isArray(aliases) && aliases.length > 0, `${key}: aliases`);
    assert.ok(aliases.some((a) => typeof a === 'string' && CJK.test(a)), `${key}: a Chinese title`);
    for (const t of new Set([title, key, ...(aliases as string[])].map(normalise))) {
      const prev = seen.get(t);
      assert.ok(prev === undefined || prev === key, `section title "${t}" names ${prev} and ${key}`);
      seen.set(t, key);
    }
  }
  for (const t of ['Role & Scope', 'Versioning & Audit', 'Human in the Loop', '智能体身份', '人工介入', '失败协议', '版本与审计']) {
    assert.ok(seen.has(normalise(t)), `section alias ${t}`);
  }
  assert.equal(seen.get(normalise('1. 写入准入')), undefined, 'field headings are not section titles');
});

test('Chinese and English H3 titles and table headers reach the right fields', () => {
  const field = (stem: string, pointer: string, label: string): string | undefined => {
    const s = allSubschemas.find((x) => x.file.stem === stem && x.pointer === pointer);
    assert.ok(s, `${stem}${pointer}`);
    const props = s.schema['properties'] as Record<string, Schema>;
    for (const [name, sub] of Object.entries(props)) {
      const labels = [name, ...((sub['x-aliases'] as string[] | undefined) ?? [])];
      if (labels.some((l) => normalise(l) === normalise(label))) return name;
    }
    return undefined;
  };
  assert.equal(field('memory-policy', '', '1. 写入准入'), 'write_admission');
  assert.equal(field('memory-policy', '', '2. 时效熔断'), 'expiry');
  assert.equal(field('memory-policy', '', '3. 冲突仲裁'), 'conflict_arbitration');
  assert.equal(field('memory-policy', '', '4. 人工覆盖'), 'human_override');
  assert.equal(field('memory-policy', '', 'Time-based Expiry'), 'expiry');
  assert.equal(field('identity', '', 'Core Mandate'), 'core_mandate');
  assert.equal(field('identity', '', '核心使命'), 'core_mandate');
  assert.equal(field('memory-contract', '/items', 'Write By'), 'write_by');
  assert.equal(field('human-in-the-loop', '/items', 'Trigger Condition'), 'trigger_condition');
  assert.equal(field('versioning', '/items', 'Changed By'), 'changed_by');
  assert.equal(field('memory-pools', '/items', 'Pool 名称'), 'name');
  assert.equal(field('memory-pools', '/items', '元信息字段示例'), 'metadata');
  assert.equal(field('compliance', '', 'PII Handling'), 'pii_handling');
});

// ------------------------------------------------------------------------------------------------
// docs/contract-format.md: the complete example must agree with contract.schema.json examples[0].

const doc = readFileSync(join(root, 'docs', 'contract-format.md'), 'utf8');
const golden = (must(byStem.get('contract'), 'contract').schema['examples'] as Schema[])[0] as Schema;

interface Block {
  lang: string;
  text: string;
  h2: string;
  h3: string;
}

/** The fenced blocks of a Markdown text, with the H2 and H3 they sit under (fence-aware, indented fences too). */
function blocks(markdown: string): Block[] {
  const out: Block[] = [];
  let h2 = '';
  let h3 = '';
  let fence: { marker: string; lang: string; indent: number; lines: string[] } | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    if (fence) {
      const close = line.trim();
      if (close.startsWith(fence.marker) && close.replace(/[`~]/g, '') === '') {
        out.push({ lang: fence.lang, text: fence.lines.join('\n'), h2, h3 });
        fence = undefined;
      } else {
        fence.lines.push(line.slice(Math.min(fence.indent, line.length - line.trimStart().length)));
      }
      continue;
    }
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (open) {
      fence = { marker: open[2] as string, lang: (open[3] ?? '').toLowerCase(), indent: (open[1] ?? '').length, lines: [] };
      continue;
    }
    if (line.startsWith('## ')) {
      h2 = line.slice(3).trim();
      h3 = '';
    } else if (line.startsWith('### ')) h3 = line.slice(4).trim();
  }
  return out;
}

function exampleText(): string {
  const start = doc.indexOf('<!-- example:start -->');
  const end = doc.indexOf('<!-- example:end -->');
  assert.ok(start > 0 && end > start, 'example markers in docs/contract-format.md');
  const body = doc.slice(start, end).split('\n');
  const open = body.findIndex((l) => l.startsWith('`````markdown'));
  const close = body.lastIndexOf('`````');
  assert.ok(open >= 0 && close > open, 'example fence');
  return body.slice(open + 1, close).join('\n');
}

function frontMatter(markdown: string): unknown {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(markdown);
  assert.ok(m, 'front matter');
  const d = YAML.parseDocument(m[1] as string);
  assert.deepEqual(d.errors, [], 'front matter parses');
  return d.toJS();
}

function parse(block: Block): unknown {
  if (block.lang === 'json') return JSON.parse(block.text);
  const d = YAML.parseDocument(block.text);
  assert.deepEqual(d.errors.map((e) => e.message), [], `YAML block under ${block.h2} ${block.h3}`);
  return d.toJS();
}

function sectionKey(h2: string): string | undefined {
  const contract = must(byStem.get('contract'), 'contract').schema;
  for (const [key, p] of Object.entries(contract['properties'] as Record<string, Schema>)) {
    const s = p['x-section'];
    if (!isObject(s)) continue;
    const titles = [key, s['title'] as string, ...(s['aliases'] as string[])];
    if (titles.some((t) => normalise(t) === normalise(h2))) return key;
  }
  return undefined;
}

test('the golden model validates against contract.schema.json', () => {
  const ajv = makeAjv();
  const validate = must(ajv.getSchema(`${URN}contract`), 'contract');
  assert.ok(validate(golden), ajv.errorsText(validate.errors));
  for (const key of Object.keys(SECTIONS)) assert.ok(key in golden, `golden model has ${key}`);
});

test('the complete example in docs/contract-format.md agrees with the golden model', () => {
  const text = exampleText();
  const fm = frontMatter(text) as Schema;
  assert.deepEqual(fm, Object.fromEntries(FRONT_MATTER_KEYS.map((k) => [k, golden[k]])));

  const h2s = text.split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
  const keys = h2s.map((h) => sectionKey(h));
  assert.deepEqual(keys.filter((k) => k === undefined), [], `every H2 is recognised: ${h2s.join(', ')}`);
  assert.deepEqual([...keys].sort(), Object.keys(SECTIONS).sort(), 'every section appears once');

  const bs = blocks(text).filter((b) => ['yaml', 'yml', 'json'].includes(b.lang));
  const under = (key: string, h3 = ''): unknown[] =>
    bs.filter((b) => sectionKey(b.h2) === key && b.h3 === h3).map(parse);
  for (const key of ['memory_requirements', 'trigger', 'constraints', 'output_schema', 'task']) {
    assert.deepEqual(under(key), [golden[key]], `${key} block`);
  }
  const tools = golden['tools'] as Schema[];
  const [checkInventory, createDraft] = [must(tools[0], 'tool 0'), must(tools[1], 'tool 1')];
  assert.deepEqual(under('tools', 'check_inventory'), [checkInventory['input_schema'], checkInventory['output_schema']]);
  const [draft] = under('tools', 'create_approval_draft');
  assert.deepEqual({ name: 'create_approval_draft', ...(draft as Schema) }, createDraft);
});

test('the Chinese example front matter in docs/contract-format.md parses and validates; its unquoted form does not', () => {
  const exampleBlock = blocks(doc).find((b) => b.lang === 'markdown' && b.text.includes('name: diagnosis_v2'));
  assert.ok(exampleBlock, 'the diagnosis_v2 example in docs/contract-format.md');
  const fm = frontMatter(`${exampleBlock.text}\n`);
  const ajv = makeAjv();
  const validate = must(ajv.getSchema(`${URN}contract`), 'contract');
  assert.ok(validate(fm), ajv.errorsText(validate.errors));

  // Written unquoted: `{{x}}` is a YAML mapping (rejected by the schema), `{{x[:3]}}` a syntax error.
  const unquoted = YAML.parseDocument('- field: device_id\n  value: {{extracted_device_id}}\n', { logLevel: 'error' });
  assert.deepEqual(unquoted.errors, []);
  const requirement = [{ pool: 'device_log', filters: unquoted.toJS({ mapAsMap: false }) as unknown }];
  const validateReq = must(ajv.getSchema(`${URN}memory-requirements`), 'memory-requirements');
  assert.equal(validateReq(requirement), false, 'an unquoted template is not a valid filter value');
  const sliced = YAML.parseDocument('value: {{extracted_error_code[:3]}}\n');
  assert.ok(sliced.errors.length > 0, 'an unquoted sliced template is a YAML error');
});

test('the config schema accepts the documented defaults', () => {
  const ajv = makeAjv();
  const validate = must(ajv.getSchema(`${URN}config`), 'config');
  const config = must(byStem.get('config'), 'config').schema;
  const props = config['properties'] as Record<string, Schema>;
  assert.deepEqual(must(props['overrideReasons'], 'overrideReasons')['default'], ['data_error', 'policy_change', 'user_request']);
  assert.deepEqual(must(props['resourceRoots'], 'resourceRoots')['default'], ['configs/resources']);
  assert.ok(validate({ rules: { 'prose-rules': 'off', 'freshness-margin': { severity: 'error', options: { minutes: 60 } } } }));
  assert.equal(validate({ rules: { 'prose-rules': 'loud' } }), false);
  assert.equal(validate({ rules: { 'no-such-rule': 'off' } }), false, 'rule codes are the catalogue\'s (generated)');
  assert.equal(validate({ unknown: true }), false);
});
