// End-to-end tests of the `agents-md` command line: the real esbuild bundle started by the real
// launcher (bin/agents-md.cjs), on small workspaces made in temporary folders.
// Run: node --import tsx --test test/cli.test.ts
//
// The bundle is built once per file (test/helpers/cli.ts).
//
// The SARIF test also runs Microsoft's SARIF Multitool (GitHub code scanning's rules) when
// `npm ci --prefix tools/sarif` has installed it, and skips otherwise.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Sarif from 'sarif';
import { RULES } from '../server/src/service/host.ts';
import { displayWidth } from '../server/src/service/text/width.ts';
import { REPO, useCliBundle, type Run } from './helpers/cli.ts';
import { BAD_BUDGETS_CONTRACT, ONE_WARNING_BUDGETS } from './helpers/fixtures.ts';
import { MULTITOOL_MISSING, sarifMultitool, sarifProblems, validateSarif } from './helpers/sarifMultitool.ts';

const repo = REPO;
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };
const { bundle, scratch } = useCliBundle('cli');
const workspace = scratch.workspace;
const cli = bundle.run;
const cliWithEnv = bundle.runWithEnv;

function json(run: Run): JsonResult[] {
  return JSON.parse(run.stdout) as JsonResult[];
}

interface JsonPosition {
  line: number;
  character: number;
}
interface JsonResult {
  file: string;
  diagnostics: {
    code: string;
    severity: string;
    message: string;
    range: { start: JsonPosition; end: JsonPosition };
    line: number;
    column: number;
    endLine: number;
    endColumn: number;
    related: { file: string; message: string; range: { start: JsonPosition; end: JsonPosition }; line: number; column: number }[];
  }[];
}

// ---------------------------------------------------------------------------------------------
// Fixtures

const BAD = BAD_BUDGETS_CONTRACT;

/** A partial contract (one section) that passes: only the `partial-contract` info. */
const PARTIAL_OK = `## BUDGETS

- **Max Steps**: 20
- **Token Budget**: 10000
- **Timeout**: 60s
`;

const ONE_WARNING = ONE_WARNING_BUDGETS;

/** Two failure entries with the same code: an error with a related location. */
const DUPLICATE_CODE = `## FAILURE_PROTOCOL

- **If the API is down**: → Retry → Return error_code \`E001\`
- **If the input is empty**: → Return error_code \`E001\`
`;

/** A coding-agent AGENTS.md in the README style: free-form, never a contract. */
const FREEFORM = `# AGENTS.md

Guidance for coding agents working in this repository.

## Build

- Install with \`npm ci\`, build with \`npm run build\`.
- Run \`npm test\` before every commit.

## Code style

- TypeScript strict mode, ES modules.
- Two-space indentation; no default exports.
`;

// ---------------------------------------------------------------------------------------------


// All suites, and the tests in each, run concurrently (at most four CLI processes at once).
describe('agents-md CLI', { concurrency: true }, () => {
  describe('agents-md lint: text output', { concurrency: true }, () => {
    test('one line per diagnostic with 1-based positions, a summary, exit 1 on errors', async () => {
      const dir = workspace({ 'bad.agents.md': BAD });
      const text = await cli(dir, 'lint', 'bad.agents.md');
      assert.equal(text.code, 1, text.stderr);
      assert.doesNotMatch(text.stdout, /\x1b\[/, 'no ANSI codes when stdout is not a TTY');

      const lines = text.stdout.trimEnd().split('\n');
      const summary = lines.pop()!;
      assert.match(summary, /^✖ \d+ problems \(\d+ errors, \d+ warnings?(, \d+ info)?(, \d+ hints?)?\) in 1 file$/);

      // Every diagnostic of the JSON output appears as `path:line:col severity code message`, 1-based.
      const results = json(await cli(dir, 'lint', '--format', 'json', 'bad.agents.md'));
      const ds = results[0]!.diagnostics;
      assert.equal(lines.length, ds.length);
      for (const d of ds) {
        assert.ok(lines.includes(`bad.agents.md:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.code} ${d.message}`), `${d.code} at ${d.line}:${d.column}`);
      }
      const schema = lines.find((l) => / error schema /.test(l));
      assert.ok(schema, 'a schema error');
      assert.match(schema, /^bad\.agents\.md:8:\d+ error schema BUDGETS: Max Steps: must be of type integer\.$/);
      // "twenty" starts at column 18 of "- **Max Steps**: twenty".
      assert.equal(schema.split(' ')[0], `bad.agents.md:8:${'- **Max Steps**: '.length + 1}`);
      assert.ok(lines.some((l) => / error missing-section /.test(l)));

      const errors = ds.filter((d) => d.severity === 'error').length;
      assert.match(summary, new RegExp(`^✖ ${ds.length} problems \\(${errors} errors,`));
    });

    test('files are sorted, paths are relative to the working directory', async () => {
      const dir = workspace({ 'b/AGENTS.md': BAD, 'a/x.agents.md': BAD });
      const r = await cli(join(dir, 'b'), 'lint', '..');
      assert.equal(r.code, 1);
      const files = r.stdout.split('\n').filter((l) => l.includes(':')).map((l) => l.split(':')[0]);
      assert.deepEqual([...new Set(files)], ['../a/x.agents.md', 'AGENTS.md']);
      assert.match(r.stdout, /in 2 files\n$/);
    });

    test('a clean file exits 0 with "no problems"; info does not fail the run', async () => {
      const dir = workspace({ 'AGENTS.md': PARTIAL_OK });
      const r = await cli(dir, 'lint', 'AGENTS.md');
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /^AGENTS\.md:1:\d+ info partial-contract /m);
      assert.match(r.stdout, /^✖ 1 problem \(0 errors, 0 warnings, 1 info\) in 1 file$/m);

      const quiet = await cli(dir, 'lint', '--quiet');
      assert.equal(quiet.code, 0);
      assert.equal(quiet.stdout, '✔ no problems in 1 file\n');
    });

    test('a free-form AGENTS.md (coding-agent README) has no diagnostics', async () => {
      const dir = workspace({ 'AGENTS.md': FREEFORM });
      const r = await cli(dir, 'lint');
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.equal(r.stdout, '✔ no problems in 1 file\n');
      assert.deepEqual(json(await cli(dir, 'lint', '--format', 'json')), [{ file: 'AGENTS.md', diagnostics: [] }]);
    });

    test('--quiet shows errors only, --color forces ANSI codes', async () => {
      const dir = workspace({ 'bad.agents.md': BAD });
      const quiet = await cli(dir, 'lint', '-q', 'bad.agents.md');
      assert.equal(quiet.code, 1);
      const lines = quiet.stdout.trimEnd().split('\n').slice(0, -1);
      assert.ok(lines.length > 0);
      for (const l of lines) assert.match(l, /^bad\.agents\.md:\d+:\d+ error /);

      const color = await cli(dir, 'lint', '--color', 'bad.agents.md');
      assert.match(color.stdout, /\x1b\[31merror\x1b\[0m/);
    });
  });

  describe('agents-md lint: file selection', { concurrency: true }, () => {
    const files = {
      'AGENTS.md': PARTIAL_OK,
      'team/billing.agents.md': PARTIAL_OK,
      'team/notes.md': BAD,
      'node_modules/pkg/AGENTS.md': BAD,
      '.git/AGENTS.md': BAD,
    };

    test('directories are searched with the contracts.include globs, without node_modules and .git', async () => {
      const dir = workspace(files);
      const r = await cli(dir, 'lint', '--format', 'json');
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(json(r).map((f) => f.file), ['AGENTS.md', 'team/billing.agents.md']);
    });

    test('explicit files are linted whatever their name; globs are expanded', async () => {
      const dir = workspace(files);
      const explicit = await cli(dir, 'lint', '--format', 'json', 'team/notes.md');
      assert.equal(explicit.code, 1);
      assert.deepEqual(json(explicit).map((f) => f.file), ['team/notes.md']);

      const glob = await cli(dir, 'lint', '--format', 'json', 'team/*.md');
      assert.deepEqual(json(glob).map((f) => f.file), ['team/billing.agents.md', 'team/notes.md']);
    });

    test('a configuration file changes the include globs', async () => {
      const dir = workspace({ ...files, '.agents-md.json': JSON.stringify({ contracts: { include: ['**/*.md'] } }) });
      const r = await cli(dir, 'lint', '--format', 'json');
      assert.deepEqual(json(r).map((f) => f.file), ['AGENTS.md', 'team/billing.agents.md', 'team/notes.md']);
    });
  });

  describe('agents-md lint: exit codes', { concurrency: true }, () => {
    test('0 without errors, 1 with errors', async () => {
      const dir = workspace({ 'ok.agents.md': PARTIAL_OK, 'bad.agents.md': BAD });
      assert.equal((await cli(dir, 'lint', 'ok.agents.md')).code, 0);
      assert.equal((await cli(dir, 'lint', 'bad.agents.md')).code, 1);
      assert.equal((await cli(dir, 'lint')).code, 1);
    });

    test('2 for a missing path, and the others are still linted', async () => {
      const dir = workspace({ 'bad.agents.md': BAD });
      const r = await cli(dir, 'lint', 'nope.md', 'bad.agents.md');
      assert.equal(r.code, 2);
      assert.match(r.stderr, /nope\.md: no such file or directory/);
      assert.match(r.stdout, /^bad\.agents\.md:8:/m);
    });

    test('2 when a glob, or a directory given explicitly, matches no file', async () => {
      const dir = workspace({ 'empty/readme.txt': 'x', 'AGENTS.md': PARTIAL_OK });
      const glob = await cli(dir, 'lint', 'nothing/**/*.md');
      assert.equal(glob.code, 2);
      assert.match(glob.stderr, /nothing\/\*\*\/\*\.md: no files match/);
      const empty = await cli(dir, 'lint', 'empty');
      assert.equal(empty.code, 2);
      assert.match(empty.stderr, /empty: no contract files found/);
      // The implicit "." of a bare `agents-md lint` only notes it.
      const bare = await cli(join(dir, 'empty'), 'lint');
      assert.equal(bare.code, 0, bare.stderr);
      assert.match(bare.stderr, /no contract files found/);
      assert.equal(bare.stdout, '✔ no problems in 0 files\n');
    });

    test('2 for an unknown option, a bad option value, an unknown command or no command', async () => {
      const dir = workspace({ 'AGENTS.md': PARTIAL_OK });
      const unknown = await cli(dir, 'lint', '--bogus');
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /unknown option '--bogus'/);
      assert.equal((await cli(dir, 'lint', '--format', 'xml')).code, 2);
      assert.equal((await cli(dir, 'lint', '--max-warnings', 'many')).code, 2);
      assert.equal((await cli(dir, 'lint', '--root', 'nowhere')).code, 2);
      assert.equal((await cli(dir, 'frobnicate')).code, 2);
      assert.equal((await cli(dir)).code, 2);
    });

    test('0 for --help, help and --version', async () => {
      const dir = workspace({});
      const help = await cli(dir, 'lint', '--help');
      assert.equal(help.code, 0);
      assert.match(help.stdout, /Exit codes:\n\s+0 /);
      assert.equal((await cli(dir, 'help')).code, 0);
      const version = await cli(dir, '--version');
      assert.equal(version.code, 0);
      assert.equal(version.stdout.trim(), pkg.version);
    });

    test('2 for an invalid configuration file, printed as `path: message`', async () => {
      const dir = workspace({ 'AGENTS.md': PARTIAL_OK, '.agents-md.json': JSON.stringify({ rules: { 'no-such-rule': 'off' } }) });
      const r = await cli(dir, 'lint');
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^\.agents-md\.json: rules\.no-such-rule: unknown rule$/m);
      assert.equal(r.stderr.match(/no-such-rule/g)?.length, 1, 'each problem once');

      const impacts = workspace({ 'AGENTS.md': PARTIAL_OK, '.agents-md.json': JSON.stringify({ diff: { impacts: { 'guard-remove': 'neutral' } } }) });
      const i = await cli(impacts, 'lint');
      assert.equal(i.code, 2);
      assert.match(i.stderr, /^\.agents-md\.json: diff\.impacts\.guard-remove: unknown impact rule; did you mean guard-removed\?$/m);

      const broken = workspace({ 'AGENTS.md': PARTIAL_OK, '.agents-md.json': '{ "rules": ' });
      const b = await cli(broken, 'lint');
      assert.equal(b.code, 2);
      assert.match(b.stderr, /^\.agents-md\.json: is not valid JSON/m);
    });

    test('--max-warnings counts warnings (not info) and exits 1 above the limit', async () => {
      const dir = workspace({ 'warn.agents.md': ONE_WARNING, 'info.agents.md': PARTIAL_OK });
      const ds = json(await cli(dir, 'lint', '--format', 'json', 'warn.agents.md'))[0]!.diagnostics;
      assert.deepEqual(ds.map((d) => d.severity).sort(), ['info', 'warning']);
      assert.equal((await cli(dir, 'lint', 'warn.agents.md')).code, 0);
      assert.equal((await cli(dir, 'lint', '--max-warnings', '1', 'warn.agents.md')).code, 0);
      const over = await cli(dir, 'lint', '--max-warnings', '0', 'warn.agents.md');
      assert.equal(over.code, 1);
      assert.match(over.stderr, /1 warning found, more than --max-warnings 0 allows/);
      // Info does not count; --quiet hides the warning but it still counts.
      assert.equal((await cli(dir, 'lint', '--max-warnings', '0', 'info.agents.md')).code, 0);
      assert.equal((await cli(dir, 'lint', '--quiet', '--max-warnings', '0', 'warn.agents.md')).code, 1);
    });
  });

  describe('agents-md lint --format json', { concurrency: true }, () => {
    test('an array of { file, diagnostics } with 0-based ranges and 1-based line/column', async () => {
      const dir = workspace({ 'dup.agents.md': DUPLICATE_CODE, 'AGENTS.md': FREEFORM });
      const r = await cli(dir, 'lint', '--format', 'json');
      assert.equal(r.code, 1);
      const results = json(r);
      assert.deepEqual(results.map((f) => f.file), ['AGENTS.md', 'dup.agents.md']);
      const ds = results[1]!.diagnostics;
      assert.ok(ds.length > 0);
      for (const d of ds) {
        assert.deepEqual(Object.keys(d).sort(), ['args', 'code', 'column', 'endColumn', 'endLine', 'line', 'message', 'messageId', 'range', 'related', 'severity']);
        assert.equal(d.line, d.range.start.line + 1);
        assert.equal(d.column, d.range.start.character + 1);
        assert.equal(d.endLine, d.range.end.line + 1);
        assert.equal(d.endColumn, d.range.end.character + 1);
        assert.ok(['error', 'warning', 'info', 'hint'].includes(d.severity));
        assert.ok(Array.isArray(d.related));
      }
      const dup = ds.find((d) => d.code === 'failure-code-duplicate');
      assert.ok(dup, 'failure-code-duplicate reported');
      assert.equal(dup.line, 4);
      assert.equal(dup.related.length, 1);
      assert.equal(dup.related[0]!.file, 'dup.agents.md');
      assert.equal(dup.related[0]!.line, 3);
      assert.equal(dup.related[0]!.column, dup.related[0]!.range.start.character + 1);
    });
  });

  describe('agents-md lint --format sarif', { concurrency: true }, () => {
    async function sarifOf(dir: string, ...args: string[]): Promise<{ run: Run; log: Sarif.Log }> {
      const run = await cli(dir, 'lint', '--format', 'sarif', ...args);
      return { run, log: JSON.parse(run.stdout) as Sarif.Log };
    }

    test('SARIF 2.1.0 with the rule catalogue, results, regions, related locations and fingerprints', async () => {
      const dir = workspace({ 'bad.agents.md': BAD, 'sub/dup.agents.md': DUPLICATE_CODE });
      const { run, log } = await sarifOf(dir);
      assert.equal(run.code, 1);
      assert.equal(log.version, '2.1.0');
      assert.match(log.$schema ?? '', /sarif-schema-2\.1\.0\.json$/);
      assert.equal(log.runs.length, 1);
      const sarifRun = log.runs[0]!;
      const driver = sarifRun.tool.driver;
      assert.equal(driver.name, 'agents-md');
      assert.equal(driver.version, pkg.version);
      assert.match(driver.informationUri ?? '', /^https:\/\//);

      const rules = driver.rules ?? [];
      assert.deepEqual(rules.map((r) => r.id), RULES.map((r) => r.code));
      for (const [i, rule] of rules.entries()) {
        const meta = RULES[i]!;
        assert.ok(rule.shortDescription?.text, `${rule.id} shortDescription`);
        assert.ok(rule.fullDescription?.text, `${rule.id} fullDescription`);
        assert.ok(rule.help?.text && rule.help.markdown, `${rule.id} help`);
        assert.ok(rule.helpUri?.endsWith(`docs/rules.md#${rule.id}`), `${rule.id} helpUri`);
        const level = { error: 'error', warning: 'warning', info: 'note', hint: 'note' }[meta.severity];
        assert.equal(rule.defaultConfiguration?.level, level, rule.id);
      }

      const results = sarifRun.results ?? [];
      assert.ok(results.length > 0);
      for (const r of results) {
        assert.equal(rules[r.ruleIndex!]!.id, r.ruleId);
        assert.ok(['error', 'warning', 'note'].includes(r.level!));
        assert.ok(r.message.text);
        const loc = r.locations![0]!.physicalLocation!;
        assert.equal(loc.artifactLocation!.uriBaseId, '%SRCROOT%');
        assert.ok(['bad.agents.md', 'sub/dup.agents.md'].includes(loc.artifactLocation!.uri!));
        assert.ok(loc.region!.startLine! >= 1 && loc.region!.startColumn! >= 1);
        assert.ok(Object.values(r.partialFingerprints ?? {}).length === 1);
      }
      const schema = results.find((r) => r.ruleId === 'schema')!;
      assert.deepEqual(
        { line: schema.locations![0]!.physicalLocation!.region!.startLine, column: schema.locations![0]!.physicalLocation!.region!.startColumn },
        { line: 8, column: 18 },
      );
      const dup = results.find((r) => r.ruleId === 'failure-code-duplicate')!;
      assert.equal(dup.relatedLocations?.[0]?.physicalLocation?.artifactLocation?.uri, 'sub/dup.agents.md');
      assert.equal(dup.relatedLocations?.[0]?.physicalLocation?.region?.startLine, 3);

      // Fingerprints are stable from run to run, and unique.
      const again = (await sarifOf(dir)).log.runs[0]!.results!;
      assert.deepEqual(again.map((r) => r.partialFingerprints), results.map((r) => r.partialFingerprints));
      const prints = results.map((r) => Object.values(r.partialFingerprints!)[0]);
      assert.equal(new Set(prints).size, prints.length);
    });

    test('artifact URIs are relative to --root', async () => {
      const dir = workspace({ 'pkg/bad.agents.md': BAD });
      const { log } = await sarifOf(join(dir, 'pkg'), '--root', '..', 'bad.agents.md');
      const uris = new Set(log.runs[0]!.results!.map((r) => r.locations![0]!.physicalLocation!.artifactLocation!.uri));
      assert.deepEqual([...uris], ['pkg/bad.agents.md']);
    });

    test('configuration problems become tool configuration notifications', async () => {
      const dir = workspace({ 'AGENTS.md': PARTIAL_OK, '.agents-md.json': JSON.stringify({ rules: { 'no-such-rule': 'off' } }) });
      const { run, log } = await sarifOf(dir);
      assert.equal(run.code, 2);
      const invocation = log.runs[0]!.invocations![0]!;
      assert.equal(invocation.executionSuccessful, false);
      const notes = invocation.toolConfigurationNotifications!.map((n) => n.message.text);
      assert.ok(notes.some((n) => /rules\.no-such-rule: unknown rule/.test(n!)), notes.join('\n'));
    });

    test('passes the SARIF Multitool validator with GitHub code scanning rules', async (t) => {
      const multitool = sarifMultitool();
      if (!multitool) {
        t.skip(MULTITOOL_MISSING);
        return;
      }
      const dir = workspace({ 'bad.agents.md': BAD, 'sub/dup.agents.md': DUPLICATE_CODE, 'warn.agents.md': ONE_WARNING, 'AGENTS.md': FREEFORM });
      const { run } = await sarifOf(dir);
      assert.equal(run.code, 1);
      const input = join(dir, 'agents-md.sarif');
      const output = join(dir, 'validation.sarif');
      writeFileSync(input, run.stdout);
      const inputs = [input];
      // The repository's samples exercise many more rules, related locations and both languages.
      if (existsSync(join(repo, 'samples'))) {
        const samples = await cli(repo, 'lint', '--format', 'sarif', 'samples');
        assert.ok(samples.code === 0 || samples.code === 1, samples.stderr);
        inputs.push(join(dir, 'samples.sarif'));
        writeFileSync(inputs[1]!, samples.stdout);
        // And in Chinese: every text localised, run.language zh-CN.
        const zh = await cli(repo, 'lint', '--format', 'sarif', '--lang', 'zh-cn', 'samples');
        inputs.push(join(dir, 'samples.zh-cn.sarif'));
        writeFileSync(inputs[2]!, zh.stdout);
      }

      const findings = validateSarif(multitool, inputs, output);
      const notes = findings.filter((f) => f.level === 'note');
      if (notes.length > 0) t.diagnostic(`${notes.length} notes: ${[...new Set(notes.map((n) => n.rule))].join(', ')}`);
      assert.deepEqual(sarifProblems(findings), []);
    });
  });

  describe('agents-md rules', { concurrency: true }, () => {
    test('lists every rule with its severity and summary', async () => {
      const dir = workspace({});
      const r = await cli(dir, 'rules');
      assert.equal(r.code, 0);
      const lines = r.stdout.trimEnd().split('\n');
      assert.equal(lines.length, RULES.length);
      for (const [i, rule] of RULES.entries()) assert.match(lines[i]!, new RegExp(`^${rule.code} +${rule.severity} +\\S`));
      const asJson = JSON.parse((await cli(dir, 'rules', '--format', 'json')).stdout) as { code: string }[];
      assert.deepEqual(asJson.map((x) => x.code), RULES.map((x) => x.code));
    });
  });

  describe('agents-md in Chinese (--lang zh-cn, or the locale)', { concurrency: true }, () => {
    test('--lang zh-cn: severities, messages and the summary in Chinese', async () => {
      const dir = workspace({ 'AGENTS.md': ONE_WARNING });
      const r = await cli(dir, 'lint', '--lang', 'zh-cn');
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.stdout.split('\n'), [
        'AGENTS.md:1:4 警告 budgets-incomplete BUDGETS 没有设置 **Timeout**。',
        'AGENTS.md:1:4 信息 partial-contract 只有 BUDGETS 被识别为契约章节，因此只检查它。在 front matter 中加上 `contract: true` 即可把整个文件按契约检查。',
        '✖ 1 个文件中有 2 个问题（0 个错误，1 个警告，1 条信息）',
        '',
      ]);
      const over = await cli(dir, 'lint', '--lang=zh-cn', '--max-warnings', '0');
      assert.equal(over.code, 1);
      assert.equal(over.stderr, 'agents-md: 发现 1 个警告，超过 --max-warnings 0 的允许值\n');
    });

    test('the locale picks the language when --lang is absent; --lang wins; an unknown --lang is a usage error', async () => {
      const dir = workspace({ 'AGENTS.md': ONE_WARNING });
      for (const env of [{ LANG: 'zh_CN.UTF-8' }, { LC_ALL: 'zh_CN.UTF-8', LANG: 'en_US.UTF-8' }, { LC_MESSAGES: 'zh_CN.UTF-8' }] as Record<string, string>[]) {
        const r = await cliWithEnv(dir, env, 'lint');
        assert.match(r.stdout, /^AGENTS\.md:1:4 警告 budgets-incomplete /, JSON.stringify(env));
      }
      const en = await cliWithEnv(dir, { LANG: 'zh_CN.UTF-8' }, 'lint', '--lang', 'en');
      assert.match(en.stdout, /^AGENTS\.md:1:4 warning budgets-incomplete BUDGETS does not set/);
      const traditional = await cliWithEnv(dir, { LANG: 'zh_TW.UTF-8' }, 'lint');
      assert.match(traditional.stdout, / warning budgets-incomplete /, 'zh-TW is not shipped: English');
      const bad = await cliWithEnv(dir, { LANG: 'zh_CN.UTF-8' }, 'lint', '--lang', 'fr');
      assert.equal(bad.code, 2);
      assert.equal(bad.stderr, 'agents-md: --lang 的语言 "fr" 未知：请使用 en 或 zh-cn\n');
    });

    test('usage errors and file problems in Chinese', async () => {
      const dir = workspace({});
      const unknown = await cli(dir, 'lint', '--lang', 'zh-cn', '--formt', 'json');
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /^错误：未知选项 '--formt'\n（是否想用 --format？）\n（运行 "agents-md lint --help" 查看用法）\n$/);
      const choice = await cli(dir, 'lint', '--lang', 'zh-cn', '-f', 'xml');
      assert.match(choice.stderr, /^错误：选项 '-f, --format <format>' 的参数 'xml' 无效。可选值为 text, json, sarif, codequality, github。\n/);
      const count = await cli(dir, 'lint', '--lang', 'zh-cn', '--max-warnings', 'many');
      assert.match(count.stderr, /^错误：选项 '--max-warnings <n>' 的参数 'many' 无效。需要一个非负整数。\n/);
      const missing = await cli(dir, 'lint', '--lang', 'zh-cn', 'nothere.md');
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /^agents-md: nothere\.md：没有这个文件或目录$/m);
    });

    test('help in Chinese: translated titles and texts, wrapped and aligned by display width', async () => {
      const dir = workspace({});
      const r = await cli(dir, '--lang', 'zh-cn', 'lint', '--help');
      assert.equal(r.code, 0);
      const lines = r.stdout.trimEnd().split('\n');
      assert.equal(lines[0], '用法: agents-md lint [选项] [路径...]');
      for (const title of ['参数：', '选项：', '退出码：']) assert.ok(lines.includes(title), title);
      assert.ok(lines.includes('  -q, --quiet            只报告错误'), 'option descriptions in Chinese');
      // Commander's width without a terminal is 80 columns; CJK characters count two.
      for (const l of lines) assert.ok(displayWidth(l) <= 80, `wider than 80 columns: ${l}`);
      // Every option's description (and its continuation lines) starts in the same display column.
      const column = lines.filter((l) => /^ {2}-/.test(l)).map((l) => displayWidth(/^ {2}\S.*?\s{2,}(?=\S)/.exec(l)![0]));
      assert.ok(column.length >= 6 && column.every((c) => c === column[0]), `description columns ${column.join(', ')}`);
      const program = await cli(dir, '--help', '--lang', 'zh-cn');
      assert.match(program.stdout, /^用法: agents-md \[选项\] \[命令\]\n\n检查 AGENTS\.md 智能体契约/);
      assert.match(program.stdout, /^ {2}lint \[选项\] \[路径\.\.\.\] +检查契约文件。/m);
    });

    test('rules --lang zh-cn: three columns aligned by display width', async () => {
      const r = await cli(workspace({}), 'rules', '--lang', 'zh-cn');
      assert.equal(r.code, 0);
      const lines = r.stdout.trimEnd().split('\n');
      assert.equal(lines.length, RULES.length);
      // The summary (third column) starts at the same display column on every line, after a Chinese severity.
      const starts = lines.map((l) => displayWidth(/^\S+ +\S+ +/.exec(l)![0]));
      assert.ok(starts.every((c) => c === starts[0]), `summary columns: ${[...new Set(starts)].join(', ')}`);
      assert.match(lines.find((l) => l.startsWith('hitl-needs-fallback '))!, /^hitl-needs-fallback +错误 +每个 HUMAN_IN_THE_LOOP 场景都有 FAILURE_PROTOCOL 兜底条目。$/);
    });

    test('JSON and SARIF in Chinese keep ids, arguments and fingerprints', async () => {
      const dir = workspace({ 'AGENTS.md': BAD });
      const [en, zh] = [json(await cli(dir, 'lint', '-f', 'json')), json(await cli(dir, 'lint', '-f', 'json', '--lang', 'zh-cn'))];
      const ids = (r: JsonResult[]) => r[0]!.diagnostics.map((d) => `${(d as { messageId?: string }).messageId} ${JSON.stringify((d as { args?: unknown }).args)}`);
      assert.deepEqual(ids(zh), ids(en));
      assert.ok(zh[0]!.diagnostics.every((d) => /\p{Script=Han}/u.test(d.message)), 'every message in Chinese');
      const sarif = async (...args: string[]) => JSON.parse((await cli(dir, 'lint', '-f', 'sarif', ...args)).stdout) as Sarif.Log;
      const [se, sz] = [await sarif(), await sarif('--lang', 'zh-cn')];
      assert.equal(sz.runs[0]!.language, 'zh-CN');
      assert.equal(se.runs[0]!.language, undefined);
      assert.deepEqual(sz.runs[0]!.results!.map((r) => r.partialFingerprints), se.runs[0]!.results!.map((r) => r.partialFingerprints), 'the same alert whatever the language');
      assert.match(sz.runs[0]!.results![0]!.message.text!, /\p{Script=Han}/u);
      assert.match(sz.runs[0]!.tool.driver.rules!.find((r) => r.id === 'hitl-needs-fallback')!.helpUri!, /docs\/zh-cn\/rules\.md#hitl-needs-fallback$/);
    });
  });

  describe('bin/agents-md.cjs', { concurrency: true }, () => {
    test('says to build when dist/cli.cjs is missing', async () => {
      const dir = workspace({});
      mkdirSync(join(dir, 'bin'));
      copyFileSync(join(repo, 'bin', 'agents-md.cjs'), join(dir, 'bin', 'agents-md.cjs'));
      const r = spawnSync(process.execPath, [join(dir, 'bin', 'agents-md.cjs'), 'lint'], { encoding: 'utf8' });
      assert.equal(r.status, 2);
      assert.match(r.stderr, /run "npm run build"/);
    });
  });
});
