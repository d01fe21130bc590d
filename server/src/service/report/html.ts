/**
 * The workspace report as one self-contained HTML page (docs/workspace.md): the coverage matrix
 * and the sharing graph drawn as inline SVG, the other sections as tables. No remote resource: a
 * Content-Security-Policy allows inline styles only, so the page can be attached to a CI run as is.
 * The editor's Contracts overview (docs/workspace.md, "In the editor") asks for the interactive
 * page: its style and one script allowed by a nonce, the editor theme's colours, and every contract
 * and finding a link that posts `{ type: 'open', uri, line }` to the editor.
 */
import type { WorkspaceReport } from './build.ts';
import { reportLabels, reportTables, type ReportLabels } from './render.ts';
import { displayWidth } from '../text/width.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const clip = (s: string, n: number) => (s.length > n ? `…${s.slice(s.length - n + 1)}` : s);
/** Width in px of `s` in the SVGs' 12px font, on the generous side (a Chinese character counts twice). */
const textPx = (s: string) => Math.ceil(displayWidth(s) * 7.5);

const COLOR = { yes: '#2e7d32', no: '#c62828', na: '#bdbdbd' } as const;
const ROW = 20;
const LABEL = 300;

/** How the page is shown: a file (no script), or the editor's web view (links, theme colours). */
export interface ReportHtmlOptions {
  /** Fresh per page: the page's Content-Security-Policy allows only its own style and script. */
  readonly nonce?: string;
  /** Contracts and findings post `{ type: 'open', uri, line }` (1-based) to the editor; needs `nonce`. */
  readonly interactive?: boolean;
}

/** The attributes of a link to `uri` at `line` (1-based), or nothing on a static page. */
const linkTo = (on: boolean, uri: string, line: number) => (on ? ` class="link" tabindex="0" data-uri="${esc(uri)}" data-line="${line}"` : '');

function matrixSvg(report: WorkspaceReport, l: ReportLabels, links: boolean): string {
  const cell = 26;
  const top = 190;
  const cols = report.clauses.length;
  const barX = LABEL + cols * cell + 16;
  const counts = report.contracts.map((r) => l.t('report.count', { count: r.coverage.filter((x) => x.exercised).length, total: r.coverage.length }));
  // As wide as the longest count ("17 of 120") and the column's title, so that none is cut off.
  const width = Math.max(barX + 106 + Math.max(0, ...counts.map(textPx)), barX + textPx(l.t('report.section.dryRun'))) + 8;
  const height = top + report.contracts.length * ROW + 10;
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${esc(l.t('report.section.matrix'))}">`];
  report.clauses.forEach((c, j) => {
    const x = LABEL + j * cell + cell / 2;
    out.push(`<text x="${x}" y="${top - 8}" transform="rotate(-50 ${x} ${top - 8})" class="h">${esc(l.clause(c))}</text>`);
  });
  out.push(`<text x="${barX}" y="${top - 8}" class="h">${esc(l.t('report.section.dryRun'))}</text>`);
  report.contracts.forEach((r, i) => {
    const y = top + i * ROW;
    out.push(`<text x="${LABEL - 8}" y="${y + 14}" text-anchor="end"${linkTo(links, r.uri, 1)}><title>${esc(r.path)}</title>${esc(clip(r.path, 42))}</text>`);
    report.clauses.forEach((c, j) => {
      const v = r.clauses[c];
      out.push(`<rect x="${LABEL + j * cell + 2}" y="${y + 2}" width="${cell - 4}" height="${ROW - 4}" rx="3" fill="${COLOR[v]}"><title>${esc(`${r.path} · ${l.clause(c)}: ${l.cell(v)}`)}</title></rect>`);
    });
    const done = r.coverage.filter((x) => x.exercised).length;
    const total = r.coverage.length;
    out.push(`<rect x="${barX}" y="${y + 4}" width="100" height="${ROW - 8}" fill="#eee"/>`);
    if (total > 0) out.push(`<rect x="${barX}" y="${y + 4}" width="${Math.round((100 * done) / total)}" height="${ROW - 8}" fill="#1565c0"/>`);
    out.push(`<text x="${barX + 106}" y="${y + 14}">${esc(counts[i]!)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}

function graphSvg(report: WorkspaceReport, l: ReportLabels): string {
  const users = report.contracts.map((r) => r.path);
  const rightX = LABEL + 260;
  const height = Math.max(users.length, report.shared.length) * ROW + 20;
  const yOf = (i: number, n: number) => 10 + (n <= 1 ? 0 : (i * (height - 20 - ROW)) / (n - 1)) + ROW / 2;
  const index = new Map(users.map((p, i) => [p, i]));
  const width = rightX + 12 + Math.max(0, ...report.shared.map((n) => textPx(l.shared(n.kind, n.name)))) + 8;
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${esc(l.t('report.section.graph'))}">`];
  report.shared.forEach((n, k) => {
    const y = yOf(k, report.shared.length);
    for (const p of n.contracts) {
      const i = index.get(p);
      if (i === undefined) continue;
      out.push(`<line x1="${LABEL}" y1="${yOf(i, users.length)}" x2="${rightX - 6}" y2="${y}" stroke="${n.conflict ? COLOR.no : '#90a4ae'}" stroke-width="${n.conflict ? 1.6 : 1}" opacity="0.7"/>`);
    }
  });
  users.forEach((p, i) => {
    const y = yOf(i, users.length);
    out.push(`<circle cx="${LABEL}" cy="${y}" r="4" fill="#37474f"/><text x="${LABEL - 8}" y="${y + 4}" text-anchor="end"><title>${esc(p)}</title>${esc(clip(p, 42))}</text>`);
  });
  report.shared.forEach((n, k) => {
    const y = yOf(k, report.shared.length);
    const fill = n.conflict ? COLOR.no : n.kind === 'pool' ? '#1565c0' : '#6a1b9a';
    const shape = n.kind === 'pool' ? `<circle cx="${rightX}" cy="${y}" r="6" fill="${fill}"/>` : `<rect x="${rightX - 6}" y="${y - 6}" width="12" height="12" fill="${fill}"/>`;
    out.push(`${shape}<text x="${rightX + 12}" y="${y + 4}"><title>${esc(n.contracts.join('\n'))}</title>${esc(l.shared(n.kind, n.name))}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}

/** A table; `firstCell(i)` gives the attributes of body row i's first cell (a link to its contract). */
function table(rows: readonly (readonly string[])[], firstCell: (i: number) => string = () => ''): string {
  const [head, ...body] = rows;
  const row = (r: readonly string[], i: number) => `<tr>${r.map((c, j) => `<td${j === 0 ? firstCell(i) : ''}>${esc(c)}</td>`).join('')}</tr>`;
  return `<table><thead><tr>${head!.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${body.map(row).join('\n')}</tbody></table>`;
}

/** Clicks and Enter on a link, in the editor only. */
const SCRIPT = `
const vscode = acquireVsCodeApi();
const open = (el) => vscode.postMessage({ type: 'open', uri: el.dataset.uri, line: Number(el.dataset.line) });
document.addEventListener('click', (e) => { const el = e.target.closest('[data-uri]'); if (el) open(el); });
document.addEventListener('keydown', (e) => {
  const el = e.target.closest ? e.target.closest('[data-uri]') : null;
  if (el && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); open(el); }
});
`;

/** The report as an HTML document in `lang`. */
export function reportHtml(report: WorkspaceReport, lang = 'en', options: ReportHtmlOptions = {}): string {
  const l = reportLabels(lang);
  const { t } = l;
  const tb = reportTables(report, l);
  const links = options.interactive === true && options.nonce !== undefined;
  const nonce = options.nonce === undefined ? '' : esc(options.nonce);
  const csp = nonce ? `default-src 'none'; style-src 'nonce-${nonce}'${links ? `; script-src 'nonce-${nonce}'` : ''}` : "default-src 'none'; style-src 'unsafe-inline'";
  const findings = report.contracts.flatMap((r) => r.findings.map((f) => `<li${linkTo(links, r.uri, f.line)}>${esc(l.finding(r, f))}</li>`));
  return `<!doctype html>
<html lang="${esc(lang)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${esc(t('report.title'))}</title>
<style${nonce ? ` nonce="${nonce}"` : ''}>
body { font: var(--vscode-font-size, 14px) var(--vscode-font-family, system-ui, sans-serif); margin: 24px; color: var(--vscode-foreground, #212121); background: var(--vscode-editor-background, #fff); }
svg text { font: 12px var(--vscode-font-family, system-ui, sans-serif); fill: var(--vscode-foreground, #212121); }
svg text.h { font-weight: 600; }
.wide { overflow-x: auto; }
table { border-collapse: collapse; margin: 8px 0 24px; }
th, td { border: 1px solid var(--vscode-panel-border, #ddd); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: var(--vscode-sideBar-background, #f5f5f5); }
.legend { color: var(--vscode-descriptionForeground, #555); }
.link { cursor: pointer; text-decoration: underline; color: var(--vscode-textLink-foreground, inherit); }
svg text.link { fill: var(--vscode-textLink-foreground, #212121); }
.link:hover, .link:focus-visible { color: var(--vscode-textLink-activeForeground, inherit); outline: 1px solid var(--vscode-focusBorder, Highlight); }
</style>
</head>
<body>
<h1>${esc(t('report.title'))}</h1>
<p>${esc(l.summary(report))}</p>
<h2>${esc(t('report.section.matrix'))}</h2>
<p class="legend">${esc(t('report.legend'))}</p>
<div class="wide">${matrixSvg(report, l, links)}</div>
<h2>${esc(t('report.section.graph'))}</h2>
<p class="legend">${esc(t('report.legend.graph'))}</p>
${report.shared.length > 0 ? `<div class="wide">${graphSvg(report, l)}</div>` : `<p>${esc(t('report.none'))}</p>`}
<h2>${esc(t('report.section.findings'))}</h2>
${findings.length > 0 ? `<ul>\n${findings.join('\n')}\n</ul>` : `<p>${esc(t('report.none'))}</p>`}
<h2>${esc(t('report.section.versions'))}</h2>
${table(tb.versions, (i) => linkTo(links, report.contracts[i]!.uri, 1))}
<h2>${esc(t('report.section.dryRun'))}</h2>
${table(tb.dryRun)}
${links ? `<script nonce="${nonce}">${SCRIPT}</script>` : ''}
</body>
</html>
`;
}
