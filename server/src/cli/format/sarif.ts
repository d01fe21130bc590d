/**
 * SARIF 2.1.0 for GitHub code scanning (and any SARIF viewer). One run whose driver lists every
 * rule of the catalogue; results point into the files with paths relative to the workspace root
 * (`uriBaseId: "%SRCROOT%"`) and 1-based regions. SARIF's default `columnKind`,
 * `utf16CodeUnits`, is how the service counts characters, so columns need no conversion beyond +1.
 * Texts are in the display language (`run.language` says which); fingerprints use the English
 * message, so that an alert keeps its identity whatever language each run used.
 */
import { createHash } from 'node:crypto';
import { isAbsolute, relative, sep } from 'node:path';
import type * as Sarif from 'sarif';
import { type ConfigProblem, type ContractDiagnostic, type Range, type Rule, type Severity } from '../../service/index.ts';
import { RULES, format, localiseDiagnostic, ruleDocId } from '../../service/host.ts';
import { fileUri, uriToPath } from '../../node/nodeFileSystem.ts';
import { REPOSITORY_URL, ruleHelpUri, TOOL_NAME, TOOL_VERSION } from '../meta.ts';
import type { FileReport } from '../report.ts';
import '../messages.ts';

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
export const SRCROOT = '%SRCROOT%';
/** Key of our entry in `partialFingerprints`; bump the version if the recipe changes. */
export const FINGERPRINT_KEY = 'agentsMdFingerprint/v1';

export interface SarifOptions {
  /** The workspace root: artifact URIs are relative to it. */
  readonly root: string;
  /** Configuration problems, reported as tool configuration notifications. */
  readonly configProblems?: readonly ConfigProblem[];
  /** Other problems of the run (unreadable or unmatched paths), already in the display language. */
  readonly problems?: readonly string[];
  /** Display language of the texts (`en` by default). */
  readonly lang?: string;
}

export function sarifLevel(severity: Severity): Sarif.ReportingConfiguration.level {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

/** `rule-code` → `RuleCode`: SARIF's friendly rule name. */
export function pascalCase(code: string): string {
  return code
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/** SARIF wants plain-text messages to be sentences ending with a period (a Chinese one, 。, counts). */
export function sentence(s: string): string {
  const t = s.trim();
  return /[.!?。！？]$/.test(t) ? t : `${t}.`;
}

/** The reporting descriptor of a rule, its texts in `lang` (from the rule catalogue by id). */
export function ruleDescriptor(rule: Pick<Rule, 'code' | 'severity'>, lang = 'en'): Sarif.ReportingDescriptor {
  const helpUri = ruleHelpUri(rule.code, lang);
  const summary = sentence(format(ruleDocId(rule.code, 'summary'), {}, lang));
  const description = format(ruleDocId(rule.code, 'description'), {}, lang);
  const source = format(ruleDocId(rule.code, 'source'), {}, lang);
  let name = pascalCase(rule.code);
  // SARIF1001: the name must differ from the id, and not only by case (`schema` → `SchemaCheck`).
  if (name.toLowerCase() === rule.code.toLowerCase()) name += 'Check';
  return {
    id: rule.code,
    name,
    shortDescription: { text: summary },
    fullDescription: { text: sentence(format('cli.sarif.fullDescription', { summary, description }, lang)) },
    help: {
      text: format('cli.sarif.helpText', { description: sentence(description), source, uri: helpUri }, lang),
      markdown: format('cli.sarif.helpMarkdown', { description, source, uri: helpUri }, lang),
    },
    helpUri,
    defaultConfiguration: { level: sarifLevel(rule.severity) },
  };
}

/**
 * Where a file is, for SARIF: a relative URI against `%SRCROOT%` (the root). A file outside the
 * root keeps a relative `../` URI: the SARIF Multitool's GitHub rules (GH1006) say code scanning
 * rejects a file with an absolute `file:` URI, and a `../` one passes them (code scanning just
 * cannot show that file). Only a file on another drive (Windows), with no relative path, gets an
 * absolute URI.
 */
export function artifactLocation(path: string, root: string): Sarif.ArtifactLocation {
  const rel = relative(root, path);
  if (isAbsolute(rel)) return { uri: fileUri(path) };
  return { uri: (rel || '.').split(sep).map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

export function region(range: Range): Sarif.Region {
  const start = range.start;
  const endBefore = range.end.line < start.line || (range.end.line === start.line && range.end.character < start.character);
  const end = endBefore ? start : range.end;
  return { startLine: start.line + 1, startColumn: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 };
}

export function toSarif(reports: readonly FileReport[], options: SarifOptions): Sarif.Log {
  const lang = options.lang ?? 'en';
  const rules = RULES.map((r) => ruleDescriptor(r, lang));
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const indexOf = (d: ContractDiagnostic): number => {
    let i = ruleIndex.get(d.code);
    if (i === undefined) {
      // A code outside the catalogue should not happen; describe it rather than emit a dangling ruleIndex.
      i = rules.push({ id: d.code, shortDescription: { text: sentence(d.code) }, defaultConfiguration: { level: sarifLevel(d.severity) } }) - 1;
      ruleIndex.set(d.code, i);
    }
    return i;
  };

  const results: Sarif.Result[] = [];
  const ordered = [...reports].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const report of ordered) {
    const artifact = artifactLocation(report.path, options.root);
    const lines = report.text ? report.text.split(/\r\n|\r|\n/) : [];
    const seen = new Map<string, number>();
    for (const english of report.diagnostics) {
      const d = localiseDiagnostic(english, lang);
      const base = createHash('sha256')
        .update([d.code, artifact.uri, english.message, (lines[d.range.start.line] ?? '').trim()].join('\0'))
        .digest('hex');
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      const result: Sarif.Result = {
        ruleId: d.code,
        ruleIndex: indexOf(d),
        level: sarifLevel(d.severity),
        message: { text: sentence(d.message) },
        locations: [{ physicalLocation: { artifactLocation: artifact, region: region(d.range) } }],
        partialFingerprints: { [FINGERPRINT_KEY]: `${base}:${n}` },
      };
      if (d.related && d.related.length > 0) {
        result.relatedLocations = d.related.map((rel, id) => {
          const path = rel.uri ? uriToPath(rel.uri) : report.path;
          return {
            id,
            message: { text: sentence(rel.message) },
            physicalLocation: {
              artifactLocation: path ? artifactLocation(path, options.root) : { uri: rel.uri ?? artifact.uri! },
              region: region(rel.range),
            },
          };
        });
      }
      results.push(result);
    }
  }

  const configNotes: Sarif.Notification[] = (options.configProblems ?? []).map((p) => {
    const path = uriToPath(p.uri);
    return {
      level: 'error',
      message: { text: sentence(format(p.messageId, p.args, lang)) },
      locations: [{ physicalLocation: { artifactLocation: path ? artifactLocation(path, options.root) : { uri: p.uri } } }],
    };
  });
  const execNotes: Sarif.Notification[] = (options.problems ?? []).map((p) => ({ level: 'error', message: { text: sentence(p) } }));
  const invocation: Sarif.Invocation = { executionSuccessful: configNotes.length === 0 && execNotes.length === 0 };
  if (configNotes.length > 0) invocation.toolConfigurationNotifications = configNotes;
  if (execNotes.length > 0) invocation.toolExecutionNotifications = execNotes;

  const run: Sarif.Run = {
    tool: {
      driver: {
        name: TOOL_NAME,
        version: TOOL_VERSION,
        semanticVersion: TOOL_VERSION,
        informationUri: REPOSITORY_URL,
        rules,
      },
    },
    invocations: [invocation],
    originalUriBaseIds: { [SRCROOT]: { uri: ensureSlash(fileUri(options.root)) } },
    columnKind: 'utf16CodeUnits',
    ...(lang === 'zh-cn' ? { language: 'zh-CN' } : {}),
    results,
  };
  return { $schema: SARIF_SCHEMA, version: '2.1.0', runs: [run] };
}

function ensureSlash(uri: string): string {
  return uri.endsWith('/') ? uri : `${uri}/`;
}

export function formatSarif(reports: readonly FileReport[], options: SarifOptions): string {
  return JSON.stringify(toSarif(reports, options), null, 2) + '\n';
}
