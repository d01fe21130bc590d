import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// ARCHITECTURE.md: the language service knows nothing of VS Code, LSP or Node's I/O; the CLI,
// the server and the client are adapters over it.
const SERVICE = fileURLToPath(new URL('../server/src/service', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('the language service imports neither vscode, vscode-languageserver nor node: modules', () => {
  const offenders: string[] = [];
  for (const f of files(SERVICE)) {
    for (const m of readFileSync(f, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      if (/^(?:vscode|vscode-languageserver|vscode-languageclient)(?:\/|$)|^node:/.test(m[1]!)) offenders.push(`${f}: ${m[1]}`);
    }
  }
  assert.deepEqual(offenders, []);
});
