import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// ARCHITECTURE.md, "Layers": the same table as data, bottom-up. A layer is a folder (ending in
// `/`) or one file; it may import itself and the layers it lists, nothing else of ours. Paths
// are relative to the repository.
const LAYERS: readonly { readonly path: string; readonly mayImport: readonly string[] }[] = [
  { path: 'server/src/service/util/', mayImport: [] },
  { path: 'server/src/service/types.ts', mayImport: [] },
  { path: 'server/src/service/text/', mayImport: ['server/src/service/types.ts'] },
  { path: 'server/src/service/l10n/', mayImport: ['server/src/service/types.ts', 'l10n/'] },
  { path: 'server/src/service/schema/', mayImport: ['schemas/'] },
  { path: 'server/src/service/providers/', mayImport: [] },
  { path: 'server/src/service/model/', mayImport: ['server/src/service/util/', 'server/src/service/types.ts', 'server/src/service/text/', 'server/src/service/l10n/', 'server/src/service/schema/'] },
  { path: 'server/src/service/parse/', mayImport: ['server/src/service/util/', 'server/src/service/types.ts', 'server/src/service/text/', 'server/src/service/schema/', 'server/src/service/model/'] },
  {
    path: 'server/src/service/validate/',
    mayImport: ['server/src/service/util/', 'server/src/service/types.ts', 'server/src/service/l10n/', 'server/src/service/schema/', 'server/src/service/model/', 'server/src/service/parse/', 'server/src/service/providers/'],
  },
  {
    path: 'server/src/service/workspace/',
    mayImport: [
      'server/src/service/util/', 'server/src/service/types.ts', 'server/src/service/text/', 'server/src/service/l10n/', 'server/src/service/schema/',
      'server/src/service/model/', 'server/src/service/parse/', 'server/src/service/validate/',
    ],
  },
  {
    path: 'server/src/service/run/',
    mayImport: [
      'server/src/service/util/', 'server/src/service/types.ts', 'server/src/service/text/', 'server/src/service/l10n/', 'server/src/service/schema/',
      'server/src/service/model/', 'server/src/service/parse/', 'server/src/service/validate/', 'server/src/service/workspace/',
    ],
  },
  {
    path: 'server/src/service/conformance/',
    mayImport: ['server/src/service/types.ts', 'server/src/service/l10n/', 'server/src/service/model/', 'server/src/service/validate/', 'server/src/service/run/'],
  },
  {
    path: 'server/src/service/prove/',
    mayImport: ['server/src/service/types.ts', 'server/src/service/l10n/', 'server/src/service/model/', 'server/src/service/parse/', 'server/src/service/run/'],
  },
  {
    path: 'server/src/service/report/',
    mayImport: ['server/src/service/types.ts', 'server/src/service/text/', 'server/src/service/l10n/', 'server/src/service/model/', 'server/src/service/validate/', 'server/src/service/run/'],
  },
  {
    path: 'server/src/service/diff/',
    mayImport: ['server/src/service/types.ts', 'server/src/service/l10n/', 'server/src/service/schema/', 'server/src/service/model/', 'server/src/service/parse/'],
  },
  {
    path: 'server/src/service/export/',
    mayImport: ['server/src/service/types.ts', 'server/src/service/l10n/', 'server/src/service/model/', 'server/src/service/parse/', 'server/src/service/run/', 'server/src/service/providers/'],
  },
  {
    path: 'server/src/service/features/',
    mayImport: [
      'server/src/service/types.ts', 'server/src/service/text/', 'server/src/service/l10n/', 'server/src/service/schema/', 'server/src/service/model/',
      'server/src/service/parse/', 'server/src/service/validate/', 'server/src/service/workspace/', 'server/src/service/run/', 'server/src/service/diff/',
      'server/src/service/export/',
    ],
  },
  {
    path: 'server/src/service/index.ts',
    mayImport: [
      'server/src/service/util/', 'server/src/service/types.ts', 'server/src/service/text/', 'server/src/service/l10n/', 'server/src/service/schema/',
      'server/src/service/model/', 'server/src/service/parse/', 'server/src/service/validate/', 'server/src/service/workspace/', 'server/src/service/run/',
      'server/src/service/diff/', 'server/src/service/features/', 'server/src/service/report/', 'server/src/service/providers/', 'server/src/service/export/',
      'server/src/service/conformance/', 'server/src/service/prove/', 'server/src/service/messageSets.ts',
    ],
  },
  {
    path: 'server/src/service/messageSets.ts',
    mayImport: [
      'server/src/service/l10n/', 'server/src/service/model/', 'server/src/service/validate/', 'server/src/service/workspace/', 'server/src/service/run/',
      'server/src/service/diff/', 'server/src/service/features/', 'server/src/service/export/',
    ],
  },
  {
    path: 'server/src/service/host.ts',
    mayImport: [
      'server/src/service/util/', 'server/src/service/text/', 'server/src/service/l10n/', 'server/src/service/validate/', 'server/src/service/workspace/',
      'server/src/service/run/', 'server/src/service/diff/', 'server/src/service/messageSets.ts',
    ],
  },
  { path: 'server/src/node/', mayImport: ['server/src/service/index.ts', 'server/src/service/host.ts'] },
  { path: 'server/src/mcp/', mayImport: ['server/src/service/index.ts', 'server/src/service/host.ts', 'server/src/node/'] },
  { path: 'server/src/cli/quickHelp.ts', mayImport: ['server/src/service/l10n/lang.ts', 'server/src/cli/meta.ts', 'server/src/cli/helpTexts.json', 'server/src/cli/defaultLocale.ts'] },
  { path: 'server/src/cli/', mayImport: ['server/src/service/index.ts', 'server/src/service/host.ts', 'server/src/node/', 'server/src/mcp/', 'package.json'] },
  { path: 'server/src/action/', mayImport: ['server/src/service/index.ts', 'server/src/service/host.ts', 'server/src/node/', 'server/src/cli/'] },
  { path: 'server/src/lsp/', mayImport: ['server/src/service/index.ts', 'server/src/service/host.ts', 'server/src/node/', 'package.json'] },
  { path: 'server/src/server.ts', mayImport: ['server/src/lsp/'] },
  { path: 'client/src/', mayImport: ['server/src/lsp/customRequests.ts', 'server/src/lsp/execArgv.ts'] },
];

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SERVICE = join(REPO, 'server/src/service');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The layer a repository path belongs to: the longest matching folder, or the file itself. */
function layerOf(path: string): string | undefined {
  const rows = [...LAYERS.map((l) => l.path), 'l10n/', 'schemas/', 'package.json'];
  return rows.filter((p) => (p.endsWith('/') ? path.startsWith(p) : path === p)).sort((a, b) => b.length - a.length)[0];
}

/** Every relative import (static, dynamic, re-export) of the sources, as repository paths. */
function imports(): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (const f of [...files(join(REPO, 'server/src')), ...files(join(REPO, 'client/src'))]) {
    const src = readFileSync(f, 'utf8');
    for (const m of src.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*'(\.[^']+)'|(?:^|\n)\s*import\s*'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      out.push({ from: relative(REPO, f), to: relative(REPO, resolve(dirname(f), spec)) });
    }
  }
  return out;
}

test('every relative import fits the layer table (ARCHITECTURE.md, "Layers")', () => {
  const offenders: string[] = [];
  for (const { from, to } of imports()) {
    const a = layerOf(from);
    const b = layerOf(to);
    if (!a) offenders.push(`${from}: in no layer`);
    else if (a !== b && !LAYERS.find((l) => l.path === a)!.mayImport.some((m) => (m.endsWith('/') ? to.startsWith(m) : to === m))) offenders.push(`${from} → ${to} (${a} may not import ${to})`);
  }
  assert.deepEqual(offenders, []);
});

test('no import loops between source files', () => {
  const edges = new Map<string, string[]>();
  for (const { from, to } of imports()) edges.set(from, [...(edges.get(from) ?? []), to]);
  // Tarjan's strongly connected components: a component of more than one file is a loop.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do component.push((w = stack.pop()!));
    while (w !== v);
    if (component.length > 1 || edges.get(v)?.includes(v)) loops.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  assert.deepEqual(loops, []);
});

test('ARCHITECTURE.md shows the same layer table, row for row', () => {
  const doc = readFileSync(join(REPO, 'ARCHITECTURE.md'), 'utf8');
  const table = doc.slice(doc.indexOf('## Layers'), doc.indexOf('\n## ', doc.indexOf('## Layers') + 1));
  const rows = [...table.matchAll(/^\| `([^`]+)` \|[^|]*\| ([^|]*) \|$/gm)].map((m) => ({
    path: m[1]!,
    mayImport: [...m[2]!.matchAll(/`([^`]+)`/g)].map((x) => x[1]!),
  }));
  assert.deepEqual(rows, LAYERS.map((l) => ({ path: l.path, mayImport: [...l.mayImport] })));
});

test('the language service imports neither vscode, vscode-languageserver nor node: modules', () => {
  const offenders: string[] = [];
  for (const f of files(SERVICE)) {
    for (const m of readFileSync(f, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      if (/^(?:vscode|vscode-languageserver|vscode-languageclient)(?:\/|$)|^node:/.test(m[1]!)) offenders.push(`${f}: ${m[1]}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('no source file is over 450 lines (ARCHITECTURE.md, "Invariants")', () => {
  const long = [...files(join(REPO, 'server/src')), ...files(join(REPO, 'client/src'))]
    .map((f) => ({ f: relative(REPO, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
    .filter((x) => x.lines > 450)
    .map((x) => `${x.f}: ${x.lines} lines`);
  assert.deepEqual(long, []);
});

test('the front door exports no host utility; they are the second entry, service/host.ts (ARCHITECTURE.md, "Entry points")', async () => {
  const front = await import('../server/src/service/index.ts');
  const host = await import('../server/src/service/host.ts');
  assert.deepEqual(Object.keys(host).filter((name) => name in front), []);
});
