// The contract schema's validators are generated at build time as ajv's standalone code
// (server/src/service/validate/contractValidators.cjs, scripts/contractValidators.ts); that the
// committed file is what the schemas generate is test/generated.test.ts's job. Here: the generated
// validators give exactly the errors (keyword, paths, params, message, and the verbose schema,
// parentSchema and data the messages read) that ajv's run-time compile of the same schemas gives,
// over every sample, the contract corpora, and mutated contract data; the same for the 2020-12
// meta-schema's validator (user-written tool schemas) over their schemas, mutated.
// Run: node --import tsx --test test/contractValidators.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseContract } from '../server/src/service/index.ts';
import { compileConfigValidator, compileContractValidators, compileMetaSchema, configValidator, contractValidators, metaSchemaValidator, type ErrorObject } from '../server/src/service/validate/ajv.ts';
import { parse as parseYaml } from 'yaml';
import { repo } from './helpers/bundles.ts';
import { RUNS } from './helpers/properties.ts';

const runtime = compileContractValidators().validators;
const generated = contractValidators();

/** Every Markdown file under `dir`. */
const markdown = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? markdown(p) : p.endsWith('.md') ? [p] : [];
  });

const samples = readdirSync(join(repo, 'samples')).map((d) => join(repo, 'samples', d, 'AGENTS.md')).filter((p) => existsSync(p));
const corpora = ['test/corpus', 'test/diff-corpus', 'test/prove-corpus'].flatMap((d) => markdown(join(repo, d)));
const contracts = [...samples, ...corpora].map((path) => ({ path, data: parseContract(readFileSync(path, 'utf8')).data }));

/** Each validator's errors for `data`, by key: `tools` for the value, `tools/items/3` for an item. */
function errors(validators: Readonly<Record<string, (v: unknown) => boolean>>, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const run = (at: string, key: string, value: unknown) => {
    const v = validators[key] as ((v: unknown) => boolean) & { errors?: ErrorObject[] | null };
    out[at] = { valid: v(value), errors: v.errors ?? null };
  };
  for (const key of Object.keys(runtime).filter((k) => !k.endsWith('/items'))) {
    if (!(key in data)) continue;
    run(key, key, data[key]);
    const value = data[key];
    if (`${key}/items` in runtime && Array.isArray(value)) value.forEach((item, i) => run(`${key}/items/${i}`, `${key}/items`, item));
  }
  return out;
}

test('the generated validators are the run-time compiled ones, key for key', () => {
  assert.deepEqual(Object.keys(generated), Object.keys(runtime));
});

test('the generated validators give the run-time errors on every sample and corpus contract', () => {
  assert.ok(samples.length >= 5 && corpora.length >= 50, `${samples.length} samples, ${corpora.length} corpus files`);
  let failing = 0;
  for (const { path, data } of contracts) {
    const expected = errors(runtime, data);
    assert.deepEqual(errors(generated, data), expected, path);
    failing += Object.values(expected).filter((e) => !(e as { valid: boolean }).valid).length;
  }
  // The corpora hold planted mistakes: the comparison covers errors, not only valid values.
  assert.ok(failing > 0, 'some value is invalid');
});

/** A value that often breaks a schema: wrong types, near-miss enum words, pattern edge cases. */
const mutant = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('', ' ', 'read', 'reed', 'write', 'none', '60', '60s', '5m', 'true', '-1', '1e9', '2026-13-01', 'https://', 'a\nb', '^(a+)+$', '\u00e9', '契约'),
  fc.string({ maxLength: 8 }),
  fc.integer({ min: -5, max: 1e6 }),
);

/** `data` with the value at the path (indexes into keys or items, modulo their count) replaced, or removed. */
function mutate(data: Readonly<Record<string, unknown>>, path: readonly number[], value: unknown, remove: boolean): Record<string, unknown> {
  const copy = structuredClone(data) as Record<string, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (let i = 0; i < path.length; i++) {
    const keys = Array.isArray(at) ? at.map((_, j) => j) : Object.keys(at);
    if (keys.length === 0) break;
    const key = keys[path[i]! % keys.length]!;
    const next = at[key];
    if (i === path.length - 1 || next === null || typeof next !== 'object') {
      if (remove && !Array.isArray(at)) delete at[key];
      else at[key] = value;
      break;
    }
    at = next as Record<string | number, unknown>;
  }
  return copy;
}

test('the generated validators give the run-time errors on mutated contract data (property)', () => {
  const sampleData = contracts.slice(0, samples.length).map((c) => c.data);
  fc.assert(
    fc.property(fc.constantFrom(...sampleData), fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), mutant, fc.boolean(), (data, path, value, remove) => {
      const mutated = mutate(data, path, value, remove);
      assert.deepEqual(errors(generated, mutated), errors(runtime, mutated));
    }),
    { numRuns: RUNS(400) },
  );
});

const runtimeMeta = compileMetaSchema().validators['2020-12']!;
const generatedMeta = metaSchemaValidator();
const metaErrors = (v: typeof runtimeMeta, schema: unknown) => ({ valid: v(schema), errors: v.errors ?? null });

/** The user-written JSON Schemas of a contract: tools' input and output schemas, the output schema. */
function userSchemas(data: Readonly<Record<string, unknown>>): unknown[] {
  const tools = Array.isArray(data['tools']) ? (data['tools'] as Record<string, unknown>[]) : [];
  return [data['output_schema'], ...tools.flatMap((t) => (t && typeof t === 'object' ? [t['input_schema'], t['output_schema']] : []))].filter((s) => s !== undefined);
}
const schemas = contracts.flatMap((c) => userSchemas(c.data));

test('the generated 2020-12 meta-schema validator gives the run-time errors on every contract\'s schemas', () => {
  assert.ok(schemas.length >= 20, `${schemas.length} schemas`);
  for (const schema of schemas) assert.deepEqual(metaErrors(generatedMeta, schema), metaErrors(runtimeMeta, schema), JSON.stringify(schema));
});

/** Keywords and values that a schema gets wrong: misspelt types, bad patterns, anchors, refs. */
const schemaMutant = fc.oneof(
  mutant,
  fc.constantFrom('strin', 'object', ['string', 'null'], ['strin'], { type: 'string' }, { $ref: 5 }, { $anchor: '1x' }, { pattern: '(' }, { format: 'regex' }, { enum: [] }, { minimum: 'a' }, { required: ['a', 'a'] }, { $dynamicRef: '#meta' }),
);

test('the generated 2020-12 meta-schema validator gives the run-time errors on mutated schemas (property)', () => {
  const wrap = (s: unknown) => ({ s });
  fc.assert(
    fc.property(fc.constantFrom(...schemas), fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), schemaMutant, fc.boolean(), (schema, path, value, remove) => {
      const mutated = mutate(wrap(schema), path, value, remove)['s'];
      assert.deepEqual(metaErrors(generatedMeta, mutated), metaErrors(runtimeMeta, mutated));
    }),
    { numRuns: RUNS(400) },
  );
});

const runtimeConfig = compileConfigValidator().validators['config']!;
const generatedConfig = configValidator();
/** Every configuration file of the repository (samples, corpora), and one that sets every setting. */
const configs: unknown[] = [
  ...['samples', 'test'].flatMap((d) => configFiles(join(repo, d))).map((p) => parseYaml(readFileSync(p, 'utf8'))),
  { extends: 'strict', rules: { 'unknown-pool': 'warning', 'tool-tokens-budget': { severity: 'error', options: { budget: 2000 } } }, contracts: { include: ['**/AGENTS.md'], exclude: ['vendor/**'] }, sharedPools: [{ name: 'audit_log', owner: 'platform' }], roles: ['ops'], resourceRoots: ['configs/resources'], model: { provider: 'openai', model: 'gpt-4o' }, diff: { impacts: { 'tool-removed': 'breaking' } } },
];

/** Every `.agents-md.json`/`.yaml`/`.yml` under `dir`, node_modules left out. */
function configFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (f === 'node_modules') return [];
    return statSync(p).isDirectory() ? configFiles(p) : /^\.agents-md\.(json|ya?ml)$/.test(f) ? [p] : [];
  });
}

test('the generated configuration validator gives the run-time errors on every config file and mutated ones (property)', () => {
  assert.ok(configs.length >= 8, `${configs.length} configuration files`);
  for (const config of configs) assert.deepEqual(metaErrors(generatedConfig, config), metaErrors(runtimeConfig, config), JSON.stringify(config));
  const wrap = (c: unknown) => ({ c });
  fc.assert(
    fc.property(fc.constantFrom(...configs), fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), schemaMutant, fc.boolean(), (config, path, value, remove) => {
      const mutated = mutate(wrap(config), path, value, remove)['c'];
      assert.deepEqual(metaErrors(generatedConfig, mutated), metaErrors(runtimeConfig, mutated));
    }),
    { numRuns: RUNS(400) },
  );
});
