/**
 * The CLI's output formats come from one registry (server/src/cli/format/registry.ts, docs/cli.md
 * "Output formats"): every command builds `-f, --format` from its formatters, in the registry's
 * order, with `--json` as the alias of `-f json` wherever JSON is one of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command, type Option } from 'commander';
import { buildProgram } from '../server/src/cli/main.ts';
import { chosenFormat, OUTPUT_FORMATS, render, withFormatOptions, type Formatters } from '../server/src/cli/format/registry.ts';
import { LINT_FORMATS } from '../server/src/cli/format/lint.ts';

const program = buildProgram('en', () => undefined);

function command(path: string): Command {
  let c: Command | undefined = program;
  for (const name of path.split(' ')) c = c?.commands.find((x) => x.name() === name);
  assert.ok(c, path);
  return c;
}

const option = (c: Command, long: string): Option | undefined => c.options.find((o) => o.long === long);

test('each command offers the formats that apply to it, named and ordered by the registry', () => {
  const expected: Record<string, string[]> = {
    lint: ['text', 'json', 'sarif', 'codequality', 'github'],
    rules: ['text', 'json'],
    report: ['text', 'json', 'markdown', 'html'],
    diff: ['text', 'json', 'markdown'],
    eval: ['text', 'json', 'junit'],
    run: ['text', 'json'],
    'trace fork': ['text', 'json'],
    'check-mcp': ['text', 'json', 'sarif', 'codequality', 'github'],
    conformance: ['text', 'json', 'sarif', 'markdown'],
  };
  for (const [path, formats] of Object.entries(expected)) {
    const c = command(path);
    const f = option(c, '--format');
    assert.equal(f?.short, '-f', `${path}: -f`);
    assert.deepEqual(f?.argChoices, formats, path);
    assert.deepEqual([...formats].sort((a, b) => OUTPUT_FORMATS.indexOf(a as never) - OUTPUT_FORMATS.indexOf(b as never)), formats, `${path}: registry order`);
    assert.equal(f?.defaultValue, 'text', path);
    // `--json` is kept everywhere JSON is a format.
    assert.ok(option(c, '--json'), `${path}: --json`);
  }
});

function parse(args: string[]): { format: string; json?: boolean } {
  const c = withFormatOptions(new Command('x').exitOverride().configureOutput({ writeErr: () => undefined }), LINT_FORMATS, 'en').action(() => undefined);
  c.parse(args, { from: 'user' });
  return c.opts();
}

test('--json is -f json; beside another -f it is a usage error; an unknown format is refused', () => {
  assert.equal(chosenFormat(parse([]) as never), 'text');
  assert.equal(chosenFormat(parse(['--json']) as never), 'json');
  assert.equal(chosenFormat(parse(['-f', 'sarif']) as never), 'sarif');
  assert.throws(() => parse(['--json', '-f', 'sarif']), /cannot be used with/);
  assert.throws(() => parse(['-f', 'html']), /Allowed choices are text, json, sarif, codequality, github/);
});

test('render calls the chosen formatter with the result and the context (one signature)', () => {
  const seen: unknown[] = [];
  const formatters: Formatters<number> = {
    text: (n, c) => `${n} ${c.lang}\n`,
    json: (n, c) => (seen.push(c), `${JSON.stringify({ n })}\n`),
  };
  const context = { cwd: '/w', lang: 'zh-cn', color: false } as const;
  assert.equal(render(formatters, { format: 'text' }, 3, context), '3 zh-cn\n');
  assert.equal(render(formatters, { format: 'text', json: true }, 3, context), '{"n":3}\n');
  assert.deepEqual(seen, [context]);
});

test('a command without JSON has no --json', () => {
  const c = withFormatOptions(new Command('x'), { text: () => '', markdown: () => '' }, 'en');
  assert.equal(option(c, '--json'), undefined);
  assert.deepEqual(option(c, '--format')?.argChoices, ['text', 'markdown']);
});
