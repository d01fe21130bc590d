import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishMessages } from '../server/src/service/host.ts';
// The CLI's own message set is registered by the CLI, which the service never imports.
import '../server/src/cli/messages.ts';

const CLIENT = fileURLToPath(new URL('../client/src', import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/**
 * The strings the VS Code client passes to `vscode.l10n.t` (first argument, a string literal, as
 * VS Code's own extraction requires). VS Code keys the client's bundle entries by this English text.
 */
export function clientStrings(): string[] {
  const out = new Set<string>();
  for (const f of tsFiles(CLIENT)) {
    for (const m of readFileSync(f, 'utf8').matchAll(/\bl10n\.t\(\s*(['"])((?:\\.|(?!\1).)*)\1/g)) out.add(JSON.parse(`"${m[2]!.replace(/\\'/g, "'").replace(/"/g, '\\"')}"`));
  }
  return [...out];
}

/**
 * l10n/bundle.l10n.json: every message in English, in @vscode/l10n's bundle format. Catalogue
 * messages are keyed by their id; the client's strings by their English text (VS Code's rule for
 * `vscode.l10n.t`). It is what translators start from (`l10n/bundle.l10n.<lang>.json` has the same
 * keys) and what tools such as `@vscode/l10n-dev` read; the server and CLI use the catalogues.
 */
export function renderEnglishBundle(): string {
  const bundle: Record<string, string> = Object.fromEntries(englishMessages());
  for (const s of clientStrings()) bundle[s] = s;
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

/**
 * The messages of the English bundle that `translated` (a `l10n/bundle.l10n.<lang>.json`) lacks or
 * leaves empty: `npm run generate` stops on them rather than write English into the other
 * language's pages (docs/zh-cn/rules.md falls back to English for a missing id).
 */
export function untranslated(english: Readonly<Record<string, string>>, translated: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(english).filter((id) => typeof translated[id] !== 'string' || (translated[id] as string).trim() === '');
}
