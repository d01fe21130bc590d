// A run as a picture (docs/dry-run.md, "A run as a picture"): the one page the run view in VS Code
// and `agents-md trace show --html` both show. Every event with its id, data and clause; hostile
// text escaped; a strict Content-Security-Policy with the host's nonce; nothing remote; a run
// beside its other branch with the events that differ marked; English and Chinese.
// Run: node --import tsx --test test/run-page.test.ts
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, runPageHtml } from '../server/src/service/run/trace/runPage.ts';
import { contract, run, snapshot } from './helpers/dryRun.ts';

const q = (yaml: string) => snapshot(yaml).queries[0]!;
const REFUND = (decision: string) => q(`  - id: h\n    query: refund order ORD-123\n    model:\n      - { call: refund_order, arguments: { order_id: ORD-123, amount: 500 } }\n      - final: { status: paid }\n    human: { Big refund: ${decision} }\n`);
const CONTRACT = { model: contract, displayPath: 'AGENTS.md' };

describe('the run page', () => {
  test('every event with its id, status, data and clause; a strict CSP with the nonce; no script in the file; nothing remote', async () => {
    const r = await run(REFUND('reject'));
    const html = runPageHtml({ title: 'h · AGENTS.md', lang: 'en', nonce: 'Tm9uY2U=', run: { label: 'this run', events: r.events }, contract: CONTRACT });
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-Tm9uY2U='">/);
    assert.match(html, /<style nonce="Tm9uY2U=">/);
    assert.doesNotMatch(html, /<script|https?:|\bsrc=|\bhref=|url\(|@import/i, 'no script and no resource of any kind');
    for (const e of r.events) assert.ok(html.includes(`data-event="${e.event_id}"`), e.event_id);
    assert.match(html, /HUMAN_IN_THE_LOOP &quot;Big refund&quot;: condition &quot;amount &gt; 100&quot; is true <span class="where">AGENTS.md:\d+:\d+<\/span>/);
    assert.match(html, /<details><summary>arguments<\/summary><pre>\{\n {2}&quot;order_id&quot;: &quot;ORD-123&quot;,\n {2}&quot;amount&quot;: 500\n\}<\/pre><\/details>/);
    // Who decided, and the values a condition saw.
    assert.match(html, /human rejected/);
    assert.match(html, /<summary>values<\/summary><pre>[^<]*&quot;state&quot;: &quot;true&quot;/);
    assert.match(html, /<p class="outcome failure">failure HUMAN_REJECTED/);
    // Theme colours are VS Code's variables (with a browser fallback).
    assert.match(html, /var\(--vscode-errorForeground, /);
  });

  test('hostile text stays text: query, arguments, answer and title cannot open a tag or an attribute', async () => {
    const evil = `<script>alert(1)</script><img src=x onerror=alert(2)>" onmouseover='x'`;
    const r = await run(q(`  - id: evil\n    query: ${JSON.stringify(`refund order ORD-123 ${evil}`)}\n    model:\n      - { call: get_order, arguments: { order_id: ${JSON.stringify(evil)} } }\n      - final: { status: ${JSON.stringify(evil)} }\n`));
    for (const interactive of [false, true]) {
      const html = runPageHtml({ title: evil, lang: 'en', nonce: `n"'<>`, interactive, run: { label: evil, events: r.events }, beside: { label: evil, events: r.events } });
      assert.equal(html.match(/<script/g)?.length ?? 0, interactive ? 1 : 0, 'only the page\'s own script');
      assert.doesNotMatch(html, /<img|<script>alert|onmouseover='|" onmouseover/);
      assert.ok(html.includes(escapeHtml(evil)));
      assert.match(html, /content="default-src 'none'; style-src 'nonce-n&quot;&#39;&lt;&gt;'/);
    }
    assert.equal(escapeHtml('a\u0000b\u001b<'), 'ab&lt;');
  });

  test('in the editor: a script with the nonce, events reachable by keyboard, clauses as buttons, fork buttons at decisions', async () => {
    const r = await run(REFUND('reject'));
    const html = runPageHtml({ title: 't', nonce: 'abc', interactive: true, run: { label: 'this run', events: r.events }, contract: CONTRACT });
    assert.match(html, /content="default-src 'none'; style-src 'nonce-abc'; script-src 'nonce-abc'"/);
    assert.match(html, /<script nonce="abc">[\s\S]*acquireVsCodeApi\(\)[\s\S]*ArrowDown[\s\S]*<\/script>/);
    assert.match(html, /<li class="[^"]*" data-event="evt_\d+" tabindex="0" data-pointer="\/human_in_the_loop\/0">/);
    assert.match(html, /<button class="where" data-pointer="\/human_in_the_loop\/0" title="Show this clause in the contract">AGENTS.md:\d+:\d+<\/button>/);
    const human = r.events.find((e) => e.event_type === 'human_input')!;
    // The decision was a rejection: a fork there asks "what if the human had approved?", and only that.
    assert.ok(html.includes(`<button data-fork="${human.event_id}" data-run="0" data-decision="approve">Fork: approve</button>`));
    assert.ok(!html.includes(`data-decision="reject"`), 'no fork that repeats the decision taken');
    assert.match(html, /↑\/↓ or j\/k: move between events/);
  });

  test('a run beside its other branch: the events that differ are marked in both columns, the same ones are not', async () => {
    const [rejected, approved] = [await run(REFUND('reject')), await run(REFUND('approve'))];
    const html = runPageHtml({ title: 't', nonce: 'n', run: { label: 'this run', events: rejected.events }, beside: { label: 'fork at evt_0009', events: approved.events }, contract: CONTRACT });
    const columns = html.split('<div class="run">').slice(1);
    assert.equal(columns.length, 2);
    assert.match(columns[0]!, /^<h2>this run<\/h2>/);
    assert.match(columns[1]!, /^<h2>fork at evt_0009<\/h2>/);
    const marked = (col: string) => [...col.matchAll(/<li class="[^"]*differs[^"]*" data-event="(evt_\d+)"/g)].map((m) => m[1]);
    const [left, right] = [marked(columns[0]!), marked(columns[1]!)];
    assert.ok(left.length > 0 && right.length > 0, `${left} | ${right}`);
    // The decision differs; the trigger, memory and the call before it do not.
    const id = (events: typeof rejected.events, type: string) => events.find((e) => e.event_type === type)!.event_id;
    assert.ok(left.includes(id(rejected.events, 'human_response')) && right.includes(id(approved.events, 'human_response')));
    assert.ok(!left.includes(id(rejected.events, 'trigger_match')) && !right.includes(id(approved.events, 'tool_call')));
    // The header's count is the two columns' counts, each named (a tab's note counts its own column).
    assert.match(html, new RegExp(`<p class="diff-note">${left.length + right.length} events differ between the two runs \\(marked\\): ${left.length} in this run, ${right.length} in fork at evt_0009\\.</p>`));
    // Side-bar width: the columns stack (one column under 26rem each).
    assert.match(html, /grid-template-columns: repeat\(auto-fit, minmax\(min\(100%, 26rem\), 1fr\)\)/);
  });

  test('where two columns do not fit: one run at a time under tabs (CSS only), the one shown first chosen, each saying where the other is', async () => {
    const [rejected, approved] = [await run(REFUND('reject')), await run(REFUND('approve'))];
    const page = (open?: 0 | 1, lang = 'en') => runPageHtml({ title: 't', lang, nonce: 'n', ...(open === undefined ? {} : { open }), run: { label: 'this run', events: rejected.events }, beside: { label: 'fork at evt_0009', events: approved.events }, contract: CONTRACT });
    const html = page();
    assert.match(html, /<input type="radio" class="show" name="show" id="show-0" checked><input type="radio" class="show" name="show" id="show-1"><nav class="tabs"><label for="show-0">this run<\/label><label for="show-1">fork at evt_0009<\/label><\/nav><main class="runs">/);
    assert.match(page(1), /id="show-0"><input type="radio" class="show" name="show" id="show-1" checked>/);
    // Below two columns' width, the unchecked run is hidden; above it, the tabs and notes are.
    assert.match(html, /@media \(max-width: 55rem\) \{[^@]*#show-0:checked ~ \.runs > \.run:nth-child\(2\), #show-1:checked ~ \.runs > \.run:nth-child\(1\) \{ display: none; \}/);
    const columns = html.split('<div class="run">').slice(1);
    assert.match(columns[0]!, /^<h2>this run<\/h2><p class="other">One run at a time at this width: fork at evt_0009 is under its tab above\. \d+ events here differ from it \(marked\)\.<\/p>/);
    assert.match(columns[1]!, /^<h2>fork at evt_0009<\/h2><p class="other">One run at a time at this width: this run is under its tab above\./);
    assert.match(page(0, 'zh-cn'), /<p class="other">此宽度下一次只显示一个运行：fork at evt_0009 在上方它的标签页中。这里有 \d+ 个事件与它不同（已标记）。<\/p>/);
    // Beside a run that says the same (the query run again): none marked, and the page says so.
    const same = runPageHtml({ title: 't', nonce: 'n', run: { label: 'this run', events: rejected.events }, beside: { label: 'previous run', events: rejected.events } });
    assert.match(same, /<p class="diff-note">No event differs between the two runs\.<\/p>/);
    assert.match(same, /previous run is under its tab above\. No event here differs from it\./);
    // One run alone: no tabs, no note.
    const alone = runPageHtml({ title: 't', nonce: 'n', run: { label: 'this run', events: rejected.events } });
    assert.doesNotMatch(alone, /<input|<nav|class="other"/);
  });

  test('in Chinese', async () => {
    const r = await run(REFUND('reject'));
    const html = runPageHtml({ title: 't', lang: 'zh-cn', nonce: 'n', interactive: true, run: { label: '本次运行', events: r.events } });
    assert.match(html, /<html lang="zh-cn">/);
    assert.match(html, /拒绝/);
    assert.match(html, /<summary>参数<\/summary>/);
    assert.match(html, /分叉：批准/);
    assert.doesNotMatch(html, /Fork: approve|<summary>arguments/);
  });
});
