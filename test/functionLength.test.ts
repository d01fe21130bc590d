/**
 * The style rule "functions under ~100 lines" (CONTRIBUTING.md), checked: every function, method,
 * arrow function and accessor under server/src and client/src, measured by the TypeScript
 * compiler's syntax tree from its first line to its last (a nested function counts in its
 * parent too). A function over the limit fails the test unless it is in ALLOWED with the reason.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const repo = join(import.meta.dirname, '..');
const LIMIT = 100;

/** `file:name` of functions allowed over the limit, each with why. Keep it empty. */
const ALLOWED: ReadonlyMap<string, string> = new Map([]);

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) yield path;
  }
}

/** A function's name: its own, else the variable, property or method it is assigned to. */
function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
}

/** Every function of `file` longer than `LIMIT` lines, as `path:name (lines)`. */
export function longFunctions(file: string): { key: string; lines: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { key: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > LIMIT) found.push({ key: `${relative(repo, file)}:${nameOf(node)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test(`no function under server/src and client/src is over ${LIMIT} lines, except the allowed ones`, () => {
  const long = ['server/src', 'client/src'].flatMap((dir) => [...sources(join(repo, dir))]).flatMap(longFunctions);
  const unexpected = long.filter((f) => !ALLOWED.has(f.key)).map((f) => `${f.key} (${f.lines} lines)`);
  assert.deepEqual(unexpected, [], 'split these into named helpers with one job each');
  const stale = [...ALLOWED.keys()].filter((key) => !long.some((f) => f.key === key));
  assert.deepEqual(stale, [], 'allowed but no longer over the limit: remove from ALLOWED');
});

test('the measure finds a long function, named by its variable', () => {
  const body = Array.from({ length: LIMIT }, (_, i) => `  const x${i} = ${i};`).join('\n');
  const file = join(repo, 'test-results', `long-function-${process.pid}.ts`);
  ts.sys.writeFile(file, `export const long = () => {\n${body}\n};\nfunction short() {\n  return 1;\n}\n`);
  try {
    assert.deepEqual(longFunctions(file).map((f) => [f.key.replace(/^.*:/, ''), f.lines]), [['long', LIMIT + 2]]);
  } finally {
    ts.sys.deleteFile?.(file);
  }
});
