// The dry run in Simplified Chinese (docs/dry-run.md, docs/localisation.md): `agents-md run`, `eval` and `trace`
// with `--lang zh-cn` print Chinese timelines, reports, help and errors with the same outcome and
// exit code as in English; the trace and the JSON output are the same in both languages (ids,
// codes, English message); every timeline line of every sample query reads as Chinese; every run
// message id the sources use is defined (test/l10n.test.ts checks the other catalogues' ids).
// Run: node --import tsx --test test/run-l10n.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseContract } from '../server/src/service/index.ts';
import { displayWidth } from '../server/src/service/host.ts';
import { englishTemplate } from '../server/src/service/host.ts';
import { readSnapshot } from '../server/src/service/run/snapshot/snapshotValidate.ts';
import { runQuery, scriptedDecisions } from '../server/src/service/run/engine/engine.ts';
import { createScriptedModel } from '../server/src/service/run/llm/scriptedLlm.ts';
import { describeEvent } from '../server/src/service/run/trace/timeline.ts';
import { firstDifference } from '../server/src/service/run/trace/replay.ts';
import type { TraceEvent } from '../server/src/service/run/trace/trace.ts';
import { MESSAGES } from '../server/src/service/run/messages.ts';
import { CliUnderTest, repo, type CliRun } from './helpers/cliProcess.ts';
// The CLI's own messages (server/src/cli/messages.ts) are registered by the CLI, not by the service.
import '../server/src/cli/messages.ts';

const tool = new CliUnderTest();
const scratch: string[] = [];
const HAN = /\p{Script=Han}/u;

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agents-md-run-l10n-'));
  scratch.push(dir);
  return dir;
}

function cli(cwd: string, ...args: string[]): Promise<CliRun> {
  return tool.run(cwd, args, { ...process.env, NO_COLOR: '1', LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
}

const readTrace = (path: string): TraceEvent[] => readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as TraceEvent);

before(() => tool.build());

after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const PROCUREMENT = ['samples/procurement-analyzer/AGENTS.md', '--snapshot', 'samples/procurement-analyzer/snapshots/procurement.snapshot.yaml'];
const DIAGNOSIS = ['samples/device-diagnosis/AGENTS.md', '--snapshot', 'samples/device-diagnosis/snapshots/diagnosis.snapshot.yaml'];
const LABELS_EN = /^(?:RUN|TRIGGER|MEMORY|PROMPT|STEP|TOOL|CHECK|HUMAN|PROTOCOL|OUTPUT|OUTCOME)\b/;
/** The status marks of the timeline; the label column before them is 10 terminal cells wide. */
const MARK = /[✓✗⏱⏸–?]/;

describe('agents-md run --lang zh-cn', { concurrency: true }, () => {
  const cases: { args: string[]; query: string; exit: number; outcome: RegExp }[] = [
    { args: PROCUREMENT, query: 'happy-path', exit: 0, outcome: /^结果 +✓ 成功 OK：回答在 3 个模型步骤后通过了试运行能做的全部检查；有 1 项无法检查。$/m },
    { args: PROCUREMENT, query: 'vendor-not-whitelisted', exit: 1, outcome: /^结果 +✗ 失败 SAFETY_VIOLATION：最终回答违反了安全护栏“Never suggest a vendor that is not in `vendor_whitelist\.csv`\.”：.+ 为假。 \(samples\/procurement-analyzer\/AGENTS\.md:\d+:\d+\)$/m },
    { args: DIAGNOSIS, query: 'device-log-stale', exit: 1, outcome: /^结果 +✗ 失败 MEMORY_STALE \/ MEMORY_STALE：必需的记忆池 device_log 已过期：最近更新于 .+，.+ 之后没有更新（MEMORY_FRESHNESS：过期时间 .+）。已执行 FAILURE_PROTOCOL 条目“.+”：错误码 MEMORY_STALE。/m },
    { args: DIAGNOSIS, query: 'unrecorded-root-cause', exit: 3, outcome: /^结果 +✗ 降级 SAFETY_VIOLATION \/ SAFETY_VIOLATION：最终回答违反了安全护栏/m },
    { args: DIAGNOSIS, query: 'low-confidence-escalated', exit: 1, outcome: /^结果 +✗ 失败 ESCALATED \/ HITL002：4h 内没有人答复“Low-confidence diagnosis”：已升级处理。/m },
  ];
  for (const c of cases) {
    test(`${c.query}: a Chinese timeline, the same exit code, the same trace and JSON as in English`, async () => {
      const root = tempDir();
      const [en, zh] = await Promise.all([cli(repo, 'run', ...c.args, '--query', c.query, '--root', root), cli(repo, 'run', ...c.args, '--query', c.query, '--root', root, '--lang', 'zh-cn')]);
      assert.equal(en.code, c.exit, en.stderr);
      assert.equal(zh.code, c.exit, zh.stderr);
      assert.match(zh.stdout, c.outcome);
      const lines = zh.stdout.trimEnd().split('\n');
      assert.match(lines.pop()!, /^轨迹：.+trace\.jsonl$/);
      assert.equal(lines.length, en.stdout.trimEnd().split('\n').length - 1, 'one line per English line');
      for (const line of lines) {
        assert.doesNotMatch(line, LABELS_EN, line);
        assert.match(line, HAN, line);
        // Labels are padded by display width: every mark is in the same terminal column (12 for lines under another).
        const mark = line.search(MARK);
        if (mark < 0) assert.match(line, /^ {12}契约条目：samples\/.+:\d+:\d+$/, line);
        else assert.equal(displayWidth(line.slice(0, mark)), line.startsWith(' ') ? 12 : 10, line);
      }
      // The traces are language-neutral: the same events step by step.
      // A trace outside the working folder is printed with its absolute path.
      const trace = (out: string) => readTrace(resolve(repo, /(?:trace|轨迹)[:：] ?(.+)$/m.exec(out)![1]!.trim()));
      assert.equal(firstDifference(trace(en.stdout), trace(zh.stdout)), undefined);
      // The JSON output too (ids, arguments and the English message), apart from the run's own id and paths.
      const json = async (...lang: string[]) => {
        const r = await cli(repo, 'run', ...c.args, '--query', c.query, '--root', root, '--json', ...lang);
        assert.equal(r.code, c.exit);
        const { run_id: _id, trace: _trace, ...rest } = JSON.parse(r.stdout) as Record<string, unknown> & { stats: Record<string, unknown> };
        return { ...rest, stats: { ...rest.stats, elapsed_ms: 0 } };
      };
      assert.deepEqual(await json('--lang', 'zh-cn'), await json());
    });
  }

  test('help, usage errors and problems are Chinese, with the documented exit codes', async () => {
    const help = await cli(repo, 'run', '--help', '--lang', 'zh-cn');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^用法: agents-md run \[选项\] <契约>$/m);
    assert.match(help.stdout, /^ {2}--approve +对运行中的每次人工暂停都答复批准/m);
    assert.match(help.stdout, /^退出码：\n {2}0 {4}运行成功/m);
    assert.doesNotMatch(help.stdout, /\b(?:the|of|with|and)\b/, 'no English prose');
    for (const sub of [['eval'], ['trace'], ['trace', 'verify'], ['trace', 'show'], ['trace', 'replay'], ['trace', 'fork']]) {
      const r = await cli(repo, ...sub, '--help', '--lang', 'zh-cn');
      assert.equal(r.code, 0);
      assert.doesNotMatch(r.stdout.replace(/\(.*?\)|<[^>]*>|[\w.*/-]+\.(?:jsonl|yaml|yml|json|md)\b/g, ''), /\b(?:the|of|with|and|a)\b/, `${sub.join(' ')} --help:\n${r.stdout}`);
    }
    const noSnapshot = await cli(repo, 'run', 'samples/procurement-analyzer/AGENTS.md', '--lang', 'zh-cn');
    assert.equal(noSnapshot.code, 2);
    assert.match(noSnapshot.stderr, /^错误：未指定必需的选项 '-s, --snapshot <file>'$/m);
    const which = await cli(repo, 'run', ...PROCUREMENT, '--lang', 'zh-cn', '--root', tempDir());
    assert.equal(which.code, 2);
    assert.match(which.stderr, /^agents-md: samples\/procurement-analyzer\/snapshots\/procurement\.snapshot\.yaml 有 9 个查询（happy-path, .*）：请用 --query 选择一个，或用“agents-md eval”全部运行$/m);
    const missing = await cli(repo, 'run', 'samples/procurement-analyzer/AGENTS.md', '--snapshot', 'nowhere.snapshot.yaml', '--lang', 'zh-cn');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^agents-md: nowhere\.snapshot\.yaml：无法读取快照（文件或目录不存在）$/m);
    const dir = tempDir();
    writeFileSync(join(dir, 'AGENTS.md'), readFileSync(join(repo, 'samples/device-diagnosis/AGENTS.md')));
    writeFileSync(join(dir, 'bad.snapshot.yaml'), 'queries:\n  - id: a\n    query: q\n    model:\n      - { call: x, final: y }\n');
    const bad = await cli(dir, 'run', 'AGENTS.md', '--snapshot', 'bad.snapshot.yaml', '--lang', 'zh-cn');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^bad\.snapshot\.yaml:5:9 错误 snapshot-step-kind 一个模型步骤必须且只能有 call、calls 或 final 之一。$/m);
    assert.match(bad.stderr, /^agents-md: bad\.snapshot\.yaml：快照有错误（见上）$/m);
  });

  test('trace verify, show, replay and fork speak Chinese', async () => {
    const ws = tempDir();
    cpSync(join(repo, 'samples', 'procurement-analyzer'), ws, { recursive: true });
    const run = JSON.parse((await cli(ws, 'run', 'AGENTS.md', '--snapshot', 'snapshots/procurement.snapshot.yaml', '--query', 'happy-path', '--json')).stdout) as { trace: string };
    const verify = await cli(ws, 'trace', 'verify', run.trace, '--lang', 'zh-cn');
    assert.equal(verify.code, 0);
    assert.match(verify.stdout, /：32 个事件，哈希链和校验和完好。\n运行完整（以 task_end 结束）。\n$/);
    const show = await cli(ws, 'trace', 'show', run.trace, '--lang', 'zh-cn');
    assert.equal(show.code, 0);
    assert.match(show.stdout, /^evt_\d{4} 结果 +✓ 成功 OK：/m);
    const replay = await cli(ws, 'trace', 'replay', run.trace, '--lang', 'zh-cn');
    assert.equal(replay.code, 0, replay.stderr);
    assert.match(replay.stdout, /的回放：32 个事件，与原运行相同。\n轨迹：/);
    const fork = await cli(ws, 'trace', 'fork', run.trace, '--at', 'evt_0032', '--lang', 'zh-cn');
    assert.equal(fork.code, 2);
    assert.match(fork.stderr, /^agents-md: evt_0032 是 task_end 事件：请在更早的事件处分叉$/m);
    const lines = readFileSync(join(ws, run.trace), 'utf8').split('\n');
    lines[2] = lines[2]!.replace(/"event_type":"\w+"/, '"event_type":"bogus"');
    writeFileSync(join(ws, 'bad.jsonl'), lines.join('\n'));
    const broken = await cli(ws, 'trace', 'verify', 'bad.jsonl', '--lang', 'zh-cn');
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /^bad\.jsonl:3: 不是轨迹事件：event_type 必须是 task_start, .* 之一。$/m);
  });
});

describe('agents-md eval --lang zh-cn', () => {
  /** Display column where each cell of a report row starts (cells are separated by two or more spaces). */
  const columns = (row: string) => [...row.matchAll(/ {2,}/g)].map((m) => displayWidth(row.slice(0, m.index! + m[0].length)));

  test('a Chinese report in display-width columns, with the exit code and figures of the English one', async () => {
    const ws = tempDir();
    cpSync(join(repo, 'samples', 'device-diagnosis'), ws, { recursive: true });
    const file = join(ws, 'snapshots', 'diagnosis.snapshot.yaml');
    const check = async (exit: number) => {
      // Chinese first: its path drift is against the eval before this state.
      const [zh, en] = [await cli(ws, 'eval', '--lang', 'zh-cn'), await cli(ws, 'eval')];
      assert.equal(en.code, exit, en.stdout + en.stderr);
      assert.equal(zh.code, exit, zh.stdout + zh.stderr);
      const rows = zh.stdout.split('\n').filter((l) => /^[✓✗]/.test(l));
      assert.equal(rows.length, 12);
      for (const row of rows) assert.deepEqual(columns(row), columns(rows[0]!), `aligned by display width:\n${rows.join('\n')}`);
      const figures = (out: string, re: RegExp) => re.exec(out)!.slice(1);
      assert.deepEqual(
        figures(zh.stdout, /^任务成功率 ([\d.]+%) · 平均轮次 ([\d.]+) · token (\d+)（平均 (\d+)）· 人工干预率 ([\d.]+%)$/m),
        figures(en.stdout, /^success rate ([\d.]+%) · average rounds ([\d.]+) · tokens (\d+) \(average (\d+)\) · human-intervention rate ([\d.]+%)$/m),
      );
      return zh.stdout;
    };
    const passed = await check(0);
    assert.match(passed, /^✓ 通过 {2}snapshots\/diagnosis\.snapshot\.yaml › happy-path +成功 {2}OK$/m);
    assert.match(passed, /^12 个查询中有 12 个符合期望（0 个未通过）。$/m);
    writeFileSync(file, readFileSync(file, 'utf8').replace('  - id: repair-ticket', '  - id: repair-ticket\n    human: { create_repair_ticket: reject }').replace(/\n    human:\n      create_repair_ticket: approve\n/, '\n'));
    const failed = await check(1);
    assert.match(failed, /^✗ 未通过 {2}snapshots\/diagnosis\.snapshot\.yaml › repair-ticket +失败 {2}HUMAN_REJECTED\n {4}期望 outcome 为 success，实际为 failure$/m);
    assert.match(failed, /^12 个查询中有 11 个符合期望（1 个未通过）。$/m);
    assert.match(failed, /^与 \S+-eval 相比的路径漂移：12 个查询中有 1 个走了不同的路径（平均距离 [\d.]+）\n {2}snapshots\/diagnosis\.snapshot\.yaml › repair-ticket：tool:query_manual_section → human:approve/m);
    const none = await cli(ws, 'eval', 'nowhere', '--lang', 'zh-cn');
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^agents-md: nowhere：没有这个文件或目录$/m);
    // Only a snapshot that cannot be used: exit 2, the reason, and no rows or figures of nothing.
    const alone = tempDir();
    writeFileSync(join(alone, 'x.snapshot.yaml'), 'now: "2024-06-12T08:00:00Z"\nqueries:\n  - id: a\n    query: q\n');
    const orphan = await cli(alone, 'eval', '--lang', 'zh-cn');
    assert.equal(orphan.code, 2, orphan.stderr);
    assert.match(orphan.stderr, /^agents-md: x\.snapshot\.yaml：没有找到此快照对应的契约（请给它加上 contract: 字段，见 docs\/dry-run\.md）$/m);
    assert.equal(orphan.stdout, '');
  });
});

/** Every query of every sample snapshot, run in process; the events of each. */
async function sampleRuns(): Promise<{ name: string; events: readonly TraceEvent[] }[]> {
  const out: { name: string; events: readonly TraceEvent[] }[] = [];
  for (const sample of readdirSync(join(repo, 'samples'))) {
    const dir = join(repo, 'samples', sample, 'snapshots');
    if (!statSync(join(repo, 'samples', sample)).isDirectory() || !readdirSync(join(repo, 'samples', sample)).includes('snapshots')) continue;
    const contract = parseContract(readFileSync(join(repo, 'samples', sample, 'AGENTS.md'), 'utf8'));
    for (const f of readdirSync(dir)) {
      const snap = readSnapshot(readFileSync(join(dir, f), 'utf8'), { lang: f.endsWith('.json') ? 'json' : 'yaml', contract }).snapshot;
      assert.ok(snap, f);
      // Resource files beside the contract, as the CLI finds them.
      const file = (name: string) => {
        try {
          return readFileSync(join(dirname(dir), name), 'utf8');
        } catch {
          return undefined;
        }
      };
      for (const q of snap.queries) {
        const r = await runQuery({ contract, query: q, ...(snap.now ? { now: snap.now } : {}), provider: createScriptedModel(q.model), decide: scriptedDecisions(q.human), file });
        out.push({ name: `${sample}/${f} › ${q.id}`, events: r.events });
      }
    }
  }
  return out;
}

describe('the timeline in Chinese, event by event', () => {
  test('every line of every sample query is Chinese, and no English template word is left', async () => {
    const runs = await sampleRuns();
    assert.ok(runs.length >= 25, `${runs.length} sample queries`);
    const kinds = new Set<string>();
    const problems: string[] = [];
    for (const run of runs) {
      for (const e of run.events) {
        kinds.add(`${e.event_type}:${e.status}`);
        const en = describeEvent(e);
        const zh = describeEvent(e, 'zh-cn');
        assert.equal(zh.length, en.length);
        zh.forEach((line, i) => {
          if (!HAN.test(line.text) || line.text === en[i]!.text) problems.push(`${run.name} ${e.event_id} ${line.messageId}: ${line.text}`);
          // Catalogue words that are arguments (a reason, a check, a status) are Chinese too.
          for (const word of ['is true', 'is false', 'is unknown', 'fired by name', 'extraction pattern', 'named group', 'given by the snapshot', 'requires approval', 'not in the snapshot', 'the snapshot marks it', 'a filter needs', 'must have property', 'no answer in time', 'the answer is empty', 'safety guard']) {
            if (line.text.includes(word)) problems.push(`${run.name} ${e.event_id}: "${word}" in ${line.text}`);
          }
        });
      }
    }
    assert.deepEqual(problems, []);
    for (const k of ['trigger_match:failure', 'memory_check:failure', 'tool_result:invalid', 'validation:invalid', 'human_response:success', 'human_response:timeout', 'task_end:failure', 'condition:unknown']) assert.ok(kinds.has(k), `the samples cover ${k}`);
  });

  test('a trace written before the ids were recorded still shows, with its English words', () => {
    const e = { event_id: 'evt_0001', event_type: 'memory_check', timestamp: '2024-06-12T08:00:00.000Z', source: 'boot', status: 'failure', prev_event: null, payload: { pool: 'p', reason: 'the snapshot marks it stale' }, checksum: '0'.repeat(64) } as TraceEvent;
    assert.equal(describeEvent(e, 'zh-cn')[0]!.text, 'p：the snapshot marks it stale');
  });
});

describe('run message ids in the sources', () => {
  const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith('.ts') ? [join(dir, f)] : []));
  const sources = files(join(repo, 'server', 'src')).map((f) => ({ f, src: readFileSync(f, 'utf8') }));

  test('every id written in the sources is defined by the run catalogue', () => {
    const unknown: string[] = [];
    const defined = (id: string) => englishTemplate(`run.${id}`) !== undefined;
    for (const { f, src } of sources) {
      for (const m of src.matchAll(/\b(?:runMessage|refText)\(\s*'([\w.-]+)'/g)) if (!defined(m[1]!)) unknown.push(`${f}: ${m[1]}`);
      for (const m of src.matchAll(/\b(?:id|reasonId|checkId|messageId|approve|reject): '((?:outcome|timeline|detail|reason|check|expected|expr|replay|feedback|trace|help|snapshot|eval|error|host|state|status|via|label|subject|view|prompt)\.[\w.-]+)'/g)) if (!defined(m[1]!)) unknown.push(`${f}: ${m[1]}`);
      // The dry run's InputError (dryRunHost.ts) takes a full l10n id; the diff has an InputError of its own.
      if (f.endsWith('dryRunHost.ts') || src.includes("/dryRunHost.ts'")) for (const m of src.matchAll(/\bInputError\(\s*'([\w.-]+)'/g)) if (englishTemplate(m[1]!) === undefined) unknown.push(`${f}: ${m[1]}`);
    }
    assert.deepEqual(unknown, []);
  });

  test('ids built from a value have a message for every value', () => {
    const families: Record<string, readonly string[]> = {
      'via.': ['pattern', 'intent', 'given'],
      'state.': ['true', 'false', 'fired'],
      'status.': ['success', 'fallback', 'failure', 'cancelled'],
      'timeline.human_response.': ['approve', 'reject', 'timeout'],
      'trace.bad-event.': ['not-object', 'event-id', 'event-type', 'timestamp', 'source', 'status', 'prev-event', 'payload', 'checksum'],
      'label.': ['run', 'trigger', 'memory', 'prompt', 'step', 'tool', 'validation', 'human', 'protocol', 'output', 'outcome'],
    };
    const used = new Set<string>();
    for (const { src } of sources) for (const m of src.matchAll(/`((?:via|state|status|timeline\.human_response|trace\.bad-event|label)\.)\$\{/g)) used.add(m[1]!);
    assert.deepEqual([...used].filter((p) => !families[p]), []);
    for (const [prefix, values] of Object.entries(families)) for (const v of values) assert.ok(MESSAGES[`${prefix}${v}`], `${prefix}${v}`);
  });
});
