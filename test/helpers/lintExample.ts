import { createLanguageService, type LintResult, type Rule } from '../../server/src/service/index.ts';
import { recheckAnalyzer } from '../../server/src/service/host.ts';
import { memoryFs } from './memoryFs.ts';

const ROOT = 'file:///ws';

/**
 * Lints `text` as `AGENTS.md` at the root of an in-memory workspace holding a rule example's
 * `workspace.files` (paths relative to the root) and `workspace.config` as `.agents-md.json`
 * (server/src/service/validate/rule.ts, `RuleExample`).
 */
export async function lintExample(text: string, workspace: { files?: Readonly<Record<string, string>>; config?: Readonly<Record<string, unknown>> } = {}): Promise<LintResult> {
  const files: Record<string, string> = { [`${ROOT}/AGENTS.md`]: text };
  for (const [p, c] of Object.entries(workspace.files ?? {})) files[`${ROOT}/${p}`] = c;
  if (workspace.config) files[`${ROOT}/.agents-md.json`] = JSON.stringify(workspace.config);
  const service = createLanguageService({ fs: memoryFs(files), roots: [ROOT], analyzeRegex: recheckAnalyzer });
  return service.lintBytes(`${ROOT}/AGENTS.md`, new TextEncoder().encode(text));
}

/** A rule's example workspace; a `strict` rule's examples are linted with `extends: strict`. */
export function exampleWorkspace(rule: Rule): Rule['examples']['workspace'] {
  const ws = rule.examples.workspace;
  return rule.preset === 'strict' ? { ...ws, config: { extends: 'strict', ...ws?.config } } : ws;
}
