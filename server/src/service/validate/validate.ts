import type { ContractDiagnostic, Severity } from '../types.ts';
import type { Finding, SectionModel } from '../model/types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import { EMPTY_FACTS, type RulePreset, type RuleSetting, type WorkspaceFacts } from './facts.ts';
import { readDirectives } from './directives.ts';
import { RULES, ruleByCode } from './catalogue.ts';
import { RuleResults } from './ruleCache.ts';
import { contractLikeSection } from '../model/recognition.ts';
import { ruleMessageId } from './messages.ts';
import { format } from '../l10n/format.ts';

/**
 * A rule's setting: the configured one, or `off` for a `strict` rule outside the strict preset
 * (docs/rules.md, "Presets").
 */
function effectiveSetting(code: string, settings: Record<string, RuleSetting>, preset: RulePreset) {
  const s = settings[code];
  if (s === undefined && preset !== 'strict' && ruleByCode(code)?.preset === 'strict') return { severity: 'off' as const, options: {} };
  return settingOf(s);
}

function settingOf(s: RuleSetting | undefined): { severity?: Severity | 'off'; options: Record<string, unknown> } {
  if (s === undefined) return { options: {} };
  if (typeof s === 'string') return { severity: s, options: {} };
  return { ...(s.severity ? { severity: s.severity } : {}), options: { ...(s.options ?? {}) } };
}

/**
 * Whether rule `code` is off for `section` of `model`: by the configuration, the preset, a
 * `configure-file` comment, or disable comments that cover the whole section. Work only that rule
 * needs (the ReDoS analysis) is then not done (found by a tester).
 */
export function ruleOff(model: ParsedContract, config: WorkspaceFacts['config'], code: string, section: SectionModel | undefined): boolean {
  const directives = readDirectives(model.sections, model.lineCount);
  if (effectiveSetting(code, { ...config.rules, ...directives.fileSettings }, config.preset ?? 'recommended').severity === 'off') return true;
  return section !== undefined && directives.isDisabled(code, section.startLine) && directives.isDisabled(code, section.endLine);
}

/**
 * Validates a parsed document (docs/rules.md): the parser's findings plus every rule of the
 * catalogue, with severities from configuration and inline comments applied. Free-form files
 * get no diagnostics but `fileFindings` (problems with the file's bytes); a partial contract gets only its recognised sections' checks and one
 * `partial-contract` note. Synchronous and pure: whatever needs the workspace comes in `facts`.
 * A rule that throws yields an `internal-error` diagnostic instead of failing the whole run.
 * Returns diagnostics sorted by position.
 */
export function validateContract(model: ParsedContract, facts: WorkspaceFacts = EMPTY_FACTS, fileFindings: readonly Finding[] = []): ContractDiagnostic[] {
  const steps = validateSteps(model, facts, fileFindings);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * `validateContract` in steps: yields after each rule, so that a host can pause between rules
 * (docs/performance.md). The results of the rules run so far are kept with the model at once: a
 * validation abandoned half way leaves them for the next version to reuse.
 */
export function* validateSteps(model: ParsedContract, facts: WorkspaceFacts = EMPTY_FACTS, fileFindings: readonly Finding[] = []): Generator<void, ContractDiagnostic[]> {
  const partial = model.kind === 'partial';
  // A section skipped as too complex holds content no rule saw: checks that compare sections
  // would guess at it (a missing section, a fallback not found), so they wait, as for a partial contract.
  const unanalysed = model.sections.some((s) => s.findings.some((f) => f.code === 'content-too-complex'));
  const directives = readDirectives(model.sections, model.lineCount);
  const settings: Record<string, RuleSetting> = { ...facts.config.rules, ...directives.fileSettings };
  const preset = facts.config.preset ?? 'recommended';
  const findings: Finding[] = [...fileFindings];
  if (model.kind === 'freeform') {
    // Free-form files get no contract checks; one note when a heading looks like a contract section.
    const s = contractLikeSection(model);
    if (s) findings.push({ code: 'contract-not-recognised', range: s.titleRange ?? s.range, args: { title: s.title ?? '' } });
    return toDiagnostics(findings, settings, directives, preset);
  }

  for (const s of model.sections) {
    if (partial && !s.spec && !(s.kind === 'preamble' && [...model.owners.values()].includes(s))) {
      // Front matter that does not parse, or is not analysed, is the file's problem whatever its kind.
      if (s.kind === 'preamble') findings.push(...s.findings.filter((f) => f.code === 'yaml-syntax' || f.code === 'content-too-complex'));
      continue;
    }
    findings.push(...s.findings);
  }
  findings.push(...model.findings);
  if (partial) {
    const s = model.sections.find((x) => x.spec);
    const title = s?.spec?.title ?? [...model.owners.keys()][0] ?? '';
    findings.push({ code: 'partial-contract', range: s?.titleRange ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, args: { section: title } });
  }

  // Rules whose inputs did not change since the document's last validation are not run again (docs/performance.md).
  const results = new RuleResults(model);
  results.save();
  for (const rule of RULES) {
    if (!rule.check || ((partial || unanalysed) && rule.scope === 'document') || (facts.workspacePending && rule.needsWorkspace)) continue;
    const setting = effectiveSetting(rule.code, settings, preset);
    if (setting.severity === 'off') continue;
    try {
      results.check(rule, facts, setting.options, findings);
    } catch (e) {
      findings.push({ code: 'internal-error', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, args: { rule: rule.code, detail: String((e as Error)?.message ?? e) } });
    }
    yield;
  }
  return toDiagnostics(findings, settings, directives, preset);
}

/** Each finding's diagnostic as last formatted: a finding reused from the last validation (ruleCache.ts) is not formatted again. */
const formatted = new WeakMap<Finding, ContractDiagnostic>();

function toDiagnostics(findings: readonly Finding[], settings: Record<string, RuleSetting>, directives: ReturnType<typeof readDirectives>, preset: RulePreset): ContractDiagnostic[] {
  const out: ContractDiagnostic[] = [];
  for (const f of findings) {
    const rule = ruleByCode(f.code);
    const setting = effectiveSetting(f.code, settings, preset);
    if (setting.severity === 'off') continue;
    if (directives.isDisabled(f.code, f.range.start.line)) continue;
    const severity: Severity = setting.severity ?? rule?.severity ?? 'error';
    const known = formatted.get(f);
    if (known?.severity === severity) {
      out.push(known);
      continue;
    }
    // An unknown variant falls back to the rule's default message rather than showing an id.
    const messageId = ruleMessageId(f.code, f.variant && rule?.messages[f.variant] ? f.variant : undefined);
    const args = f.args ?? {};
    const related = f.related?.map((r) => ({ ...r, message: format(r.messageId, r.args) }));
    const d: ContractDiagnostic = { code: f.code, severity, range: f.range, message: format(messageId, args), messageId, args, ...(related ? { related } : {}) };
    formatted.set(f, d);
    out.push(d);
  }
  out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || a.code.localeCompare(b.code));
  return out;
}
