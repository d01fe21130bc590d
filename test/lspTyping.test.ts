// The language server's document pipeline while a person types (docs/performance.md): bursts of
// edits are coalesced and never lose diagnostics, results that need time (the ReDoS analysis)
// arrive after the first answer, settings are per resource, and the size limit is in bytes.
// The bundled server over stdio, driven as an editor drives it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient } from './helpers/lspClient.ts';
import { ensureBundles, SERVER_PATH } from './helpers/bundles.ts';
import { generateContract } from '../bench/generate.ts';
import { largeToolsContract } from '../bench/typing.ts';

const serverPath = SERVER_PATH;
const ws = mkdtempSync(join(tmpdir(), 'agents-md-typing-ws-'));
const wsUri = pathToFileURL(ws).href;
const ROOT = new URL('..', import.meta.url).pathname;

before(() => {
  ensureBundles();
  for (const d of ['a', 'b']) mkdirSync(join(ws, d));
});
after(() => {
  rmSync(ws, { recursive: true, force: true });
});

const codes = (d: Diagnostic[]) => d.map((x) => String(x.code)).sort();

test('a burst of 30 keystrokes, each followed by a pull: stale pulls are cancelled, the last one has every diagnostic of the last text', async () => {
  const client = new LspClient(serverPath);
  try {
    await client.initialize(wsUri, true);
    const uri = `${wsUri}/a/AGENTS.md`;
    let text = generateContract(600, 5);
    await client.open(uri, text);
    const expected = codes(await client.pullUntil(uri, () => true));
    // Type "zzz…" at the end of a prose line near the middle: the diagnostics do not change.
    const lines = text.split('\n');
    const line = lines.findIndex((l, i) => i > lines.length / 2 && /^- \*\*Description\*\*/.test(l));
    const pulls: Promise<Diagnostic[]>[] = [];
    for (let i = 0; i < 30; i++) {
      const character = lines[line]!.length + i;
      await client.change(uri, i + 2, [{ range: { start: { line, character }, end: { line, character } }, text: 'z' }]);
      const pull = client.pullDiagnostics(uri);
      // A stale pull may be cancelled while later keys are still typed: handled here, checked below.
      pull.catch(() => undefined);
      pulls.push(pull);
    }
    text = text.replace(lines[line]!, `${lines[line]!}${'z'.repeat(30)}`);
    const settled = await Promise.allSettled(pulls);
    const last = settled[settled.length - 1]!;
    assert.equal(last.status, 'fulfilled', 'the pull of the last version is answered');
    assert.deepEqual(codes((last as PromiseFulfilledResult<Diagnostic[]>).value), expected, 'no diagnostic disappeared');
    for (const r of settled) {
      if (r.status === 'rejected') assert.match(String((r.reason as Error).message), /changed|cancel/i, 'a stale pull is cancelled, not answered late');
      else assert.deepEqual(codes(r.value), expected);
    }
    const cancelled = settled.filter((r) => r.status === 'rejected').length;
    assert.ok(cancelled > 0, `stale pulls are cancelled (${cancelled} of 30)`);
  } finally {
    await client.shutdown();
  }
});

/** The validations the server traced for `uri` (`$/logTrace`, docs/performance.md), as versions. */
const validatedVersions = (client: LspClient, uri: string) => {
  const prefix = `validated ${uri} version `;
  return client.traces.filter((t) => t.message.startsWith(prefix)).map((t) => Number(t.message.slice(prefix.length)));
};

/**
 * Settings for the burst tests: a ReDoS verdict for a pattern of the generated contracts re-diagnoses
 * its document whenever it arrives (a validation more, rightly), which these tests do not count.
 */
const withoutReDoSAnalysis = (item: { section?: string }) => (item.section === 'agentsMd' ? { checkRegexBacktracking: false } : null);

/**
 * A burst of `n` keystrokes typed at the end of a prose line (the diagnostics do not change),
 * sent while the server is busy with a cold parse of another large contract, so that the whole
 * burst is waiting when it looks again, as when keys come faster than it answers.
 */
async function burstWhileBusy(client: LspClient, uri: string, text: string, n: number, pullEach: boolean): Promise<{ pulls: Promise<Diagnostic[]>[]; last: number }> {
  const busy = `${wsUri}/b/AGENTS.md`;
  await client.open(busy, generateContract(6000, 7));
  const parsing = client.request('textDocument/documentSymbol', { textDocument: { uri: busy } });
  const lines = text.split('\n');
  const line = lines.findIndex((l, i) => i > lines.length / 2 && /^- \*\*Description\*\*/.test(l));
  const pulls: Promise<Diagnostic[]>[] = [];
  for (let i = 0; i < n; i++) {
    const character = lines[line]!.length + i;
    void client.change(uri, i + 2, [{ range: { start: { line, character }, end: { line, character } }, text: 'z' }]);
    if (pullEach) {
      const pull = client.pullDiagnostics(uri);
      pull.catch(() => undefined);
      pulls.push(pull);
    }
  }
  await parsing;
  return { pulls, last: n + 1 };
}

test('pull: a burst of 20 edits yields one validation, of the last version; stale pulls are cancelled, never answered empty or stale', async () => {
  const client = new LspClient(serverPath);
  client.configuration = withoutReDoSAnalysis;
  try {
    await client.initialize(wsUri, true);
    await client.trace('verbose');
    const uri = `${wsUri}/a/AGENTS.md`;
    const text = generateContract(600, 5);
    await client.open(uri, text);
    const expected = codes(await client.pullUntil(uri, () => true));
    assert.deepEqual(validatedVersions(client, uri), [1], 'the trace names each validation');
    const { pulls, last } = await burstWhileBusy(client, uri, text, 20, true);
    const settled = await Promise.allSettled(pulls);
    const answered = settled.filter((r): r is PromiseFulfilledResult<Diagnostic[]> => r.status === 'fulfilled');
    for (const r of answered) assert.deepEqual(codes(r.value), expected, 'an answer holds every diagnostic of its text');
    for (const r of settled) if (r.status === 'rejected') assert.match(String((r.reason as Error).message), /changed|cancel/i);
    assert.equal(settled.at(-1)!.status, 'fulfilled', 'the pull of the last version is answered');
    assert.equal(answered.length, 1, 'only the last pull is answered');
    assert.deepEqual(validatedVersions(client, uri), [1, last], 'one validation for the whole burst, of the last version');
  } finally {
    await client.shutdown();
  }
});

test('pull result ids: an edit that leaves the diagnostics as they were is answered `unchanged`; one that changes them, in full', async () => {
  const client = new LspClient(serverPath);
  try {
    await client.initialize(wsUri, true);
    const uri = `${wsUri}/a/AGENTS.md`;
    const text = generateContract(600, 5);
    await client.open(uri, text);
    const first = await client.pullUntil(uri, () => true);
    assert.equal(client.lastReportKind.get(uri), 'full');
    assert.ok(first.length > 0, 'the generated contract has diagnostics to keep');
    // A word typed at the end of a description: nothing to report changes.
    const lines = text.split('\n');
    const line = lines.findIndex((l, i) => i > lines.length / 2 && /^- \*\*Description\*\*/.test(l));
    const character = lines[line]!.length;
    await client.change(uri, 2, [{ range: { start: { line, character }, end: { line, character } }, text: ' again' }]);
    assert.deepEqual(await client.pullDiagnostics(uri), first);
    assert.equal(client.lastReportKind.get(uri), 'unchanged', 'same diagnostics: the client keeps what it holds');
    // A blank line inserted above the first section moves the diagnostics below it down: a full report.
    const at = lines.findIndex((l) => l.startsWith('## '));
    await client.change(uri, 3, [{ range: { start: { line: at, character: 0 }, end: { line: at, character: 0 } }, text: '\n' }]);
    const moved = await client.pullDiagnostics(uri);
    assert.equal(client.lastReportKind.get(uri), 'full');
    assert.deepEqual(
      moved.map((d) => d.range.start.line),
      first.map((d) => d.range.start.line + (d.range.start.line >= at ? 1 : 0)),
    );
  } finally {
    await client.shutdown();
  }
});

test('push: a burst of 20 edits yields one validation and one notification, for the last version', async () => {
  const client = new LspClient(serverPath);
  client.configuration = withoutReDoSAnalysis;
  try {
    await client.initialize(wsUri, false);
    await client.trace('messages');
    const uri = `${wsUri}/a/AGENTS.md`;
    const text = generateContract(600, 5);
    const first = client.nextPublished(uri, 30_000);
    await client.open(uri, text);
    const expected = codes((await first).diagnostics);
    const { last } = await burstWhileBusy(client, uri, text, 20, false);
    const pushed = await client.nextPublished(uri, 30_000);
    assert.equal(pushed.version, last);
    assert.deepEqual(codes(pushed.diagnostics), expected);
    // A late, stale notification would arrive before the server says it has settled: none does.
    await client.settled();
    assert.deepEqual(client.publishedFor(uri).map((p) => p.version), [1, last]);
    assert.deepEqual(validatedVersions(client, uri), [1, last]);
  } finally {
    await client.shutdown();
  }
});

const REDOS = `---
contract: true
name: demo
version: 1.0.0
---
## TRIGGER

\`\`\`yaml
intent_patterns:
  - '^(\\w+\\s?)+$'
\`\`\`
`;

test('checkRegexBacktracking is read per resource: one folder analysed, the other not, diagnosed together', async () => {
  const client = new LspClient(serverPath);
  client.configuration = (item) => (item.section === 'agentsMd' ? { checkRegexBacktracking: !String(item.scopeUri).includes('/b/') } : null);
  try {
    await client.initialize(wsUri, true);
    const a = `${wsUri}/a/AGENTS.md`;
    const b = `${wsUri}/b/AGENTS.md`;
    await client.open(a, REDOS);
    await client.open(b, REDOS);
    await Promise.all([client.pullDiagnostics(a), client.pullDiagnostics(b)]);
    // The analysis runs off the first answer; its verdict arrives with a later pull.
    await client.pullUntil(a, (d) => d.some((x) => x.code === 'intent-pattern-redos'), 60_000);
    assert.ok(!(await client.pullDiagnostics(b)).some((x) => x.code === 'intent-pattern-redos'), 'not analysed where the setting is off');
    // recheck ran in a child process, which ends after 5 s idle: its memory goes back to the system.
    const children = () => readFileSync(`/proc/${client.pid}/task/${client.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    const started = children();
    assert.equal(started.length, 1, 'the analysis process runs beside the server');
    for (let i = 0; i < 100 && children().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(children(), [], 'ended once idle');
  } finally {
    await client.shutdown();
  }
});

test('push: a ReDoS verdict re-diagnoses the document that waited for it, no other; a safe verdict none', async () => {
  const client = new LspClient(serverPath);
  try {
    await client.initialize(wsUri, false);
    const a = `${wsUri}/a/AGENTS.md`;
    const b = `${wsUri}/b/AGENTS.md`;
    // b's safe pattern is analysed first (one analysis process, in order), then a's vulnerable one.
    const bFirst = client.nextPublished(b, 30_000);
    await client.open(b, REDOS.replace("'^(\\w+\\s?)+$'", "'^hello$'"));
    await bFirst;
    const aFirst = client.nextPublished(a, 30_000);
    await client.open(a, REDOS);
    assert.ok(!(await aFirst).diagnostics.some((x) => x.code === 'intent-pattern-redos'), 'the first diagnostics do not wait for the analysis');
    const verdict = await client.nextPublished(a, 60_000);
    assert.ok(verdict.diagnostics.some((x) => x.code === 'intent-pattern-redos'), 'the verdict arrives as a new notification');
    // Anything more (a third notification for a, one for b) would arrive before the server settles.
    await client.settled();
    assert.equal(client.publishedFor(a).length, 2);
    assert.equal(client.publishedFor(b).length, 1, 'b is not diagnosed again: neither its safe verdict nor a’s verdict changes it');
  } finally {
    await client.shutdown();
  }
});

test('the first analysis of a large contract yields to an edit: a request sent while it parses is answered before it ends, and it is dropped for the edited version', async () => {
  const client = new LspClient(serverPath);
  client.configuration = withoutReDoSAnalysis;
  try {
    await client.initialize(wsUri, true);
    await client.trace('messages');
    const uri = `${wsUri}/b/first-seconds.agents.md`;
    const { text } = largeToolsContract();
    const lines = text.split('\n');
    const line = lines.findIndex((l, i) => i > lines.length / 2 && /^### /.test(l));
    const renamed = `${lines[line]!.replace(/`?$/, '')}_renamed`.replace(/^### `?/, '');
    await client.open(uri, text, 1);
    const first = client.pullDiagnostics(uri);
    first.catch(() => undefined);
    // As soon as the server has begun the first analysis, the user types: a tool is renamed, and the outline asked for.
    await client.traced(`analysing ${uri} version 1`);
    await client.change(uri, 2, [{ range: { start: { line, character: 0 }, end: { line, character: lines[line]!.length } }, text: `### ${renamed}` }]);
    const symbols = (await client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as { name: string; children?: { name: string }[] }[];
    const names = (s: typeof symbols): string[] => s.flatMap((x) => [x.name, ...names((x.children ?? []) as typeof symbols)]);
    assert.ok(names(symbols).some((n) => n.includes(renamed)), 'the outline is of the edited text');
    const analyses = (prefix: string) => client.traces.filter((t) => t.message.startsWith(`${prefix} ${uri} version `)).map((t) => t.message);
    assert.deepEqual(analyses('validated'), [], 'no analysis ended before the request was answered');
    await assert.rejects(first, /changed/i, 'the pull of version 1 is answered "changed, pull again"');
    assert.deepEqual(analyses('dropped'), [`dropped ${uri} version 1 (parse)`], 'the analysis of version 1 stopped while parsing');
    // The diagnostics of the edited version are those of a fresh server.
    const edited = [...lines.slice(0, line), `### ${renamed}`, ...lines.slice(line + 1)].join('\n');
    const after = codes(await client.pullUntil(uri, () => true));
    const fresh = new LspClient(serverPath);
    fresh.configuration = withoutReDoSAnalysis;
    try {
      await fresh.initialize(wsUri, true);
      await fresh.open(uri, edited, 1);
      assert.deepEqual(after, codes(await fresh.pullUntil(uri, () => true)));
    } finally {
      await fresh.shutdown();
    }
    assert.deepEqual(analyses('validated'), [`validated ${uri} version 2`]);
  } finally {
    await client.shutdown();
  }
});

test('maxFileBytes is a limit in bytes: 600 Chinese characters are 1,800 bytes', async () => {
  const client = new LspClient(serverPath);
  client.configuration = (item) => (item.section === 'agentsMd' ? { maxFileBytes: 1000 } : null);
  try {
    await client.initialize(wsUri, true);
    const uri = `${wsUri}/a/big.agents.md`;
    await client.open(uri, `${'中'.repeat(600)}\n`);
    const d = await client.pullDiagnostics(uri);
    assert.deepEqual(codes(d), ['file-too-large']);
    assert.match(d[0]!.message, /1,?80[0-9]/);
    await client.change(uri, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text: '中\n' }]);
    assert.deepEqual(codes(await client.pullDiagnostics(uri)), []);
  } finally {
    await client.shutdown();
  }
});

test('the server reports the version of the package it ships in', async () => {
  const client = new LspClient(serverPath);
  try {
    const init = (await client.initialize(wsUri, true)) as { serverInfo?: { version?: string } };
    assert.equal(init.serverInfo?.version, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  } finally {
    await client.shutdown();
  }
});
