// The semantic diff in Simplified Chinese (docs/semantic-diff.md, docs/localisation.md): every change of
// every corpus case, the version advice and its diagnostics rebuilt in Chinese from their ids and
// arguments as whole sentences; and the real CLI bundle (`agents-md diff --lang zh-cn`, or a
// Chinese locale) printing its text and Markdown reports, JSON messages, help, usage and git
// errors in Chinese with the same structure as in English. The English outputs themselves are
// pinned by test/diff.test.ts. Expected texts were checked by eye.
// Run: node --import tsx --test test/diffL10n.test.ts
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffContracts, parseContract, versionAdviceDiagnostics, type SemanticDiff } from '../server/src/service/index.ts';
import { diffSectionTitle, diffSummary, localiseChange, localiseDiagnostic, localiseDiff } from '../server/src/service/host.ts';
import { template } from '../server/src/service/l10n/format.ts';
import { placeholders } from '../server/src/service/l10n/template.ts';
import { REPO, useCliBundle } from './helpers/cli.ts';

const CORPUS = join(REPO, 'test', 'diff-corpus');
const CASES = readdirSync(CORPUS).sort();
const HAN = /\p{Script=Han}/u;
/** A `{name}` placeholder left unfilled (`{{extracted_x}}` templates and `\d{3}` quoted in a message are text). */
const UNFILLED = /(?<!\{)\{[A-Za-z_]\w*\}(?!\})/;

const read = (name: string, file: string) => readFileSync(join(CORPUS, name, file), 'utf8');
const diffCase = (name: string): SemanticDiff => diffContracts(parseContract(read(name, 'before.md')), parseContract(read(name, 'after.md')));

describe('the diff localised by the service', () => {
  test('every change of every corpus case, and its advice, is a whole Chinese sentence with its arguments filled', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const name of CASES) {
      const en = diffCase(name);
      const zh = localiseDiff(en, 'zh-cn');
      const texts = [...zh.changes.map((c) => [c.reasonId, c.message] as const), [zh.advice.messageId, zh.advice.message] as const, [zh.advice.audit.messageId, zh.advice.audit.message] as const];
      for (const [id, text] of texts) {
        checked++;
        if (!HAN.test(text)) problems.push(`${name} ${id}: not Chinese: ${text}`);
        if (UNFILLED.test(text)) problems.push(`${name} ${id}: an argument is missing: ${text}`);
      }
      // Only the messages change: ids, arguments, kinds, impacts, positions and counts are the same.
      const strip = (d: SemanticDiff) => ({ ...d, changes: d.changes.map(({ message: _, ...c }) => c), advice: { ...d.advice, message: '', audit: { ...d.advice.audit, message: '' } } });
      assert.deepEqual(strip(zh), strip(en), name);
    }
    assert.ok(checked > 250, `${checked} messages`);
    assert.deepEqual(problems, []);
  });

  test('every reason in Chinese uses exactly the arguments of its English template', () => {
    for (const name of CASES) {
      for (const c of diffCase(name).changes) {
        const [en, zh] = [template(`diff.${c.reasonId}`, 'en')!, template(`diff.${c.reasonId}`, 'zh-cn')!];
        assert.deepEqual(placeholders(zh).sort(), placeholders(en).sort(), c.reasonId);
      }
    }
  });

  test('English is the engine\'s own text; one change localises alone', () => {
    const diff = diffCase('tool-removed');
    assert.equal(localiseDiff(diff, 'en'), diff);
    const [c] = diff.changes;
    assert.equal(localiseChange(c!, 'zh-cn').message, '删除了工具 `lookup_vendor`：智能体不能再调用它，依赖它的调用方会出错。');
    assert.equal(c!.message, 'Tool `lookup_vendor` removed: the agent can no longer call it and callers that expect it break.', 'the engine\'s data is not changed');
  });

  test('the version advice words its machine values in each language: bumps and a missing version', () => {
    const advice = (name: string) => localiseDiff(diffCase(name), 'zh-cn').advice;
    assert.equal(diffCase('bump-insufficient').advice.args['declared'], 'patch', 'the arguments are machine values');
    assert.equal(advice('bump-insufficient').message, '这些变更需要升级主版本号，但版本只从 1.4.2 变为 1.4.3（升级了修订号）。');
    assert.equal(advice('bump-downgrade').message, '这些变更需要升级修订号，但版本从 1.4.2 降到了 1.4.1。');
    assert.equal(advice('bump-unknown').message, '这些变更需要升级修订号；无法比较版本（未声明 → 未声明）。');
    assert.equal(advice('bump-unknown').audit.message, '无法检查 VERSIONING & AUDIT：契约没有声明版本。');
    assert.equal(advice('bump-not-needed').message, '没有语义变更：无需升级版本。');
  });

  test('section titles and the summary line', () => {
    assert.equal(diffSectionTitle('front_matter', 'zh-cn'), 'front matter', 'the Markdown term, in Chinese too');
    assert.equal(diffSectionTitle('human_in_the_loop', 'zh-cn'), 'HUMAN_IN_THE_LOOP', 'canonical titles stay as written');
    assert.equal(diffSummary(diffCase('hitl'), 'zh-cn'), '10 处语义变更：破坏性变更 4 处，风险增加 0 处，风险降低 3 处，中性 3 处。');
    assert.equal(diffSummary(diffCase('hitl')), '10 semantic changes: 4 breaking, 0 risk-increasing, 3 risk-reducing, 3 neutral.');
  });

  test('the version advice diagnostics carry the registry\'s ids, so localiseDiagnostic rebuilds them', () => {
    const afterModel = parseContract(read('bump-unknown', 'after.md'));
    const ds = versionAdviceDiagnostics(diffContracts(parseContract(read('bump-unknown', 'before.md')), afterModel), afterModel, 'HEAD');
    assert.deepEqual(ds.map((d) => d.messageId), ['diff.diagnostic.bump', 'diff.diagnostic.auditRow']);
    assert.deepEqual(ds.map((d) => localiseDiagnostic(d, 'zh-cn').message), [
      '自 HEAD 以来的这些变更需要升级修订号；版本从 未声明 变为 未声明（无法比较）。',
      '自 HEAD 以来的这些变更没有在 VERSIONING & AUDIT 中添加新行（契约没有声明版本）。',
    ]);
  });

  test('an unchanged version is said so, not "went from 2.4.0 to 2.4.0 (none)"', () => {
    const afterModel = parseContract(read('bump-unchanged', 'after.md'));
    const [bump] = versionAdviceDiagnostics(diffContracts(parseContract(read('bump-unchanged', 'before.md')), afterModel), afterModel, 'HEAD');
    assert.match(bump!.message, /^These changes since HEAD need a \w+ version bump; the version is still [\d.]+\.$/);
    assert.match(localiseDiagnostic(bump!, 'zh-cn').message, /；版本仍是 [\d.]+。$/);
  });
});

describe('agents-md diff in Chinese', { concurrency: true }, () => {
  const { bundle, scratch } = useCliBundle('diff-l10n');
  const diff = (name: string, ...args: string[]) => bundle.run(join(CORPUS, name), 'diff', 'before.md', 'after.md', ...args);

  test('text: the same lines as in English, in Chinese', async () => {
    const [en, zh] = [await diff('hitl'), await diff('hitl', '--lang', 'zh-cn')];
    assert.equal(zh.code, 0, zh.stderr);
    assert.equal(
      zh.stdout,
      [
        '语义 diff：before.md → after.md',
        'before.md:12:1 删除 破坏性变更 HUMAN_IN_THE_LOOP 删除了人工签批 "New vendor"：智能体将在没有人参与的情况下继续执行。',
        'after.md:11:20 修改 破坏性变更 HUMAN_IN_THE_LOOP 人工签批 "Large purchase" 的适用范围缩小了：amount > 50000 → amount > 80000。',
        'after.md:12:3 重命名 中性 HUMAN_IN_THE_LOOP 人工介入场景 "Payment abroad" 已重命名为 "Foreign payment"：FAILURE_PROTOCOL 条目按名称引用它。',
        'after.md:13:16 修改 风险降低 HUMAN_IN_THE_LOOP 人工签批 "Bulk order" 的适用范围扩大了：quantity >= 100 → quantity >= 50。',
        'after.md:13:70 修改 风险降低 HUMAN_IN_THE_LOOP 人工签批 "Bulk order" 现在在无人响应时拒绝：escalate → reject。',
        "after.md:14:14 修改 破坏性变更 HUMAN_IN_THE_LOOP 人工签批 \"Discount\" 的适用范围缩小了：discount_percent > 20 → discount_percent > 20 AND customer_tier = 'new'。",
        "    discount_percent > 20{+ AND customer_tier = 'new'+}",
        'after.md:14:66 修改 中性 HUMAN_IN_THE_LOOP 人工签批 "Discount" 的所需操作已修改：Sales lead approves → Sales lead and finance approve。',
        'after.md:14:99 修改 中性 HUMAN_IN_THE_LOOP 人工签批 "Discount" 的时限已修改：4h → 8h。',
        'after.md:14:104 修改 破坏性变更 HUMAN_IN_THE_LOOP 人工签批 "Discount" 在无人响应时不再拒绝：reject → escalate。',
        'after.md:16:1 新增 风险降低 HUMAN_IN_THE_LOOP 新增人工签批："Contract change"。',
        '版本：这些变更需要升级主版本号，但版本仍是 1.0.0。',
        '    需要这次版本升级的变更：删除了人工签批 "New vendor"：智能体将在没有人参与的情况下继续执行。',
        '审计：VERSIONING & AUDIT 中没有 1.0.0 对应的行。',
        '10 处语义变更：破坏性变更 4 处，风险增加 0 处，风险降低 3 处，中性 3 处。',
        '',
      ].join('\n'),
    );
    // Same structure: the same places, line for line.
    const places = (s: string) => s.split('\n').map((l) => /^\S+:\d+:\d+ /.exec(l)?.[0] ?? '');
    assert.deepEqual(places(zh.stdout), places(en.stdout));
  });

  test('markdown: the same table in Chinese', async () => {
    const [en, zh] = [await diff('bump-insufficient', '-f', 'markdown'), await diff('bump-insufficient', '-f', 'markdown', '--lang', 'zh-cn')];
    assert.equal(zh.code, 0, zh.stderr);
    assert.equal(
      zh.stdout,
      [
        '### 语义 diff：`before.md` → `after.md`',
        '',
        '🔴 1 处破坏性变更 · 🟠 0 处风险增加 · 🟢 0 处风险降低 · ⚪ 0 处中性变更',
        '',
        '**版本**：这些变更需要升级主版本号，但版本只从 1.4.2 变为 1.4.3（升级了修订号）。',
        '',
        '需要这次版本升级的变更：删除了工具 `lookup_vendor`：智能体不能再调用它，依赖它的调用方会出错。',
        '',
        '**审计**：VERSIONING & AUDIT 新增了 1.4.3 对应的行。',
        '',
        '| 影响 | 章节 | 变更 | 位置 |',
        '|---|---|---|---|',
        '| 🔴 破坏性变更 | TOOLS | 删除了工具 `lookup_vendor`：智能体不能再调用它，依赖它的调用方会出错。 | `before.md:9` |',
        '',
      ].join('\n'),
    );
    const shape = (s: string) => s.split('\n').map((l) => (l.startsWith('|') ? `${l.split(' | ').length} ${l.match(/`[^`]*:\d+`/)?.[0] ?? ''}` : l === '' ? '' : 'text'));
    assert.deepEqual(shape(zh.stdout), shape(en.stdout));
  });

  test('json: messages in Chinese, everything else as in English (as lint does)', async () => {
    const [en, zh] = [JSON.parse((await diff('permission-moves', '-f', 'json')).stdout), JSON.parse((await diff('permission-moves', '-f', 'json', '--lang', 'zh-cn')).stdout)];
    assert.ok(zh.changes.length > 3);
    for (const c of zh.changes) assert.match(c.message, HAN, c.id);
    assert.match(zh.advice.message, HAN);
    const strip = (j: any) => ({ ...j, changes: j.changes.map(({ message: _, ...c }: any) => c), advice: { ...j.advice, message: '', audit: { ...j.advice.audit, message: '' } } });
    assert.deepEqual(strip(zh), strip(en));
  });

  test('the locale picks Chinese when --lang is absent; --lang en wins over it', async () => {
    const zh = await bundle.runWithEnv(join(CORPUS, 'tool-removed'), { LANG: 'zh_CN.UTF-8' }, 'diff', 'before.md', 'after.md');
    assert.match(zh.stdout, /^语义 diff：before\.md → after\.md\n/);
    const en = await bundle.runWithEnv(join(CORPUS, 'tool-removed'), { LANG: 'zh_CN.UTF-8' }, 'diff', 'before.md', 'after.md', '--lang', 'en');
    assert.equal(en.stdout, (await diff('tool-removed')).stdout);
  });

  test('help, usage errors, unreadable files, gates and git errors in Chinese; the same exit codes', async () => {
    const help = await bundle.run(CORPUS, 'diff', '--help', '--lang', 'zh-cn');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^用法: agents-md diff \[选项\] <file> \[after\]\n\n按语义比较契约的两个版本/);
    assert.match(help.stdout, /--fail-on <kinds> +存在破坏性变更/);
    assert.match(help.stdout, /\n\n退出码：\n {2}0 {2}已比较/);
    const outside = scratch.workspace({ 'AGENTS.md': read('hitl', 'before.md') });
    const cases: [string, string[], number, string | RegExp][] = [
      [outside, ['AGENTS.md'], 2, 'agents-md: 请给出第二个文件，或用 --against <ref> 或 --index 与 git 中的版本比较。\n'],
      [outside, ['AGENTS.md', '--against', 'HEAD', '--index'], 2, 'agents-md: --against 和 --index 不能同时使用。\n'],
      [outside, ['AGENTS.md', 'missing.md'], 2, 'agents-md: missing.md：无法读取（文件或目录不存在）。\n'],
      [outside, ['AGENTS.md', 'AGENTS.md', '--fail-on', 'everything'], 2, /^错误：选项 '--fail-on <kinds>' 的参数 'everything' 无效。未知的取值 "everything"（应为 breaking、risk 或 bump，以逗号分隔）。\n/],
      [outside, ['AGENTS.md', '--against', 'HEAD'], 2, 'agents-md: AGENTS.md 不在 git 仓库中。\n'],
      [join(CORPUS, 'bump-insufficient'), ['before.md', 'after.md', '--fail-on', 'breaking,bump'], 1, 'agents-md: 1 处破坏性变更：按 --fail-on breaking 的要求判为失败。\nagents-md: 声明的版本升级小于这些变更的要求：按 --fail-on bump 的要求判为失败。\n'],
    ];
    for (const [cwd, args, code, stderr] of cases) {
      const run = await bundle.run(cwd, 'diff', ...args, '--lang', 'zh-cn');
      assert.equal(run.code, code, `${args.join(' ')}: ${run.stderr}`);
      if (typeof stderr === 'string') assert.equal(run.stderr, stderr, args.join(' '));
      else assert.match(run.stderr, stderr, args.join(' '));
    }
  });
});
