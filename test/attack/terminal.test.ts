// Attack suite, the terminal (docs/robustness.md, "Terminal"): control sequences in a file name, a
// contract, a snapshot's query and the model's answer (clear screen, a forged line, an OSC 8 link,
// an OSC 52 clipboard write, a bidi override) never reach the terminal raw from `lint`, `run` or
// `trace show`, with or without colours; JSON output keeps its values.
// Run: node --import tsx --test test/attack/terminal.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCliBundle } from '../helpers/cli.ts';
import { CONTRACT, SNAPSHOT } from '../helpers/dryRun.ts';

const { bundle: cli, scratch } = useCliBundle('attack-cli');

const EVIL = '\x1b[2J\x1b[H\rOK all clear\x1b]8;;https://evil.example\x07link\x1b]8;;\x07\x1b]52;c;ZXZpbA==\x07\u202e\x9b31m';

/** Control characters left in `text`; with `colour`, SGR colour sequences are allowed. */
function raw(text: string, colour = false): string[] {
  const stripped = colour ? text.replace(/\x1b\[[0-9;]*m/g, '') : text;
  return [...stripped.matchAll(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g)].map((m) => JSON.stringify(m[0]));
}

test('lint: a hostile file name and contract text are printed escaped, with and without colours', async () => {
  const ws = scratch.workspace({});
  const name = `x${EVIL.replace(/[\/\x00]/g, '')}.agents.md`;
  writeFileSync(join(ws, name), `---\ncontract: true\nname: ${JSON.stringify(EVIL)}\nversion: 1\n---\n\n## ${EVIL}\n`);
  for (const flag of ['--no-color', '--color']) {
    const r = await cli.run(ws, 'lint', '.', flag);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(raw(r.stdout + r.stderr, flag === '--color'), [], flag);
    assert.match(r.stdout, /\\u001b\]52;c;ZXZpbA==/);
  }
  const json = await cli.run(ws, 'lint', '.', '--format', 'json');
  assert.ok((JSON.parse(json.stdout) as { file: string }[])[0]!.file.includes('\x1b]52;c;'), 'JSON keeps the real name');
});

test('run and trace show: a hostile query and model answer are printed escaped', async () => {
  const ws = scratch.workspace({
    'AGENTS.md': CONTRACT,
    'x.snapshot.yaml': SNAPSHOT.replace(/queries:[\s\S]*$/, `queries:\n  - id: q\n    query: ${JSON.stringify(`where is order ORD-123 ${EVIL}`)}\n    model:\n      - final: ${JSON.stringify(EVIL)}\n`),
  });
  const run = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'x.snapshot.yaml', '--no-color');
  assert.deepEqual(raw(run.stdout + run.stderr), []);
  assert.match(run.stdout, /\\u001b\[2J/);
  const runs = join(ws, '.agents-md', 'runs');
  const trace = join(runs, readdirSync(runs)[0]!, 'trace.jsonl');
  for (const flag of ['--no-color', '--color']) {
    const show = await cli.run(ws, 'trace', 'show', trace, flag);
    assert.deepEqual(raw(show.stdout + show.stderr, flag === '--color'), [], flag);
  }
  for (const sub of ['verify', 'replay']) assert.notEqual((await cli.run(ws, 'trace', sub, trace, '--no-color')).code, 2, `trace ${sub} takes --no-color`);
});
