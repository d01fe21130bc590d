// Attack suite, public bug reports from peers' trackers replayed against our service, file system
// and command line (docs/robustness.md, "Peers' reports" lists each with its link). Each input is
// one that hung, crashed or exhausted a peer; ours must return a sane result. The per-test timeout
// is a hang guard, not a speed target (speed lives in `npm run bench`).
// Run: node --import tsx --test test/attack/peers.test.ts
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLanguageService, parseContract, validateContract, type ContractDiagnostic } from '../../server/src/service/index.ts';
import { globFiles } from '../../server/src/node/nodeFileSystem.ts';
import { REPO } from '../helpers/cli.ts';

const GUARD = { timeout: 30_000 };
const FM = '---\ncontract: true\nname: peer\nversion: 1.0.0\n---\n\n## AGENT_IDENTITY\n\n- **Core Mandate**: ';
const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'agents-md-peers-'));
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Parses and validates `text`; fails on a thrown error or an internal-error diagnostic. */
function lint(text: string): ContractDiagnostic[] {
  const diagnostics = validateContract(parseContract(text), undefined);
  const internal = diagnostics.find((d) => d.code === 'internal-error');
  assert.equal(internal, undefined, internal?.message);
  return diagnostics;
}

describe('pathological Markdown (quadratic inline parsing in markdown parsers)', { concurrency: false }, () => {
  const cases: [string, string, number][] = [
    ['markdown-it#733', '\\``', 5000],
    ['markdown-it#735', '**_* ', 10000],
    ['markdown-it#737', '<', 200000],
    ['marked#1463', '~', 100000],
    ['Python-Markdown#798', '[]()', 20000],
    ['huntr#679 (markdown)', '*_', 5000],
    ['ours: one paragraph of *a_', '*a_', 5000],
  ];
  for (const [report, unit, n] of cases) {
    test(`${report}: ${JSON.stringify(unit)} × ${n} ends, and is either analysed or reported too complex`, GUARD, () => {
      const diagnostics = lint(`${FM}${unit.repeat(n)}\n`);
      assert.ok(diagnostics.length > 0);
    });
  }
  test('the same markers over many lines of one paragraph are capped too', GUARD, () => {
    const d = lint(`${FM}${'*a_\n'.repeat(5000)}`);
    assert.ok(d.some((x) => x.code === 'content-too-complex'), d.map((x) => x.code).join(', '));
  });
});

describe('huge and conflicted files (language servers running out of memory)', () => {
  test('vscode#177 (a 50 MB YAML file crashed the editor): a 50 MB contract is reported, not parsed', GUARD, async () => {
    const service = createLanguageService();
    const r = await service.lintBytes('file:///big/AGENTS.md', new Uint8Array(50 * 1024 * 1024).fill(0x61));
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['file-too-large']);
  });
  test('yaml-language-server#216, vscode-yaml#239 (git conflict markers: memory and CPU blow up): conflicts in front matter and YAML blocks', GUARD, () => {
    const conflict = '<<<<<<< HEAD\nname: a\n=======\nname: b\n>>>>>>> branch\n';
    const text = `---\ncontract: true\n${conflict}version: 1.0.0\n---\n\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n${conflict.repeat(2000)}\`\`\`\n`;
    assert.ok(lint(text).length > 0);
  });
  test('yaml-language-server#1190 (loads forever, out of memory): a YAML bomb of aliases', GUARD, () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`)].join('\n');
    assert.ok(lint(`${FM}x\n\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n${bomb}\n\`\`\`\n`).length > 0);
  });
});

describe('file discovery (globs following links and node_modules)', () => {
  test('markdownlint-cli2#931 (links followed out of the scanned folder): a link to a contract outside is not listed', GUARD, async () => {
    const outside = temp();
    writeFileSync(join(outside, 'AGENTS.md'), 'x');
    const ws = temp();
    mkdirSync(join(ws, 'docs'));
    symlinkSync(join(outside, 'AGENTS.md'), join(ws, 'docs', 'ref.agents.md'));
    writeFileSync(join(ws, 'AGENTS.md'), 'x');
    assert.deepEqual(await globFiles(ws, ['**/AGENTS.md', '**/*.agents.md'], []), [join(ws, 'AGENTS.md')]);
  });
  test('totalist#1, node-glob#252 (link loops: infinite recursion): each real file is listed once', GUARD, async () => {
    const ws = temp();
    mkdirSync(join(ws, 'a', 'b'), { recursive: true });
    writeFileSync(join(ws, 'a', 'AGENTS.md'), 'x');
    symlinkSync('../..', join(ws, 'a', 'b', 'up'));
    symlinkSync('.', join(ws, 'a', 'self'));
    assert.deepEqual(await globFiles(ws, ['**/AGENTS.md'], []), [join(ws, 'a', 'AGENTS.md')]);
  });
  test('quran-search-engine#99 (nested node_modules scanned: out of memory): the default excludes skip them at any depth', GUARD, async () => {
    const ws = temp();
    mkdirSync(join(ws, 'examples', 'x', 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(ws, 'examples', 'x', 'node_modules', 'dep', 'AGENTS.md'), 'x');
    writeFileSync(join(ws, 'AGENTS.md'), 'x');
    assert.deepEqual(await globFiles(ws, ['**/AGENTS.md'], ['**/node_modules/**', '**/.git/**']), [join(ws, 'AGENTS.md')]);
  });
});

test('pi-lens#1271 (a CLI hung reading a standard input left open): lint with an open stdin pipe ends', GUARD, async () => {
  const ws = temp();
  writeFileSync(join(ws, 'AGENTS.md'), `${FM}x\n`);
  const main = pathToFileURL(join(REPO, 'server', 'src', 'cli', 'main.ts')).href;
  const script = `import(${JSON.stringify(main)}).then((m) => m.main(['node', 'agents-md', 'lint', '.'])).then((c) => process.exit(c))`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ws, stdio: ['pipe', 'pipe', 'pipe'] });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  assert.equal(code, 1);
});
