/**
 * `agents-md prove` as JSON and SARIF 2.1.0 (docs/prove.md): one result per finding at its clause,
 * with the obligation as the rule, proved or qualified, and the witness in its properties.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type * as Sarif from 'sarif';
import { OBLIGATIONS, proveText as text, type Lang, type ProveFinding } from '../../service/index.ts';
import { format } from '../../service/host.ts';
import { REPOSITORY_URL, TOOL_NAME, TOOL_VERSION } from '../meta.ts';
import { pascalCase, SARIF_SCHEMA, sentence, SRCROOT } from './sarif.ts';

/** An obligation as a SARIF rule: GitHub code scanning wants a name, a full description and help. */
function obligationRule(o: (typeof OBLIGATIONS)[number], lang: Lang): Sarif.ReportingDescriptor {
  const summary = sentence(format(`prove.obligation.${o}`, {}, lang));
  const helpUri = `${REPOSITORY_URL}/blob/main/docs/prove.md#${o}`;
  return {
    id: `prove/${o}`,
    name: pascalCase(o),
    shortDescription: { text: summary },
    fullDescription: { text: summary },
    help: { text: `${summary} ${helpUri}`, markdown: `${summary} [docs/prove.md](${helpUri})` },
    helpUri,
    defaultConfiguration: { level: 'error' },
  };
}

/** The findings of one contract, and where each witness snapshot was written (`--replay`). */
export interface Proved {
  readonly file: string;
  readonly findings: readonly (ProveFinding & { readonly snapshot?: string })[];
}

export function proveJson(all: readonly Proved[], lang: Lang): string {
  const files = all.map((p) => ({
    file: p.file,
    findings: p.findings.map((f) => ({
      obligation: f.obligation,
      line: f.range.start.line + 1,
      column: f.range.start.character + 1,
      pointer: f.pointer,
      message: text(f.message, lang),
      messageId: f.message.id,
      args: f.message.args,
      proved: f.proved,
      qualified: f.qualified.map((q) => text(q, lang)),
      ...(f.witness ? { witness: f.witness } : {}),
      ...(f.snapshot ? { snapshot: f.snapshot } : {}),
    })),
  }));
  return `${JSON.stringify({ files }, null, 2)}\n`;
}

export function proveSarif(all: readonly Proved[], root: string, lang: Lang): string {
  const uriOf = (file: string) => {
    const rel = relative(root, resolve(root, file));
    return isAbsolute(rel) || rel.startsWith('..') ? resolve(root, file).split(sep).join('/') : rel.split(sep).join('/');
  };
  const results: Sarif.Result[] = all.flatMap((p) =>
    p.findings.map((f) => ({
      ruleId: `prove/${f.obligation}`,
      level: 'error' as const,
      message: { text: text(f.message, lang) },
      locations: [{ physicalLocation: { artifactLocation: { uri: uriOf(p.file), uriBaseId: SRCROOT }, region: { startLine: f.range.start.line + 1, startColumn: f.range.start.character + 1, endLine: f.range.end.line + 1, endColumn: f.range.end.character + 1 } } }],
      properties: { clause: f.pointer, proved: f.proved, qualified: f.qualified.map((q) => text(q, lang)), ...(f.witness ? { witness: f.witness } : {}), ...(f.snapshot ? { snapshot: f.snapshot } : {}) },
    })),
  );
  const run: Sarif.Run = {
    tool: { driver: { name: TOOL_NAME, version: TOOL_VERSION, informationUri: REPOSITORY_URL, rules: OBLIGATIONS.map((o) => obligationRule(o, lang)) } },
    originalUriBaseIds: { [SRCROOT]: { uri: `${root.split(sep).join('/').replace(/\/?$/, '/')}`.replace(/^(?!file:)/, 'file://') } },
    language: lang,
    results,
  };
  return `${JSON.stringify({ $schema: SARIF_SCHEMA, version: '2.1.0', runs: [run] }, null, 2)}\n`;
}
