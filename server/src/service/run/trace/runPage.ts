/**
 * A run as a picture (docs/dry-run.md, "A run as a picture"): the one page that both VS Code's run
 * view (a webview) and `agents-md trace show --html` (a self-contained file for CI artefacts) show.
 * One card per model step with its events in the timeline's words (the same catalogue texts as
 * the terminal), each with its event id, status, the clause it came from, and the data behind it:
 * the prompt, a call's arguments and result, the values a check or condition saw, who decided
 * what. A second run (a fork, or the previous eval run of the same query) stands beside the first,
 * the events that differ marked. Pure: plain data in, one HTML string out.
 *
 * Security: every text of the run is escaped; the Content-Security-Policy is `default-src 'none'`
 * with only the page's own style (and, in the editor, its own script) allowed by a nonce the
 * host makes; nothing remote is loaded. Colours are VS Code's theme variables, with the reader's
 * light or dark scheme as fallback in a browser. Keyboard: ↑/↓ (or j/k) move between events,
 * Enter opens the event's clause, `<details>` open with Space.
 */
import { locate } from '../../model/locate.ts';
import type { ParsedContract } from '../../model/types.ts';
import type { TraceEvent } from './trace.ts';
import { describeEvent, type TimelineLine } from './timeline.ts';
import { runMessage } from '../runMessage.ts';

/** One run on the page. */
export interface RunPageRun {
  /** Shown above its column ("original", "fork at evt_0012", an eval run's id). */
  readonly label: string;
  readonly events: readonly TraceEvent[];
}

/** What the page shows, and for which host. */
export interface RunPageInput {
  readonly title: string;
  readonly lang?: string;
  readonly run: RunPageRun;
  /** A run shown beside `run` (its fork, the previous eval run of the query); differences are marked in both. */
  readonly beside?: RunPageRun;
  /** Where clauses are: the contract's model and its path as shown (`AGENTS.md:12:3`). */
  readonly contract?: { readonly model: ParsedContract; readonly displayPath: string };
  /** A fresh random token per page: the CSP allows only the style (and script) carrying it. */
  readonly nonce: string;
  /** In the editor: a script for the keyboard and clicks, and buttons that fork the run at an event. */
  readonly interactive?: boolean;
  /** With `beside`, the run shown first when only one fits the width: 0 the run, 1 the one beside (a fork just made). */
  readonly open?: 0 | 1;
}

/** `&`, `<`, `>`, `"`, `'` escaped; characters HTML cannot hold dropped. */
export function escapeHtml(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
const esc = escapeHtml;

const STYLE = `
:root { color-scheme: light dark; --fg: var(--vscode-foreground, CanvasText); --bg: var(--vscode-editor-background, Canvas);
  --ok: var(--vscode-testing-iconPassed, #1a7f37); --bad: var(--vscode-errorForeground, #cf222e); --warn: var(--vscode-editorWarning-foreground, #9a6700);
  --dim: var(--vscode-descriptionForeground, GrayText); --line: var(--vscode-panel-border, #8884); --card: var(--vscode-sideBar-background, #8881);
  --mark: var(--vscode-diffEditor-insertedTextBackground, #ffd33d44); --focus: var(--vscode-focusBorder, Highlight); }
body { font: var(--vscode-font-size, 14px)/1.5 var(--vscode-font-family, system-ui, sans-serif); color: var(--fg); background: var(--bg); margin: 0; padding: .5rem 1rem; }
header { border-bottom: 1px solid var(--line); margin-bottom: .5rem; }
h1 { font-size: 1.2rem; margin: .25rem 0; overflow-wrap: anywhere; }
h2 { font-size: 1rem; margin: .25rem 0; }
.outcome { font-weight: 600; overflow-wrap: anywhere; }
.keys { color: var(--dim); font-size: .85em; }
.runs { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 26rem), 1fr)); gap: 1rem; }
.show { position: absolute; opacity: 0; width: 1px; height: 1px; margin: 0; }
.tabs, .other { display: none; }
.tabs label { padding: .2rem .6rem; border: 1px solid var(--line); border-bottom: none; border-radius: 4px 4px 0 0; cursor: pointer; color: var(--dim); overflow-wrap: anywhere; }
#show-0:checked ~ .tabs label[for="show-0"], #show-1:checked ~ .tabs label[for="show-1"] { color: var(--fg); font-weight: 600; background: var(--card); }
#show-0:focus-visible ~ .tabs label[for="show-0"], #show-1:focus-visible ~ .tabs label[for="show-1"] { outline: 2px solid var(--focus); }
.other { color: var(--warn); font-size: .85em; margin: .25rem 0; }
/* Two columns need 2 × 26rem, the gap and the padding: below that, one run at a time under tabs. */
@media (max-width: 55rem) {
  .tabs { display: flex; gap: .25rem; border-bottom: 1px solid var(--line); margin-top: .5rem; position: sticky; top: 0; z-index: 1; background: var(--bg); padding-top: .25rem; }
  .other { display: block; }
  #show-0:checked ~ .runs > .run:nth-child(2), #show-1:checked ~ .runs > .run:nth-child(1) { display: none; }
}
section { border: 1px solid var(--line); border-radius: 6px; background: var(--card); margin: .5rem 0; padding: .4rem .6rem; }
ol { list-style: none; margin: 0; padding: 0; }
li { padding: .15rem .25rem; border-radius: 3px; overflow-wrap: anywhere; }
li.nested { margin-left: 1.25rem; }
li.differs { background: var(--mark); box-shadow: inset 3px 0 0 var(--warn); }
li:focus { outline: 2px solid var(--focus); outline-offset: -2px; }
.id, .where { color: var(--dim); font-family: var(--vscode-editor-font-family, ui-monospace, monospace); font-size: .85em; }
.diff-note { color: var(--warn); font-size: .85em; font-weight: 600; }
.mark { display: inline-block; width: 1.25rem; text-align: center; }
.success { color: var(--ok); } .failure, .invalid { color: var(--bad); } .timeout, .pending, .unknown { color: var(--warn); } .skipped { color: var(--dim); }
pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 24rem; overflow: auto; margin: .25rem 0 .25rem 1.5rem; font-size: .85em; font-family: var(--vscode-editor-font-family, ui-monospace, monospace); }
summary { cursor: pointer; color: var(--dim); margin-left: 1.5rem; }
button { font: inherit; font-size: .85em; color: var(--vscode-button-secondaryForeground, inherit); background: var(--vscode-button-secondaryBackground, transparent); border: 1px solid var(--line); border-radius: 3px; padding: 0 .4rem; margin-left: .25rem; cursor: pointer; }
button.where { border: none; background: none; text-decoration: underline; padding: 0; }
summary:focus-visible, button:focus-visible { outline: 2px solid var(--focus); }
`;

/** Keyboard and clicks, in the editor only: they post `{ type: 'reveal', pointer }` and `{ type: 'fork', run, at, decision }`. */
const SCRIPT = `
const vscode = acquireVsCodeApi();
const rows = () => [...document.querySelectorAll('li[data-event]')];
// A fork just made: its first event that differs in view (the page may keep the scroll of the run before).
const forked = document.querySelector('#show-1:checked') && document.querySelector('.runs > .run:nth-child(2) li.differs');
if (forked) forked.scrollIntoView({ block: 'center' });
document.addEventListener('click', (e) => {
  const b = e.target.closest('button');
  if (!b) return;
  if (b.dataset.pointer) vscode.postMessage({ type: 'reveal', pointer: b.dataset.pointer });
  if (b.dataset.fork) vscode.postMessage({ type: 'fork', run: Number(b.dataset.run), at: b.dataset.fork, decision: b.dataset.decision || undefined });
});
document.addEventListener('keydown', (e) => {
  if (e.target.classList && e.target.classList.contains('show')) return;
  const li = document.activeElement && document.activeElement.closest ? document.activeElement.closest('li[data-event]') : null;
  const all = rows();
  const at = li ? all.indexOf(li) : -1;
  const go = (i) => { const r = all[Math.max(0, Math.min(all.length - 1, i))]; if (r) { r.focus(); e.preventDefault(); } };
  if (e.key === 'ArrowDown' || e.key === 'j') go(at + 1);
  else if (e.key === 'ArrowUp' || e.key === 'k') go(at - 1);
  else if (e.key === 'Home') go(0);
  else if (e.key === 'End') go(all.length - 1);
  else if (e.key === 'Enter' && li && li === document.activeElement && li.dataset.pointer) vscode.postMessage({ type: 'reveal', pointer: li.dataset.pointer });
});
`;

// Marks every common font has (the terminal's ⏸ and ⏱ are missing from many).
const MARK: Readonly<Record<string, string>> = { success: '✓', failure: '✗', invalid: '✗', timeout: '◷', pending: '‖', skipped: '–', unknown: '?' };

/** Payload keys that are bookkeeping, not values a reader compares. */
const BOOKKEEPING = new Set(['pointer', 'message_id', 'args', 'arg_messages', 'timing', 'text', 'check', 'subject']);

const json = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v, null, 2) ?? String(v)));

/** The data shown under an event, by the event's kind. */
function details(e: TraceEvent, lang: string): { label: string; body: string } | undefined {
  const p = e.payload as Record<string, unknown>;
  const t = (id: string) => runMessage(id, {}, lang);
  switch (e.event_type) {
    case 'prompt':
      return { label: t('label.prompt'), body: String(p['text'] ?? '') };
    case 'tool_call': {
      let args: unknown = p['arguments'];
      try {
        args = JSON.parse(String(args));
      } catch {
        // shown as written
      }
      return { label: t('page.arguments'), body: json(args) };
    }
    case 'tool_result':
      return 'result' in p ? { label: t('page.result'), body: json(p['result']) } : undefined;
    case 'memory_retrieval':
      return Array.isArray(p['records']) ? { label: t('page.records'), body: json(p['records']) } : undefined;
    case 'final_output':
      return { label: t('label.output'), body: String(p['text'] ?? '') };
    case 'validation':
    case 'condition':
    case 'human_input':
    case 'human_response':
    case 'protocol': {
      // The values a check, a condition or a decision involved.
      const values = Object.fromEntries(Object.entries(p).filter(([k]) => !BOOKKEEPING.has(k)));
      return Object.keys(values).length > 0 ? { label: t('page.values'), body: json(values) } : undefined;
    }
    default:
      return undefined;
  }
}

/** What an event is, for comparing two runs: its words without ids, times or token counts. */
function signature(e: TraceEvent, lines: readonly TimelineLine[]): string {
  const { runId: _r, ms: _m, elapsed: _e, tokens: _t, from: _f, ...args } = lines[0]?.args ?? {};
  return `${e.event_type}|${e.status}|${lines[0]?.messageId ?? ''}|${JSON.stringify(args)}`;
}

/** Indices of `a` and of `b` outside a longest common subsequence of their signatures (the events that differ). */
function differing(a: readonly string[], b: readonly string[]): [Set<number>, Set<number>] {
  const n = a.length;
  const m = b.length;
  // Past this size, compare position by position (bounded memory).
  if (n * m > 4_000_000) {
    const da = new Set<number>();
    const db = new Set<number>();
    for (let i = 0; i < Math.max(n, m); i++) if (a[i] !== b[i]) (i < n && da.add(i), i < m && db.add(i));
    return [da, db];
  }
  const len: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) len[i]![j] = a[i] === b[j] ? len[i + 1]![j + 1]! + 1 : Math.max(len[i + 1]![j]!, len[i]![j + 1]!);
  const da = new Set<number>(Array.from({ length: n }, (_, i) => i));
  const db = new Set<number>(Array.from({ length: m }, (_, j) => j));
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] === b[j]) (da.delete(i), db.delete(j), i++, j++);
    else if (len[i + 1]![j]! >= len[i]![j + 1]!) i++;
    else j++;
  }
  return [da, db];
}

/** `file:line:col` of a clause, when it can be located. */
function clauseAt(input: RunPageInput, pointer: string | undefined): string | undefined {
  if (!pointer || !input.contract) return undefined;
  const span = locate(input.contract.model, pointer);
  if (!span) return undefined;
  const at = (span.key ?? span.value).start;
  return `${input.contract.displayPath}:${at.line + 1}:${at.character + 1}`;
}

/** The column of one run: its label, outcome and one card per model step. */
function column(input: RunPageInput, run: RunPageRun, index: number, differs: ReadonlySet<number>, described: readonly TimelineLine[][], other?: RunPageRun): string {
  const lang = input.lang ?? 'en';
  const t = (id: string, args: Readonly<Record<string, string | number>> = {}) => runMessage(id, args, lang);
  const sections: string[] = [];
  let items: string[] = [];
  let heading = t('label.run');
  const flush = () => {
    if (items.length > 0) sections.push(`<section><h2>${esc(heading)}</h2><ol>${items.join('')}</ol></section>`);
    items = [];
  };
  const ended = run.events.some((e) => e.event_type === 'task_end');
  // The answer each human decision got: its fork offers the other ones.
  const decided = new Map(run.events.filter((e) => e.event_type === 'human_response').map((e) => [String(e.payload['input_ref']), e.payload['decision']]));
  run.events.forEach((e, n) => {
    const lines = described[n]!;
    // A model step opens a card; the calls, checks and decisions of that step sit in it.
    if (e.event_type === 'model_step' || e.event_type === 'task_end') {
      flush();
      heading = lines[0]!.text;
    }
    const pointer = lines[0]?.pointer;
    const diff = differs.has(n);
    lines.forEach((l, i) => {
      const first = i === 0;
      const where = l.messageId === 'timeline.task_end.stats' ? undefined : clauseAt(input, l.pointer);
      const clause = where ? (input.interactive ? ` <button class="where" data-pointer="${esc(l.pointer!)}" title="${esc(t('page.reveal'))}">${esc(where)}</button>` : ` <span class="where">${esc(where)}</span>`) : '';
      const data = first ? details(e, lang) : undefined;
      const forks = first && input.interactive && ended && e.event_type !== 'task_end' ? forkButtons(e, index, t, decided.get(e.event_id)) : '';
      const attrs = first ? ` data-event="${esc(e.event_id)}" tabindex="0"${pointer ? ` data-pointer="${esc(pointer)}"` : ''}` : '';
      items.push(
        `<li class="${[l.nested ? 'nested' : '', diff ? 'differs' : ''].filter(Boolean).join(' ')}"${attrs}>` +
          (first ? `<span class="id">${esc(e.event_id)}</span> ` : '') +
          `<span class="mark ${esc(l.status)}" role="img" aria-label="${esc(l.status)}">${MARK[l.status] ?? ''}</span> ${esc(l.text)}${clause}` +
          (first && diff ? ` <span class="diff-note">${esc(t('page.differs'))}</span>` : '') +
          forks +
          (data ? `<details><summary>${esc(data.label)}</summary><pre>${esc(data.body)}</pre></details>` : '') +
          '</li>',
      );
    });
  });
  flush();
  const end = [...run.events].reverse().find((e) => e.event_type === 'task_end');
  const outcome = end ? describeEvent(end, lang)[0] : undefined;
  // At a width with one run at a time: where the other one is.
  const elsewhere = other ? `<p class="other">${esc(t('page.other-run', { other: other.label, count: differs.size }))}</p>` : '';
  return `<div class="run"><h2>${esc(run.label)}</h2>${elsewhere}${outcome ? `<p class="outcome ${esc(outcome.status)}">${esc(outcome.text)}</p>` : ''}${sections.join('')}</div>`;
}

/** "Fork here" buttons; at a human decision, one per answer not taken ("what if the human had rejected?"). */
function forkButtons(e: TraceEvent, run: number, t: (id: string) => string, taken: unknown): string {
  const button = (label: string, decision?: string) => `<button data-fork="${esc(e.event_id)}" data-run="${run}"${decision ? ` data-decision="${decision}"` : ''}>${esc(label)}</button>`;
  if (e.event_type === 'human_input') return (taken === 'approve' ? '' : button(t('page.fork-approve'), 'approve')) + (taken === 'reject' ? '' : button(t('page.fork-reject'), 'reject'));
  return e.event_type === 'model_step' || e.event_type === 'tool_call' ? button(t('page.fork')) : '';
}

/** The page of a run (and the run beside it). */
export function runPageHtml(input: RunPageInput): string {
  const lang = input.lang ?? 'en';
  const runs = input.beside ? [input.run, input.beside] : [input.run];
  const described = runs.map((r) => r.events.map((e) => describeEvent(e, lang)));
  const [da, db] = input.beside ? differing(runs[0]!.events.map((e, i) => signature(e, described[0]![i]!)), runs[1]!.events.map((e, i) => signature(e, described[1]![i]!))) : [new Set<number>(), new Set<number>()];
  const nonce = esc(input.nonce);
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'${input.interactive ? `; script-src 'nonce-${nonce}'` : ''}`;
  const columns = runs.map((r, i) => column(input, r, i, i === 0 ? da : db, described[i]!, runs[1 - i]));
  const differences = input.beside ? `<p class="diff-note">${esc(runMessage('page.differences', { count: da.size + db.size, a: da.size, first: runs[0]!.label, b: db.size, second: runs[1]!.label }, lang))}</p>` : '';
  // One radio per run and its label as a tab: CSS alone shows the checked run when two do not fit (no script in the file).
  const open = input.open ?? 0;
  const tabs = input.beside
    ? runs.map((_, i) => `<input type="radio" class="show" name="show" id="show-${i}"${i === open ? ' checked' : ''}>`).join('') +
      `<nav class="tabs">${runs.map((r, i) => `<label for="show-${i}">${esc(r.label)}</label>`).join('')}</nav>`
    : '';
  return [
    '<!DOCTYPE html>',
    `<html lang="${esc(lang)}">`,
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(input.title)}</title>`,
    `<style nonce="${nonce}">${STYLE}</style>`,
    '</head>',
    '<body>',
    `<header><h1>${esc(input.title)}</h1>${differences}${input.interactive ? `<p class="keys">${esc(runMessage('page.keys', {}, lang))}</p>` : ''}</header>`,
    `${tabs}<main class="runs">${columns.join('')}</main>`,
    input.interactive ? `<script nonce="${nonce}">${SCRIPT}</script>` : '',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
