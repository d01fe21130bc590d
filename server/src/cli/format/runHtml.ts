/**
 * `agents-md trace show --html` (docs/dry-run.md, "A run as a picture"): one run as a
 * self-contained HTML page for CI artefacts. The timeline's lines (the same catalogue words as the
 * terminal) grouped by model step, each with its event id, status, the clause it came from
 * (`file:line`), and the data behind it: the prompt, a call's arguments, a result, a check's
 * values, who decided what. No script and no remote resource; a Content-Security-Policy allows
 * only the page's own style (by hash); colours follow the reader's light or dark scheme;
 * `<details>` open and close from the keyboard.
 */
import { createHash } from 'node:crypto';
import { describeEvent, runMessage, type TraceEvent } from '../../service/index.ts';
import { clauseLocation, type TimelineOptions } from './timeline.ts';
import { xmlEscape as esc } from './junit.ts';

const STYLE = `
:root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --dim: #6e7781; --line: #d0d7de; --card: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --ok: #3fb950; --bad: #f85149; --warn: #d29922; --dim: #8b949e; --line: #30363d; --card: #161b22; } }
body { font: 14px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem; }
header { border-bottom: 1px solid var(--line); margin-bottom: 1rem; }
.outcome { font-weight: 600; }
section { border: 1px solid var(--line); border-radius: 6px; background: var(--card); margin: .75rem 0; padding: .5rem .75rem; }
h2 { font-size: 1rem; margin: .25rem 0; }
ol { list-style: none; margin: 0; padding: 0; }
li { padding: .15rem 0; }
li.nested { padding-left: 1.5rem; }
.id, .where { color: var(--dim); font-family: ui-monospace, monospace; font-size: 12px; }
.mark { display: inline-block; width: 1.25rem; text-align: center; }
.success { color: var(--ok); } .failure, .invalid { color: var(--bad); } .timeout, .pending, .unknown { color: var(--warn); } .skipped { color: var(--dim); }
pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 24rem; overflow: auto; margin: .25rem 0 .25rem 1.5rem; font-size: 12px; }
summary { cursor: pointer; color: var(--dim); margin-left: 1.5rem; }
summary:focus-visible, a:focus-visible { outline: 2px solid currentColor; }
`;

// Marks every common font has (the terminal's ⏸ and ⏱ are missing from many).
const MARK: Record<string, string> = { success: '✓', failure: '✗', invalid: '✗', timeout: '◷', pending: '‖', skipped: '–', unknown: '?' };

/** The data shown under an event, by the event's kind. */
function details(e: TraceEvent, lang: string): { label: string; body: string } | undefined {
  const p = e.payload as Record<string, unknown>;
  const json = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));
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
      return { label: 'arguments', body: json(args) };
    }
    case 'tool_result':
      return 'result' in p ? { label: 'result', body: json(p['result']) } : undefined;
    case 'memory_retrieval':
      return Array.isArray(p['records']) ? { label: 'records', body: json(p['records']) } : undefined;
    case 'final_output':
      return { label: t('label.output'), body: String(p['text'] ?? '') };
    case 'human_input':
      return p['arguments'] !== undefined ? { label: 'arguments', body: json(p['arguments']) } : undefined;
    default:
      return undefined;
  }
}

/** The page of one run's events. */
export function runHtml(events: readonly TraceEvent[], options: TimelineOptions & { readonly title: string }): string {
  const lang = options.lang ?? 'en';
  const end = events.find((e) => e.event_type === 'task_end');
  const sections: string[] = [];
  let items: string[] = [];
  let heading = runMessage('label.run', {}, lang);
  const flush = () => {
    if (items.length > 0) sections.push(`<section><h2>${esc(heading)}</h2><ol>${items.join('')}</ol></section>`);
    items = [];
  };
  for (const e of events) {
    const lines = describeEvent(e, lang);
    // A model step opens a section; the calls, checks and decisions of that step sit in it.
    if (e.event_type === 'model_step' || e.event_type === 'task_end') {
      flush();
      heading = lines[0]!.text;
    }
    lines.forEach((l, i) => {
      const where = l.messageId === 'timeline.task_end.stats' ? undefined : clauseLocation(options, l.pointer);
      const id = i === 0 ? `<span class="id">${esc(e.event_id)}</span> ` : '';
      const data = i === 0 ? details(e, lang) : undefined;
      items.push(
        `<li class="${l.nested ? 'nested' : ''}">${id}<span class="mark ${l.status}" aria-label="${esc(l.status)}">${MARK[l.status] ?? ''}</span> ${esc(l.text)}${where ? ` <span class="where">${esc(where)}</span>` : ''}` +
          (data ? `<details><summary>${esc(data.label)}</summary><pre>${esc(data.body)}</pre></details>` : '') +
          '</li>',
      );
    });
  }
  flush();
  const hash = createHash('sha256').update(STYLE).digest('base64');
  const outcome = end ? describeEvent(end, lang)[0]! : undefined;
  return [
    '<!DOCTYPE html>',
    `<html lang="${esc(lang)}">`,
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-${hash}'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(options.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<header><h1>${esc(options.title)}</h1>${outcome ? `<p class="outcome ${outcome.status}">${esc(outcome.text)}</p>` : ''}</header>`,
    '<main>',
    ...sections,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
