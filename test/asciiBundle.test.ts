// scripts/asciiBundle.mjs (esbuild.mjs's `compact` entries): the CLI bundle in ASCII only, so
// the launcher reads it as Latin-1 (docs/performance.md, "Start-up"). What the escaped code
// computes is what the code computed, and the source map still points each name at its source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAscii } from 'node:buffer';
import { runInNewContext } from 'node:vm';
import { transformSync } from 'esbuild';
import { decode } from '@jridgewell/sourcemap-codec';
// @ts-expect-error: a build script in plain JavaScript, without types.
import { asciiBundle } from '../scripts/asciiBundle.mjs';

const escape = asciiBundle as (code: string, map?: string) => { code: string; map?: string };

test('escaped regular expressions and strings match and read as before, with and without the u flag', () => {
  const source = [
    'out = [',
    '  /[:：]$/.test("名称："), /^\\s*❌\\s*/u.exec("❌ 不得删除")[0], "计划".length,',
    '  /😀/.test("a😀"), /^[😀]$/u.test("😀"), /^[😀]$/.test("😀"), new RegExp(/[→⟶]/.source).test("⟶"),',
    '  "a：b".split(/[,，、;；：]/), /(?:分钟|min)$/i.test("5 分钟"), /\\p{Script=Han}+/u.exec("x 中文 y")[0],',
    '];',
  ].join('\n');
  const { code } = escape(transformSync(source, { charset: 'ascii' }).code);
  assert.ok(isAscii(Buffer.from(code)), code);
  const run = (js: string) => runInNewContext(`let out; ${js}; JSON.stringify(out)`) as string;
  assert.equal(run(code), run(source));
  assert.match(code, /\\uff1a/);
});

test('each name after an escaped character keeps its place in the source map', () => {
  const source = 'export const f = (s: string) => /[:：]$/.test(s) && marker(s) && /❌/u.test(s) && other(s);\nfunction marker(x: string) { return x; }\nfunction other(x: string) { return x; }\n';
  const before = transformSync(source, { loader: 'ts', format: 'cjs', minifyWhitespace: true, sourcemap: 'external' });
  const after = escape(before.code, before.map);
  const placeOf = (code: string, map: string, name: string) => {
    const line = code.split('\n').findIndex((l) => l.includes(`${name}(s)`));
    const column = code.split('\n')[line]!.indexOf(`${name}(s)`);
    const segment = decode(JSON.parse(map).mappings)[line]!.find((s) => s[0] === column);
    assert.ok(segment, `a mapping at ${name}'s column ${column}`);
    return segment.slice(1);
  };
  for (const name of ['marker', 'other']) {
    const [sourceIndex, sourceLine, sourceColumn] = placeOf(after.code, after.map!, name);
    assert.deepEqual([sourceIndex, sourceLine, sourceColumn], placeOf(before.code, before.map, name), name);
    assert.equal(source.split('\n')[sourceLine!]!.indexOf(`${name}(s)`), sourceColumn, `${name} maps to its own text`);
  }
  assert.equal(escape('plain ascii;\n', before.map).map, JSON.stringify(JSON.parse(before.map)), 'nothing moves in ASCII code');
});
